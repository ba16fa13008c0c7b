"""The real history and a what-if side by side, as tables and HTML (pure; no Streamlit).

>>> from bpe_core import train_steps
>>> text = "low low low low low lower lower newest newest newest newest newest newest widest widest widest"
>>> options = dict(vocab_size=262, pattern="whitespace", tie_break="lowest-id")
>>> real, alt = list(train_steps(text, **options)), list(train_steps(text, **options, block=[(108, 111)]))
>>> rows, classes = merge_rows(real, alt, start=3, end=5)
>>> rows.values.tolist(), classes
([[3, 'lo', 'ow', '≠'], [4, 'low', 'low', '='], [5, 'ew', 'ew', '=']], ['ms-part', 'ms-same', 'ms-same'])
"""

from __future__ import annotations

import html
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from bpe_core import MergeStep, Tokenizer
from bpe_core.analysis import Compression, VocabComparison, align, compare_made, compare_vocabs, compression
from bpe_core.byte_level import readable as label
from mergescope_ui.shared.html.tokens import clip_label, token_spans_html, window_length

MERGE_COLUMNS = ["merge", "real history", "what if", ""]
CLIP = 24  # columns of a token's label in a table or a token box; longer ones are cut in the middle


def merge_rows(
    real: Sequence[MergeStep], alt: Sequence[MergeStep], *, start: int, end: int, clip: int = CLIP
) -> tuple[pd.DataFrame, list[str]]:
    """Merges ``start..end`` of both histories (records from step 1), and a CSS class per row.

    A row is ``=`` where both made the same token, ``≠`` where they part; a token the other side also
    made by ``end`` carries ``⇄ k`` (its step there); a side that stopped shows ``—``.
    """
    made_real = {s.token: s.index for s in real[:end]}
    made_alt = {s.token: s.index for s in alt[:end]}
    rows, classes = [], []
    for k in range(start, end + 1):
        r = real[k - 1].token if k <= len(real) else None
        a = alt[k - 1].token if k <= len(alt) else None
        same = r is not None and r == a
        made: tuple[Mapping[bytes, int], ...] = ({}, {}) if same else (made_alt, made_real)  # the other's
        rows.append([k, _cell(r, made[0], clip), _cell(a, made[1], clip), "=" if same else "≠"])
        classes.append("ms-same" if same else "ms-part")
    return pd.DataFrame(rows, columns=MERGE_COLUMNS), classes


def _cell(token: bytes | None, elsewhere: Mapping[bytes, int], clip: int) -> str:
    """``token``'s label, with ``⇄ k`` when the other side made it at merge ``k`` (``elsewhere``)."""
    if token is None:
        return "—"
    return clip_label(label(token), clip) + (f"  ⇄ {elsewhere[token]}" if token in elsewhere else "")


@dataclass(frozen=True, slots=True)
class SequencePair:
    """The same text under both histories: each side's HTML and token count, how many places they
    cut differently, how many bytes of the text come before the part shown, and which of those places
    the part shown holds whole (``shown_from``..``shown_to``, from 1; both 0 when it holds none)."""

    real_html: str
    alt_html: str
    real_tokens: int
    alt_tokens: int
    differing: int
    skipped_bytes: int = 0
    shown_from: int = 0
    shown_to: int = 0


CONTEXT = 3  # stretches shown before the place the part shown starts at (at most half of it)


