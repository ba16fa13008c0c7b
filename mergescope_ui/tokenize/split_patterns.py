"""The split patterns side by side: the same text cut by GPT-2's, GPT-4's (cl100k) and o200k's patterns.

A chunk that ends where not every pattern cuts is outlined.  Pure but for :func:`split_patterns_view`;
every chunk is escaped.

>>> cuts = pattern_cuts("I'LL pay 12345\\n")
>>> [(c.name, c.chunks) for c in cuts]  # doctest: +NORMALIZE_WHITESPACE
[('gpt2', ('I', "'", 'LL', ' pay', ' 12345', '\\n')),
 ('gpt4', ('I', "'LL", ' pay', ' ', '123', '45', '\\n')),
 ('o200k', ("I'LL", ' pay', ' ', '123', '45', '\\n'))]
>>> sorted(disputed(cuts))
[1, 2, 9, 12]
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from bpe_core.byte_level import readable
from bpe_core.pretokenizer import PreTokenizer
from mergescope_ui.shared.html.safe_text import md_escape

from .assets import style

PATTERN_NAMES = {"gpt2": "GPT-2 (r50k, p50k)", "gpt4": "GPT-4 (cl100k)", "o200k": "GPT-4o (o200k)"}
MAX_SPLIT_CHARS = 3000  # the first characters of the text shown cut (all of them are counted)

SPLIT_CSS = style("split_patterns.css")


@dataclass(frozen=True, slots=True)
class PatternCut:
    """One pattern's chunks of the text, and the character offsets where they end."""

    name: str
    chunks: tuple[str, ...]
    ends: frozenset[int]


def pattern_cuts(text: str, names: Sequence[str] = tuple(PATTERN_NAMES)) -> list[PatternCut]:
    """``text`` cut by each named pattern (no special tokens)."""
    out = []
    for name in names:
        chunks = tuple(PreTokenizer(name).chunks(text))
        out.append(PatternCut(name, chunks, frozenset(itertools.accumulate(map(len, chunks)))))
    return out


def disputed(cuts: Sequence[PatternCut]) -> frozenset[int]:
    """Offsets where some of the patterns end a chunk and some do not."""
    if not cuts:
        return frozenset()
    return frozenset.union(*(c.ends for c in cuts)) - frozenset.intersection(*(c.ends for c in cuts))


def cut_html(cut: PatternCut, differ: frozenset[int]) -> str:
    """One pattern's chunks as spans (alternating colours; outlined where the patterns differ)."""
    name = html.escape(cut.name, quote=True)
    # A scroll area the keyboard can reach (tabindex) and a screen reader can name (axe-core:
    # scrollable-region-focusable).
    parts = [f'<div class="ms-pcut" tabindex="0" role="region" aria-label="the text cut by {name}">']
    end = 0
    for n, chunk in enumerate(cut.chunks):
        end += len(chunk)
        label = html.escape(readable(chunk.encode("utf-8")), quote=True)
        diff = " ms-diff" if end in differ else ""
        title = html.escape(
            f"chunk {n + 1} · ends at character {end}" + (" · the patterns differ here" if diff else ""),
            quote=True,
        )
        parts.append(f'<span class="ms-k ms-k{n % 2}{diff}" title="{title}">{label}</span>')
    parts.append("</div>")
    return "".join(parts)


def split_patterns_view(text: str) -> None:
    """The three patterns' chunks of (the start of) ``text``, their counts, and where they differ."""
    st.subheader("The split patterns side by side")
    st.caption(
        "Before any merge, a pattern cuts the text into chunks; no token crosses a chunk's edge. "
        "Outlined: a chunk ends where the other patterns do not cut (numbers in threes, contractions, "
        "a space before a word, newlines)."
    )
    if not text:
        st.info("Type a text above to see it cut.")
        return
    try:
        counts = [len(c.chunks) for c in pattern_cuts(text)]
        cuts = pattern_cuts(text[:MAX_SPLIT_CHARS])
    except ValueError as exc:
        st.error(f"The text cannot be cut: {md_escape(exc)}")
        return
    differ = disputed(cuts)
    if len(text) > MAX_SPLIT_CHARS:
        st.caption(f"Shown: the first {MAX_SPLIT_CHARS:,} characters; the counts cover the whole text.")
    st.html(SPLIT_CSS)
    for cut, count in zip(cuts, counts, strict=True):
        st.markdown(f"**{PATTERN_NAMES[cut.name]}**: {count:,} chunks")
        st.html(cut_html(cut, differ))
