"""What the stage shows at each WordPiece merge: the engine's steps as stage records (pure: no Streamlit).

The card gives ``score = count(ab) / (count(a) × count(b))``; the chart ranks pairs by score and marks
BPE's pick (the most frequent) when it is another.  :class:`WordPieceReplay` follows the merges over
every distinct word once, so any step's pieces are a lookup.

The HF course's corpus, where the two schemes disagree at once:

>>> from .scheme_run import SchemeSettings, start_scheme_run
>>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
>>> run = start_scheme_run(text, SchemeSettings(scheme="wordpiece", steps=3))
>>> views = WordPieceViews(run, text)
>>> run.jump(1), views.view(1).step, views.replay.split_at(4, 1)
(1, 1, ('h', '##u', '##gs'))
>>> "<b>5</b> / (<b>20</b> × <b>5</b>)" in views.view(1).card, views.view(1).places.total
(True, 1)
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import pairwise
from typing import cast

from bpe_core.wordpiece import (
    BERT_SPECIAL_TOKENS,
    WordPieceOptions,
    WordPieceStep,
    WordPieceTrainer,
)
from bpe_core.wordpiece import words as text_words
from mergescope_ui.shared.html.tokens import PALETTE_SIZE, clip_apart, clip_label
from mergescope_ui.shared.stage.contract import (
    HEAD_CHARS,
    PLACES_PER_STEP,
    Mark,
    Places,
    Spans,
    StepView,
    TokenLabel,
    Wording,
    spans,
)

from .pair_bars import bar_html, bars_html, halves_html
from .quiz import WORDPIECE_QUESTION
from .scheme_run import SchemeRun
from .scheme_stage import SchemeViews, esc, word_place

Pair = tuple[str, str]
PAIR_ROWS = 8
LABEL_COLUMNS = 7
CARD_COLUMNS = 12


def merge(split: Sequence[str], pair: Pair, token: str) -> list[str]:
    """``split`` with ``pair`` merged into ``token``, left to right without overlap (the engine's rule).

    >>> merge(["h", "##u", "##g", "##u", "##g"], ("##u", "##g"), "##ug")
    ['h', '##ug', '##ug']
    """
    out: list[str] = []
    k = 0
    while k < len(split):
        if k + 1 < len(split) and split[k] == pair[0] and split[k + 1] == pair[1]:
            out.append(token)
            k += 2
        else:
            out.append(split[k])
            k += 1
    return out


class WordPieceReplay:
    """Every distinct word's pieces, moved forward merge by merge (words in first-occurrence order).

    ``changed[k]``: the words the ``k``-th merge changed; :meth:`split_at` a word's pieces after any
    step it has passed.
    """

    def __init__(self, counts: Mapping[str, int], options: WordPieceOptions) -> None:
        self.words = list(counts)
        self.index = {w: i for i, w in enumerate(self.words)}
        self.first = [tuple(options.first_split(w)) for w in self.words]
        self.splits = [list(s) for s in self.first]
        self.history: dict[int, tuple[list[int], list[tuple[str, ...]]]] = {}
        self.changed: list[tuple[int, ...]] = [()]
        self.where: dict[Pair, set[int]] = {}
        for wi, split in enumerate(self.splits):
            for p in pairwise(split):
                self.where.setdefault(p, set()).add(wi)

    @property
    def step(self) -> int:
        return len(self.changed) - 1

    def advance(self, records: Sequence[WordPieceStep]) -> None:
        """Apply the merges of ``records`` not applied yet."""
        for rec in records[self.step :]:
            changed = []
            for wi in sorted(self.where.pop(rec.pair, ())):
                old = self.splits[wi]
                new = merge(old, rec.pair, rec.token)
                if new == old:
                    continue
                for p in pairwise(old):
                    if p != rec.pair and p in self.where:
                        self.where[p].discard(wi)
                for p in pairwise(new):
                    self.where.setdefault(p, set()).add(wi)
                self.splits[wi] = new
                steps, splits = self.history.setdefault(wi, ([], []))
                steps.append(rec.index)
                splits.append(tuple(new))
                changed.append(wi)
            self.changed.append(tuple(changed))

    def split_at(self, wi: int, k: int) -> tuple[str, ...]:
        """Word ``wi``'s pieces after ``k`` merges (``k`` at most :attr:`step`)."""
        if k > self.step:
            raise ValueError(f"step {k} is past the replay's {self.step}; advance it first")
        steps, splits = self.history.get(wi, ([], []))
        at = bisect.bisect_right(steps, k)
        return splits[at - 1] if at else self.first[wi]


class WordPieceViews(SchemeViews):
    """The stage's views of one WordPiece run (see the module docstring)."""

    scheme = "wordpiece"
    quiz = WORDPIECE_QUESTION

    def __init__(self, run: SchemeRun, text: str) -> None:
        super().__init__(run, text)
        self.trainer = trainer = cast(WordPieceTrainer, run.trainer)  # a WordPiece run's trainer
        self.options = trainer.options
        self.replay = WordPieceReplay(trainer.word_counts, trainer.options)
        head = text[:HEAD_CHARS]
        self.head_words = [
            self.replay.index[w.text]
            for w in text_words(head, special_tokens=BERT_SPECIAL_TOKENS)
            if w.text in self.replay.index and (w.end < len(head) or len(head) == len(text))
        ]
        self.ids: dict[str, int] = {}
        self.chars = sum(len(w) * n for w, n in trainer.word_counts.items())  # the corpus's, in words

    @property
    def steps(self) -> list[WordPieceStep]:
        """The run's steps so far (a WordPiece run holds only these)."""
        return cast(list[WordPieceStep], self.run.records)

    # ----- ids and labels -----
    def id_of(self, piece: str) -> int:
        if piece not in self.ids:
            self.ids.update((t, i) for i, t in enumerate(self.trainer.vocab) if t not in self.ids)
        return self.ids[piece]

    def label(self, token_id: int) -> tuple[TokenLabel, int]:
        piece = self.trainer.vocab[token_id]
        inside = piece.startswith(self.options.prefix)
        single = len(piece) == 1 or (inside and len(piece) == 3)
        kind = "a continuation piece (inside a word)" if inside else "starts a word"
        return self.make_label(
            piece,
            classes="ms-t ms-byte" if single else f"ms-t ms-c{token_id % PALETTE_SIZE}",
            title=f"id {token_id} · “{piece}” · {kind}",
        )

    def _ids(self, pieces: Sequence[str]) -> list[int]:
        return [self.id_of(p) for p in pieces]

    def merged(self, before: Sequence[str], step: WordPieceStep) -> Spans:
        """``before`` with ``step``'s merge made, each new piece marked with the pair it was made from."""
        pair_ids = tuple(self._ids(step.pair))
        after = merge(before, step.pair, step.token)
        marks: dict[int, tuple[Mark, tuple[int, ...]]] = {}
        k = 0
        for n, piece in enumerate(after):
            if piece == step.token and tuple(before[k : k + 2]) == step.pair:
                marks[n] = ("new", pair_ids)
                k += 2
            else:
                k += 1
        return spans(self._ids(after), marks)

    # ----- the views -----
    def build(self, k: int, start: int) -> StepView:
        run, steps = self.run, self.steps
        self.replay.advance(steps)
        if k == 0:
            upcoming = steps[0] if steps else None
            first = [i for wi in self.head_words for i in self._ids(self.replay.first[wi])]
            return self.step_view(
                0,
                spans(first),
                heading="Step 0: every word as characters",
                status="👉 Each word is its first character, then the others with ##. Press Next ▶ (→).",
                card=self._intro_card(),
                pairs="" if upcoming is None else self._pairs(upcoming, name_winner=False),
                after_caption="The words from the start of the text",
            )
        step = steps[k - 1]
        head = [s for wi in self.head_words for s in self.merged(self.replay.split_at(wi, k - 1), step)]
        where = self.replay.changed[k]
        items = []
        for n, wi in enumerate(where[start : start + PLACES_PER_STEP], start=start):
            line = self.merged(self.replay.split_at(wi, k - 1), step)
            at = next(x for x, s in enumerate(line) if s.mark == "new")
            items.append(word_place(n + 1, line[at : at + 1], lead=line[:at], tail=line[at + 1 :]))
        return self.step_view(
            k,
            tuple(head),
            places=Places(total=len(where), start=start, items=tuple(items)),
            heading=f"Merge {k:,} of up to {run.max_steps:,}",
            card=self._card(step),
            pairs=self._pairs(step, name_winner=True),
            before_caption=f"Words before merge {k}",
            after_caption=f"After merge {k}",
        )

    def figures(self, k: int) -> str:
        records = self.steps[:k]
        vocab = len(self.options.special_tokens) + self.trainer.alphabet_size
        vocab += sum(1 for r in records if r.added)  # (k steps: cheap)
        step = records[-1] if records else None
        tokens = step.tokens_after if step is not None else self.chars
        fewer = f" ({step.replaced:,} fewer)" if step is not None else ""
        per = self.chars / max(tokens, 1)
        return f"Vocab {vocab:,} · corpus pieces {tokens:,}{fewer} · {per:.3f} characters per piece"

    def _intro_card(self) -> str:
        o = self.options
        return (
            '<div class="ms-card"><h4>WordPiece starts from characters</h4>'
            "<p>Every word is cut into characters: the first as it is, the others with "
            f"<code>{esc(o.prefix)}</code> (a continuation piece: it never starts a word).</p>"
            f"<p>Alphabet: <b>{self.trainer.alphabet_size:,}</b> pieces, plus {len(o.special_tokens)} "
            "special tokens.</p><p>Each merge joins the pair with the highest <b>score</b> = "
            "count(ab) / (count(a) × count(b)): a pair whose parts are rare on their own "
            "wins over a merely frequent one.</p></div>"
        )

    def _card(self, step: WordPieceStep) -> str:
        left, right = clip_apart([step.left, step.right], CARD_COLUMNS)
        new = clip_label(step.token, CARD_COLUMNS)
        ids = self._ids((step.left, step.right, step.token))
        sides = zip("lrn", ids, (step.left, step.right, step.token), (left, right, new), strict=True)
        toks = [
            f'<span class="ms-f{side} ms-t ms-c{i % PALETTE_SIZE}" title="{esc(full)}">{esc(shown)}</span>'
            for side, i, full, shown in sides
        ]
        op = '<span class="ms-op">{}</span>'
        out = [
            f'<div class="ms-card"><h4>Merge {step.index:,}</h4>',
            f'<div class="ms-tokens">{toks[0]}{op.format("+")}{toks[1]}{op.format("→")}{toks[2]}</div>',
            f'<p class="ms-sc-score">score = <b>{step.count:,}</b> / (<b>{step.left_count:,}</b> × '
            f"<b>{step.right_count:,}</b>) = <b>{_score(step.score)}</b></p>",
            '<div class="ms-sc-grid">'
            f"<span>count({esc(left)} {esc(right)}), side by side</span><span><b>{step.count:,}</b></span>"
            f"<span>count({esc(left)})</span><span><b>{step.left_count:,}</b></span>"
            f"<span>count({esc(right)})</span><span><b>{step.right_count:,}</b></span></div>",
        ]
        if step.bpe_pair is not None and step.bpe_pair != step.pair:
            bpe = next((r for r in step.top_by_count if (r.left, r.right) == step.bpe_pair), None)
            if bpe is not None:
                a, b = clip_apart(list(step.bpe_pair), CARD_COLUMNS)
                why = (
                    f"but scores only {_score(bpe.score)} (its parts occur {bpe.left_count:,} and "
                    f"{bpe.right_count:,} times)"
                    if bpe.exact_score < Fraction(step.count, step.left_count * step.right_count)
                    else f"and scores as much ({_score(bpe.score)}): the {step.tie_break} rule chose"
                )
                out.append(
                    f'<p class="ms-sc-bpe">BPE would merge <code>{esc(a)} + {esc(b)}</code>: it occurs '
                    f"<b>{bpe.count:,}</b> times, more often, {esc(why)}.</p>"
                )
        else:
            out.append(
                '<p class="ms-note">BPE would merge the same pair here (it is also the most frequent).</p>'
            )
        notes = [f"{step.replaced:,} places merged"]
        if not step.added:
            notes.append(f"{esc(step.token)} was in the vocabulary already")
        if step.tied:
            notes.append(
                f"{len(step.ties) - 1} other pair(s) had the same score; the {esc(step.tie_break)} rule chose"
            )
        out.append(f'<p class="ms-note">{" · ".join(notes)}.</p></div>')
        return "".join(out)

    def _pairs(self, step: WordPieceStep, *, name_winner: bool) -> str:
        rows = list(step.top_by_score[:PAIR_ROWS])
        bpe = None
        if name_winner and step.bpe_pair is not None and step.bpe_pair != step.pair:
            bpe = step.bpe_pair
            if all((r.left, r.right) != bpe for r in rows):
                extra = next((r for r in step.top_by_count if (r.left, r.right) == bpe), None)
                rows = rows[: PAIR_ROWS - 1] + ([extra] if extra else [])
        top = max((r.score for r in rows), default=1.0) or 1.0
        title = f"Pair scores before merge {step.index}" if name_winner else "Pair scores now"
        key = "Bars: score = count(ab) / (count(a) × count(b)); the count in brackets."
        if name_winner:
            key += " Orange ◀: merged."
            if bpe is not None:
                key += " Blue, underlined: BPE's pick (the most frequent pair)."
        bars = []
        for n, r in enumerate(rows):
            pair = (r.left, r.right)
            status, mark = "other", ""
            if name_winner and n == 0 and pair == step.pair:
                status, mark = "chosen", " ◀"
            elif bpe is not None and pair == bpe:
                status = "bpe"  # blue and underlined (the key and the tooltip say so): no room for a word
            full = (
                f"{r.left} + {r.right} · score {_score(r.score)} = "
                f"{r.count:,} / ({r.left_count:,} × {r.right_count:,})"
            ) + (" · BPE's pick: the most frequent pair" if status == "bpe" else "")
            label = halves_html(clip_apart(list(pair), LABEL_COLUMNS))
            number = f"{_score(r.score)} ({r.count:,}){mark}"
            bars.append(bar_html(status, full, label, 100 * r.score / top, number))
        return bars_html(title, key, bars)

    def wording(self) -> Wording:
        run = self.run
        last, stop, finished = self.ended("merge")
        return Wording(
            heading=f"Merge {{step}} of up to {run.max_steps:,}",
            waiting="Training up to merge {step}…",
            waiting_card="Merge {step}",
            past_end=f"Training stopped at merge {last:,}: {stop}. Showing merge {last:,}.",
            past_limit=f"Training stops at merge {run.max_steps:,}, the number of merges set in the sidebar.",
            finished=f"🏁 WordPiece {finished}",
            next_places="The next words where it merged",
            places_noun="words",  # the words of the text (each once) the merge changed
        )


def _score(value: float) -> str:
    """A score with three significant digits (scores are small fractions).

    >>> _score(0.05), _score(1 / 3), _score(0.000123456)
    ('0.05', '0.333', '0.000123')
    """
    return f"{value:.3g}"