def sequences_html(
    real_ids: Sequence[int],
    real_vocab: Mapping[int, bytes],
    alt_ids: Sequence[int],
    alt_vocab: Mapping[int, bytes],
    *,
    window_bytes: int,
    special_ids: Collection[int] = (),
    from_difference: int = 0,
) -> SequencePair:
    """Both sequences as token spans over ``window_bytes`` bytes, the tokens where the two cut the text
    differently outlined; ``differing`` counts those places over the whole sequences.

    The part shown starts at the text's start or, with ``from_difference=k``, a few tokens before
    the k-th place they part (at the same byte on both sides; the last place when there are fewer),
    and holds that place whole even when it is longer than ``window_bytes``.

    >>> vocab = {i: bytes([i]) for i in range(256)} | {256: b"ab", 257: b"bc"}
    >>> pair = sequences_html([256, 99], vocab, [97, 257], vocab, window_bytes=10)
    >>> pair.differing, pair.real_html.count("ms-new"), pair.alt_html.count("ms-new")
    (1, 2, 2)
    >>> ids = [120] * 9 + [256, 99]  # xxxxxxxxx ab c  /  xxxxxxxxx a bc
    >>> alt = [120] * 9 + [97, 257]
    >>> later = sequences_html(ids, vocab, alt, vocab, window_bytes=6, from_difference=1)
    >>> later.skipped_bytes, later.real_html.count("ms-t "), (later.shown_from, later.shown_to)
    (6, 5, (1, 1))
    >>> sequences_html(ids, vocab, alt, vocab, window_bytes=6).shown_to  # the start: no place yet
    0
    """
    real_tokens = [real_vocab[i] for i in real_ids]
    alt_tokens = [alt_vocab[i] for i in alt_ids]
    stretches = align(real_tokens, alt_tokens)
    real_marks: list[int] = []
    alt_marks: list[int] = []
    starts: list[tuple[int, int]] = []  # each stretch's first token on each side
    differences: list[int] = []  # the stretches where the two cut differently
    i = j = 0
    for n, stretch in enumerate(stretches):
        starts.append((i, j))
        if not stretch.same:
            differences.append(n)
            real_marks.extend(range(i, i + len(stretch.left)))
            alt_marks.extend(range(j, j + len(stretch.right)))
        i += len(stretch.left)
        j += len(stretch.right)
    first, need = 0, window_bytes
    if from_difference > 0 and differences:
        place = differences[min(from_difference, len(differences)) - 1]
        first = place
        while (
            first > 0
            and place - first < CONTEXT
            and stretches[place].byte_start - stretches[first - 1].byte_start <= window_bytes // 2
        ):
            first -= 1
        need = max(window_bytes, stretches[place].byte_end - stretches[first].byte_start)
    i0, j0 = starts[first] if stretches else (0, 0)
    skipped = stretches[first].byte_start if stretches else 0
    real_shown = max(1, window_length(real_ids[i0:], real_vocab, need))
    alt_shown = max(1, window_length(alt_ids[j0:], alt_vocab, need))
    end = skipped + min(
        sum(map(len, real_tokens[i0 : i0 + real_shown])), sum(map(len, alt_tokens[j0 : j0 + alt_shown]))
    )
    whole = [
        number
        for number, n in enumerate(differences, start=1)
        if stretches[n].byte_start >= skipped and stretches[n].byte_end <= end
    ]

    def spans(ids: Sequence[int], vocab: Mapping[int, bytes], marks: list[int], offset: int, n: int) -> str:
        return token_spans_html(
            ids[offset:],
            vocab,
            emphasize=[m - offset for m in marks if m >= offset],
            special_ids=special_ids,
            css=False,
            max_tokens=n,
            clip=CLIP,
            breaks=False,  # a few lines of a box on one screen: a newline is its ↵, not two lines
        )

    return SequencePair(
        real_html=spans(real_ids, real_vocab, real_marks, i0, real_shown),
        alt_html=spans(alt_ids, alt_vocab, alt_marks, j0, alt_shown),
        real_tokens=len(real_ids),
        alt_tokens=len(alt_ids),
        differing=len(differences),
        skipped_bytes=skipped,
        shown_from=whole[0] if whole else 0,
        shown_to=whole[-1] if whole else 0,
    )


def labelled(spans: str, title: str) -> str:
    """The token box ``spans`` (from ``token_spans_html``) with ``title`` on its first line, before the
    tokens (a heading above it would take a line of the one screen).

    >>> labelled('<div class="ms-tokens"><span>x</span></div>', "Real <history>")
    '<div class="ms-tokens"><span class="ms-side">Real &lt;history&gt;</span><span>x</span></div>'
    """
    box = '<div class="ms-tokens">'
    if not spans.startswith(box):
        raise ValueError('a token box starts with <div class="ms-tokens">: build it with token_spans_html')
    return f'{box}<span class="ms-side">{html.escape(title, quote=True)}</span>{spans[len(box) :]}'


@dataclass(frozen=True, slots=True)
class Summary:
    """Both sides compared: their merges, vocabularies, and compression per text (name -> real, what-if)."""

    merges: tuple[int, int]
    vocab: VocabComparison
    compression: dict[str, tuple[Compression, Compression]]


