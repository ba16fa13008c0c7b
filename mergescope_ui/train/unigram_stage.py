"""What the stage shows at each Unigram pruning round: the engine's rounds as stage records (pure).

A step is a round: the card gives the loss and the vocabulary shrinking toward its target, the chart
the pieces pruned and the kept ones closest to it; the sequences show the best segmentation (Viterbi),
each stretch cut anew marked ``new`` with what it was.

>>> from .scheme_run import SchemeSettings, start_scheme_run
>>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
>>> run = start_scheme_run(text, SchemeSettings(scheme="unigram", vocab_size=12))
>>> views = UnigramViews(run, text)
>>> run.jump(3), views.view(1).places, "ms-pruned" in views.view(1).pairs  # round 1 changes no best cut
(3, None, True)
>>> changed = views.view(3).places.items[0].token[0]  # round 3 prunes ▁hugs: the word is cut anew
>>> [views.piece(i) for i in changed.was], [views.piece(i) for i in changed.ids], changed.mark
(['▁hugs'], ['▁hug', 's'], 'new')
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from itertools import accumulate
from typing import cast

from bpe_core.unigram import PieceLoss, UnigramRound, UnigramTrainer, viterbi
from mergescope_ui.shared.html.numbers import change, decimals, readable, signed
from mergescope_ui.shared.html.tokens import PALETTE_SIZE, clip_label
from mergescope_ui.shared.stage.contract import (
    HEAD_CHARS,
    PLACES_PER_STEP,
    ButtonTitles,
    Places,
    Span,
    Spans,
    StepView,
    TokenLabel,
    Wording,
)

from .pair_bars import bar_html, bars_html
from .quiz import UNIGRAM_QUESTION
from .scheme_run import SchemeRun
from .scheme_stage import SchemeViews, esc, visible, word_place

# A word as training sees it (the engine's rule in bpe_core.training.unigram): a ▁ and what follows up to
# the next ▁ or white space; a run of other non-space; or a run of white space other than the space.
WORD = re.compile(r"▁[^▁\s]*|[^▁\s]+|\s+")
PRUNED_ROWS, KEPT_ROWS = 6, 4  # rows of the chart: pieces pruned, then kept pieces closest to it
LABEL_COLUMNS = 12


def changed_spans(before: Sequence[int], after: Sequence[int], widths: Sequence[int]) -> Spans:
    """``after`` as spans, each stretch cut differently from ``before`` marked ``new`` (with the ids it
    was).  ``widths`` gives each id's length in characters (before's and after's ids both).

    >>> w = {1: 1, 2: 1, 3: 1, 4: 2, 5: 3}
    >>> [(s.ids, s.mark, s.was) for s in changed_spans([1, 2, 3], [4, 3], [w.get(i, 0) for i in range(6)])]
    [((4,), 'new', (1, 2)), ((3,), '', None)]
    """
    ends_b = list(accumulate(widths[i] for i in before))
    ends_a = list(accumulate(widths[i] for i in after))
    common = sorted(set(ends_b) & set(ends_a))
    out: list[Span] = []
    plain: list[int] = []
    ib = ia = 0
    for end in common:
        b: list[int] = []
        a: list[int] = []
        while ib < len(before) and ends_b[ib] <= end:
            b.append(before[ib])
            ib += 1
        while ia < len(after) and ends_a[ia] <= end:
            a.append(after[ia])
            ia += 1
        if a == b:
            plain += a
            continue
        if plain:
            out.append(Span(ids=tuple(plain), mark="", was=None))
            plain = []
        out.append(Span(ids=tuple(a), mark="new", was=tuple(b)))
    if plain:
        out.append(Span(ids=tuple(plain), mark="", was=None))
    return tuple(out)


class UnigramViews(SchemeViews):
    """The stage's views of one Unigram run (see the module docstring)."""

    scheme = "unigram"
    quiz = UNIGRAM_QUESTION

    def __init__(self, run: SchemeRun, text: str) -> None:
        super().__init__(run, text)
        self.trainer = trainer = cast(UnigramTrainer, run.trainer)  # a Unigram run's trainer
        self.pieces = [p for p, _ in trainer.seed.pieces]
        self.ids = {p: i + 1 for i, p in enumerate(self.pieces)}  # 0 is <unk>
        self.widths = [1] + [len(p) for p in self.pieces]
        head = trainer.normalizer.normalize(text[:HEAD_CHARS]).text
        self.head_words = WORD.findall(head)
        self._cuts: dict[tuple[int, str], tuple[int, ...]] = {}

    @property
    def rounds(self) -> list[UnigramRound]:
        """The run's rounds so far (a Unigram run holds only these)."""
        return cast(list[UnigramRound], self.run.records)

    # ----- pieces -----
    def piece(self, token_id: int) -> str:
        return self.trainer.options.unk_piece if token_id == 0 else self.pieces[token_id - 1]

    def label(self, token_id: int) -> tuple[TokenLabel, int]:
        piece = self.piece(token_id)
        single = len(piece) == 1
        return self.make_label(
            piece,
            classes="ms-t ms-byte" if single or token_id == 0 else f"ms-t ms-c{token_id % PALETTE_SIZE}",
            title=f"seed piece #{token_id} · “{piece}” · {len(piece)} character{'' if single else 's'}",
        )

    def cut(self, word: str, k: int) -> tuple[int, ...]:
        """``word``'s best segmentation after ``k`` rounds, as ids."""
        key = (k, word)
        if key not in self._cuts:
            best = viterbi(word, self.run.scores[k], self.trainer.longest)
            self._cuts[key] = tuple(self.ids[p] for p in best.pieces) if best else (0,) * len(word)
        return self._cuts[key]

    def changed_words(self, k: int) -> list[str]:
        """The words (first-occurrence order) whose best cut round ``k`` changed (the run's)."""
        return self.run.recut[k - 1]

    # ----- the views -----
    def build(self, k: int, start: int) -> StepView:
        rounds = self.rounds
        if k == 0:
            upcoming = rounds[0] if rounds else None
            head: list[Span] = [Span(ids=self.cut(w, 0), mark="", was=None) for w in self.head_words]
            return self.step_view(
                0,
                tuple(head),
                heading="Round 0: the seed vocabulary",
                status="👉 Unigram starts big and prunes. Press Next ▶ (→) for the first round.",
                card=self._seed_card(),
                pairs="" if upcoming is None else self._chart(upcoming, name_pruned=False),
                after_caption="The text's best segmentation, from its start",
            )
        rnd = rounds[k - 1]
        head = [
            s for w in self.head_words for s in changed_spans(self.cut(w, k - 1), self.cut(w, k), self.widths)
        ]
        changed = self.changed_words(k)
        items = tuple(
            word_place(n + 1, changed_spans(self.cut(w, k - 1), self.cut(w, k), self.widths))
            for n, w in enumerate(changed[start : start + PLACES_PER_STEP], start=start)
        )
        return self.step_view(
            k,
            tuple(head),
            places=Places(total=len(changed), start=start, items=items) if changed else None,
            heading=f"Round {k:,}: {rnd.vocab_size_before:,} → {rnd.vocab_size:,} pieces",
            status="" if changed else self._no_cut_changed(rnd),
            card=self._card(rnd),
            pairs=self._chart(rnd, name_pruned=True),
            before_caption=f"Best cut before round {k}",
            after_caption=f"After round {k}",
        )

    def _no_cut_changed(self, rnd: UnigramRound) -> str:
        """Why round ``rnd`` cut no word anew, in words (the loss still moves: the probabilities do)."""
        n = len(rnd.pruned)
        pruned = "the piece it pruned was not" if n == 1 else f"none of the {n:,} pieces it pruned was"
        return (
            f"No word is cut differently after round {rnd.index:,}: {pruned} in any word's best cut, and "
            "re-estimating the other pieces' probabilities moved no cut. The loss moves only because those "
            f"probabilities did: {change(rnd.loss_before, rnd.loss_after)}."
        )

    def figures(self, k: int) -> str:
        seed = self.trainer.seed
        vocab, loss, tokens = len(seed.pieces) + 1, seed.loss, seed.tokens
        if k:
            rnd = self.rounds[k - 1]
            vocab, loss, tokens = rnd.vocab_size, rnd.loss_after, rnd.tokens_after
        target = self.trainer.options.vocab_size
        return f"Vocab {vocab:,} (target {target:,}) · loss {loss:,.1f} · corpus pieces {tokens:,}"

    def _shrink(self, vocab: int) -> str:
        seed, target = len(self.trainer.seed.pieces) + 1, self.trainer.options.vocab_size
        done = 1.0 if seed <= target else (seed - vocab) / (seed - target)
        return (
            f'<div class="ms-sc-shrink" role="img" aria-label="{100 * done:.0f}% of the way from the seed to '
            f'the target"><span style="width:{100 * done:.1f}%"></span></div>'
        )

    def _seed_card(self) -> str:
        seed, o = self.trainer.seed, self.trainer.options
        small = (
            f'<p class="ms-note">The seed has only {len(seed.pieces) + 1:,} pieces, no more than the '
            f"{o.vocab_size:,} asked for: nothing to prune. Ask for fewer (at least {seed.characters + 1:,}) "
            "to watch it prune.</p>"
            if len(seed.pieces) + 1 <= o.vocab_size
            else ""
        )
        return (
            '<div class="ms-card"><h4>The seed: every frequent substring</h4>'
            f'<div class="ms-tokens"><b>{len(seed.pieces) + 1:,}</b><span class="ms-op">→</span>'
            f"<b>{o.vocab_size:,}</b></div>"
            f"<p>{seed.characters:,} characters and {len(seed.pieces) - seed.characters:,} substrings of the "
            f"{seed.distinct_words:,} words (▁ marks a word's start), each with a probability.</p>"
            f"<p>Loss = Σ count × −log P(best cut) = <b>{seed.loss:,.2f}</b>.</p>"
            f"<p>Each round removes the pieces whose loss increase is smallest, keeping "
            f"{o.shrinking_factor:.0%} of them; single characters are never removed.</p>"
            f"{self._shrink(len(seed.pieces) + 1)}{small}</div>"
        )

    def _card(self, rnd: UnigramRound) -> str:
        places = decimals(rnd.loss_after - rnd.loss_before)  # both losses show the change
        return (
            f'<div class="ms-card"><h4>Round {rnd.index:,}: {len(rnd.pruned):,} pieces pruned</h4>'
            f'<div class="ms-tokens"><b>{rnd.vocab_size_before:,}</b><span class="ms-op">→</span>'
            f"<b>{rnd.vocab_size:,}</b></div>"
            f"{self._shrink(rnd.vocab_size)}"
            '<div class="ms-sc-grid">'
            f"<span>target</span><span><b>{rnd.target:,}</b> pieces</span>"
            f"<span>loss before</span><span><b>{readable(rnd.loss_before, places=places)}</b></span>"
            f"<span>loss after</span><span><b>{readable(rnd.loss_after, places=places)}</b> "
            f"· {change(rnd.loss_before, rnd.loss_after)}</span>"
            f"<span>corpus pieces</span><span>{rnd.tokens_before:,} → {rnd.tokens_after:,}</span></div>"
            '<p class="ms-note">Pruned: the pieces whose removal raised the loss least (ties: the less '
            "probable first); then EM re-estimated the probabilities of the rest.</p></div>"
        )

    def _chart(self, rnd: UnigramRound, *, name_pruned: bool) -> str:
        pruned, kept = list(rnd.pruned[:PRUNED_ROWS]), list(rnd.closest_kept[:KEPT_ROWS])
        top = max((p.increase for p in pruned + kept), default=0.0)
        key = "Bar: how much the loss rises without the piece."
        if not name_pruned:
            return bars_html("Loss increases now", key, [self._bar(p, "other", top) for p in pruned + kept])
        key += f" Orange: pruned ({len(rnd.pruned):,} in all); blue: kept, the closest to being pruned."
        bars = [f'<div class="ms-bars-sep">✂ Pruned ({len(rnd.pruned):,})</div>']
        bars += [self._bar(p, "pruned", top) for p in pruned]
        bars.append('<div class="ms-bars-sep">Kept, closest to being pruned</div>')
        bars += [self._bar(p, "kept", top) for p in kept]
        return bars_html(f"Loss increase without each piece (round {rnd.index})", key, bars)

    def _bar(self, p: PieceLoss, status: str, top: float) -> str:
        cost = (
            "in no word's best cut: pruning it costs nothing"
            if p.increase == 0
            else f"loss {signed(p.increase)} without it"
        )
        full = f"“{p.piece}” · {cost} · probability {math.exp(p.score):.2e}"
        label = f"<span>{esc(clip_label(visible(p.piece), LABEL_COLUMNS))}</span>"
        width = 100 * p.increase / top if top > 0 else 0.0
        return bar_html(status, full, label, width, signed(p.increase))

    def wording(self) -> Wording:
        run = self.run
        last, stop, finished = self.ended("round")
        return Wording(
            heading="Round {step}",
            waiting="Training up to round {step}…",
            waiting_card="Round {step}",
            past_end=f"Training stopped after round {last:,}: {stop}. Showing round {last:,}.",
            past_limit=f"Training stops at round {run.max_steps:,}.",
            finished=f"🏁 Unigram {finished}",
            places_tab="Words cut anew",
            next_places="The next words this round cut anew",
            places_noun="words",
            step_noun="round",
        )

    def titles(self) -> ButtonTitles:
        return ButtonTitles(
            back="Previous round (← key); nothing retrains",
            next="Reveal the next round: the pieces it prunes (→ key)",
            play="Step automatically at the speed set in the sidebar (P key)",
            reset="Back to round 0, the seed; the rounds made so far are kept for replay",
        )
