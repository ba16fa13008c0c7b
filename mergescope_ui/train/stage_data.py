"""What the stage shows at each step of a BPE training run: its producer (pure: no Streamlit).

A step's view holds the merge card and the pair chart, and the first places where the new token stands
in the whole text and the text from its start, each new token marked with the pair it was made from.

>>> from bpe_core import Trainer, TrainOptions
>>> from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
>>> text, options = "low low lower", TrainOptions(vocab_size=260, pattern="none", tie_break="lowest-id")
>>> run = TrainingRun(Trainer(text, options), identity=RunIdentity.of(text, options))
>>> views = StageViews(run, text)
>>> run.jump(2), views.view(2).places.total, views.view(2).places.items[0].token
(2, 3, (Span(ids=(257,), mark='new', was=(256, 119)),))

A live room's students page through a step's places (:meth:`~StageViews.page`):

>>> text = "ab " * 20
>>> run = TrainingRun(Trainer(text, options), identity=RunIdentity.of(text, options))
>>> views = StageViews(run, text)
>>> _ = run.jump(1)
>>> view, labels = views.page(1, 6)
>>> view.places.start, [p.number for p in view.places.items], views.page(2, 0)
(6, [7, 8, 9, 10, 11, 12], None)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from bpe_core.bpe import TextPlace
from bpe_core.byte_level import partial_note
from mergescope_ui.shared.html.tokens import stage_label
from mergescope_ui.shared.stage.contract import (
    CONTEXT_COLUMNS,
    HEAD_CHARS,
    PLACES_PER_STEP,
    Place,
    Places,
    Question,
    Spans,
    StepView,
    TokenLabel,
    Wording,
    spans,
)
from mergescope_ui.shared.stage.producer import RunProducer, shared_views
from mergescope_ui.shared.training_run import TrainingRun
from mergescope_ui.shared.workers.remote_trainer import characters_for, replay_for

from .cards import intro_card_html, merge_card_html
from .pair_bars import pair_bars_html
from .quiz import BPE_QUESTION, stage_question


def merged_spans(ids: Sequence[int], pair: tuple[int, int], new_id: int) -> Spans:
    """``ids`` after the merge of ``pair`` into ``new_id``: each new token marked ``new``, made from the pair.

    >>> merged_spans([5, 9, 6], (1, 2), 9)[1]
    Span(ids=(9,), mark='new', was=(1, 2))
    """
    return spans(ids, {n: ("new", pair) for n, i in enumerate(ids) if i == new_id})


class StageViews(RunProducer):
    """Each step's view for one run, built on demand and kept in the memo every session's views of an equal
    run share (:func:`~mergescope_ui.shared.stage.producer.shared_views`)."""

    quiz = BPE_QUESTION

    def __init__(self, run: TrainingRun, text: str) -> None:
        super().__init__(shared_views(run.identity))
        trainer = run.trainer
        self.run: TrainingRun = run
        self.special_ids = frozenset(trainer.special_tokens.values())
        self.replay = replay_for(trainer, text)  # a large text's stays in its worker
        self.head_bytes = len(text[:HEAD_CHARS].encode("utf-8"))
        self.text_chars = len(text)
        self.chars = characters_for(trainer, text)  # ties a partial token's bytes to its character
        self._merges: list[tuple[tuple[int, int], int]] = []

    @property
    def max_steps(self) -> int:
        return self.run.identity.settings.max_merges

    def replay_step(self) -> int:
        return self.replay.step

    def ask(self, k: int) -> Question | None:
        records = self.run.records
        return stage_question(self.quiz, records[k - 1], k) if 0 < k <= len(records) else None

    # ----- one step -----
    def _merges_so_far(self) -> list[tuple[tuple[int, int], int]]:
        records = self.run.records
        self._merges.extend((s.pair, s.new_id) for s in records[len(self._merges) :])
        return self._merges

    def build(self, k: int, start: int) -> StepView:
        run, replay = self.run, self.replay
        replay.move_to(k, self._merges_so_far())
        head = replay.head(max_bytes=self.head_bytes)
        more = self.text_chars > HEAD_CHARS
        if k == 0:
            upcoming = run.records[0] if run.records else None
            return StepView(
                step=0,
                heading="Step 0: the text as raw bytes",
                status="👉 Every token is one byte. Press Next ▶ (or the → key) to make the first merge.",
                card=intro_card_html(special_ids=self.special_ids),
                pairs=pair_bars_html(upcoming, name_winner=False, chars=self.chars) if upcoming else "",
                figures=self._figures(k),
                before_caption="",
                after_caption="The text as raw bytes, from its start",
                head=spans(head),
                head_more=more,
                places=None,
            )
        step = run.records[k - 1]
        # Enough bytes for the columns on each side (a byte shown as <XX> takes four), then cut to them.
        near = replay.places(
            step.new_id, start=start, limit=PLACES_PER_STEP, context_bytes=3 * CONTEXT_COLUMNS
        )
        found = [self._trim(p) for p in near]

        def line(ids: Sequence[int]) -> Spans:
            return merged_spans(ids, step.pair, step.new_id)

        places = tuple(
            Place(
                number=p.index + 1,
                lead=line(p.left),
                token=line((p.token,)),
                tail=line(p.right),
                link=_link(p, nxt, line),
                cut_before=not p.text_start,
                cut_after=not p.text_end,
            )
            for p, nxt in zip(found, [*found[1:], None], strict=True)
        )
        return StepView(
            step=k,
            heading=f"Step {k:,} of up to {run.identity.settings.max_merges:,} merges",
            status="",
            card=merge_card_html(step, special_ids=self.special_ids, chars=self.chars),
            pairs=pair_bars_html(step, chars=self.chars),
            figures=self._figures(k),
            before_caption=f"Before merge {k}",
            after_caption=f"After merge {k}",
            head=line(head),
            head_more=more,
            places=Places(total=step.replaced, start=start, items=places),
        )

    def _trim(self, place: TextPlace) -> TextPlace:
        """``place`` with its context cut to :data:`CONTEXT_COLUMNS` on each side (at least one token)."""
        left, right = place.left, place.right
        keep_left, keep_right = self.fit(reversed(left)), self.fit(right)
        return replace(
            place,
            left=tuple(left[len(left) - keep_left :]),
            right=tuple(right[:keep_right]),
            text_start=place.text_start and keep_left == len(left),
            text_end=place.text_end and keep_right == len(right),
        )

    def _figures(self, k: int) -> str:
        trainer, step = self.run.trainer, self.run.records[k - 1] if k else None
        tokens = step.tokens_after if step else trainer.initial_tokens
        saved = f" ({step.replaced:,} fewer)" if step else ""
        return (
            f"Vocab {256 + len(self.special_ids) + k:,} · corpus tokens {tokens:,}{saved} · "
            f"{trainer.corpus_bytes / max(tokens, 1):.3f} bytes per token"
        )

    # ----- token labels and sentences -----
    def label(self, token_id: int) -> tuple[TokenLabel, int]:
        # Every token made so far: the replay's vocab holds only those up to the step it is at.
        token = self.run.trainer.vocab[token_id]
        special = token_id in self.special_ids
        # a token that ends inside a character says which one, wherever it stands (the places too)
        note = "" if special or not self.chars else partial_note(token, self.chars, shown=1)
        return stage_label(token_id, token, special=special, note=note)

    def wording(self) -> Wording:
        run, max_merges = self.run, self.max_steps
        last, stop = run.pulled, run.stop_reason or ""
        return Wording(
            heading=f"Step {{step}} of up to {max_merges:,} merges",
            waiting="Training up to step {step}…",
            waiting_card="Merge {step}",
            past_end=f"Training stopped at step {last:,}: {stop}. Showing step {last:,}.",
            past_limit=(
                f"Training stops at step {max_merges:,}, the number of merges set in the sidebar; showing it."
            ),
            finished=f"🏁 Training finished after {last:,} merge{'' if last == 1 else 's'}: {stop}.",
        )


def _link(place: TextPlace, nxt: TextPlace | None, line: Callable[[Sequence[int]], Spans]) -> Spans | None:
    """The text between ``place``'s token and the next place's, when that one stands in ``place``'s
    right context (same chunk): the two are then shown on one line."""
    if nxt is None or nxt.chunk != place.chunk:
        return None
    d = nxt.at - place.at
    if not 1 <= d <= len(place.right):
        return None
    return line(place.right[: d - 1])