def step_summary(
    real: Sequence[MergeStep], alt: Sequence[MergeStep], *, corpus_bytes: int, initial_tokens: int
) -> Summary:
    """The summary after each side's ``real``/``alt`` steps, from the step records alone (no encoding:
    each step says the training text's token count), cheap enough for every step.

    >>> from bpe_core import train_steps
    >>> options = dict(vocab_size=258, pattern="none", tie_break="lowest-id")
    >>> a = list(train_steps("low lower", **options))
    >>> b = list(train_steps("low lower", **options, block=[(108, 111)]))
    >>> s = step_summary(a, b, corpus_bytes=9, initial_tokens=9)
    >>> s.vocab.only_left, s.vocab.only_right, [c.tokens for c in s.compression["training"]]
    ((b'lo',), (b'ow',), [5, 5])
    """
    real_now, alt_now = (
        Compression(
            tokens=steps[-1].tokens_after if steps else initial_tokens, bytes=corpus_bytes, chars=0, words=0
        )
        for steps in (real, alt)
    )
    vocab = compare_made([s.token for s in real], [s.token for s in alt])
    return Summary(merges=(len(real), len(alt)), vocab=vocab, compression={"training": (real_now, alt_now)})


def summary(
    real: Tokenizer,
    alt: Tokenizer,
    texts: Mapping[str, str],
    *,
    training: tuple[Compression, Compression] | None = None,
) -> Summary:
    """Compare ``real`` and ``alt`` on each of ``texts`` (name -> text, each encoded by both); ``training``
    is the training text's compression when it is known without encoding.

    >>> from bpe_core import train
    >>> a = train("low lower", vocab_size=258, pattern="none", tie_break="lowest-id")
    >>> b = train("low lower", vocab_size=258, pattern="none", tie_break="lowest-id", block=[(108, 111)])
    >>> s = summary(a, b, {"held-out": "lo"})
    >>> s.vocab.only_left, s.vocab.only_right, [c.tokens for c in s.compression["held-out"]]
    ((b'lo',), (b'ow',), [1, 2])
    """
    figures = {"training": training} if training is not None else {}
    figures |= {name: (compression(real, text), compression(alt, text)) for name, text in texts.items()}
    return Summary(
        merges=(len(real.merges), len(alt.merges)), vocab=compare_vocabs(real, alt), compression=figures
    )


def summary_table(position: int, now: Summary, end: Summary | None = None) -> pd.DataFrame:
    """The summary after merge ``position`` as rows of figures, the real history next to the what-if, and
    at the end when given, with the merges each made (a figure only the end has, such as a held-out
    text, shows ``—`` now).  A text's cell reads ``tokens · bytes per token``.

    >>> from bpe_core import train
    >>> a = train("low lower", vocab_size=258, pattern="none", tie_break="lowest-id")
    >>> table = summary_table(2, summary(a, a, {"held-out": "lo"}))
    >>> list(table.columns), table.values.tolist()
    (['at merge 2', 'real', 'what if'], [['in both', '2 (100%)', '2 (100%)'], \
['only here', '0', '0'], ['held-out', '1 · 2.00', '1 · 2.00']])
    >>> at_end = summary_table(2, summary(a, a, {}), summary(a, a, {"held-out": "lo"})).values.tolist()
    >>> at_end[0], at_end[3]
    (['merges', '2', '2', '2', '2'], ['held-out', '—', '—', '1 · 2.00', '1 · 2.00'])
    """
    columns = [f"at merge {position:,}", "real", "what if"]
    figures = _figures(now)
    if end is None:
        return pd.DataFrame([[name, *pair] for name, pair in figures.items()], columns=columns)
    at_end = {"merges": tuple(f"{n:,}" for n in end.merges)} | _figures(end)
    now_merges = (str(position), str(min(position, now.merges[1])))
    rows = [
        [name, *figures.get(name, now_merges if name == "merges" else ("—", "—")), *pair]
        for name, pair in at_end.items()
    ]
    return pd.DataFrame(rows, columns=[*columns, "real, at end", "what if, at end"])


def _figure(c: Compression) -> str:
    return f"{c.tokens:,} · {c.bytes_per_token:.2f}"


def _figures(result: Summary) -> dict[str, tuple[str, str]]:
    v = result.vocab
    both = f"{v.shared:,} ({v.overlap:.0%})"
    out = {
        "in both": (both, both),  # short labels: five columns of figures fit a presenter column
        "only here": (f"{len(v.only_left):,}", f"{len(v.only_right):,}"),
    }
    for name, (real, alt) in result.compression.items():
        out[name] = (_figure(real), _figure(alt))
    return out
