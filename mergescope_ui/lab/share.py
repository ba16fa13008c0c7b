"""The lab's settings in the URL: corpora, pattern, largest vocab size, held-out split (pure).

A teacher sends ``/vocab-lab?corpus=lighthouse_story,machine_learning_zh&vocab=8192&heldout=end:30``
and the class opens the same run.  The held-out text reads ``split:PERCENT`` (documents held out),
``end:PERCENT`` (the end of the text) or ``text:CORPUS`` (a separate built-in text).  Values equal to
the page's defaults stay out of the link; a bad value is ignored with a note saying why.

>>> ids = ["lighthouse_story", "mixed_scripts", "machine_learning_zh"]
>>> params = {"corpus": "mixed_scripts,nope", "vocab": "8192", "heldout": "end:30"}
>>> link, notes = from_query(params, corpus_ids=ids)
>>> link.corpora, link.vocab, link.heldout
(('mixed_scripts',), 8192, HeldOut(how='end', share=30, text=None))
>>> notes
["ignored corpus 'nope': not a built-in corpus"]
>>> to_query(link, defaults=LabLink(corpora=("lighthouse_story",), pattern="gpt2", vocab=4096))
{'corpus': 'mixed_scripts', 'vocab': '8192', 'heldout': 'end:30'}
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from bpe_core.pretokenizer import excerpt

CORPUS, PATTERN, VOCAB, HELDOUT = "corpus", "pattern", "vocab", "heldout"
PARAM_NAMES = (CORPUS, PATTERN, VOCAB, HELDOUT)
SPLIT, END, TEXT = "split", "end", "text"
SHARES = range(5, 51, 5)  # the held-out share slider's values (percent)
DEFAULT_SHARE = 20
MAX_NOTES = 3  # unknown corpora named one by one; the rest are counted


@dataclass(frozen=True, slots=True)
class HeldOut:
    """Where the held-out text comes from: ``split`` or ``end`` of the training text (``share``
    percent), or a separate built-in ``text``."""

    how: str
    share: int | None = None
    text: str | None = None

    def key(self) -> str:
        return f"{TEXT}:{self.text}" if self.how == TEXT else f"{self.how}:{self.share}"


@dataclass(frozen=True, slots=True)
class LabLink:
    """What a link sets (None: not in the link, the page's own value stays)."""

    corpora: tuple[str, ...] | None = None
    pattern: str | None = None
    vocab: int | None = None
    heldout: HeldOut | None = None


def _one(value: str | list[str] | None) -> str | None:
    if isinstance(value, list):
        return value[-1] if value else None
    return value


def from_query(
    params: Mapping[str, str | list[str]],
    *,
    corpus_ids: Collection[str],
    patterns: Collection[str] = ("gpt2", "gpt4", "o200k", "whitespace", "none"),
    smallest: int = 257,
    largest: int = 32_768,
) -> tuple[LabLink, list[str]]:
    """The settings a link asks for, and a note for each part that was ignored (never raises)."""
    notes: list[str] = []
    corpora: tuple[str, ...] | None = None
    raw = _one(params.get(CORPUS))
    if raw is not None:
        wanted = [c for c in raw.split(",") if c]
        unknown = [c for c in wanted if c not in corpus_ids]
        for c in unknown[:MAX_NOTES]:
            notes.append(f"ignored corpus {excerpt(c)}: not a built-in corpus")
        if len(unknown) > MAX_NOTES:
            notes.append(f"ignored {len(unknown) - MAX_NOTES:,} more unknown corpora")
        corpora = tuple(dict.fromkeys(c for c in wanted if c in corpus_ids)) or None
    pattern = _one(params.get(PATTERN))
    if pattern is not None and pattern not in patterns:
        notes.append(f"ignored pattern {excerpt(pattern)}: use one of {', '.join(patterns)}")
        pattern = None
    vocab = None
    raw = _one(params.get(VOCAB))
    if raw is not None:
        if raw.isascii() and raw.isdigit() and len(raw) < 7 and smallest <= int(raw) <= largest:
            vocab = int(raw)
        else:
            notes.append(f"ignored vocab {excerpt(raw)}: give a whole number from {smallest} to {largest:,}")
    heldout = None
    raw = _one(params.get(HELDOUT))
    if raw is not None:
        heldout = _heldout(raw, corpus_ids)
        if heldout is None:
            notes.append(
                f"ignored heldout {excerpt(raw)}: use split:PERCENT, end:PERCENT (5 to 50, in steps of 5) "
                "or text:CORPUS"
            )
    return LabLink(corpora, pattern, vocab, heldout), notes


def _heldout(raw: str, corpus_ids: Collection[str]) -> HeldOut | None:
    how, _, value = raw.partition(":")
    if how in (SPLIT, END) and value.isascii() and value.isdigit() and int(value) in SHARES:
        return HeldOut(how, share=int(value))
    if how == TEXT and value in corpus_ids:
        return HeldOut(TEXT, text=value)
    return None


def to_query(link: LabLink, *, defaults: LabLink) -> dict[str, str]:
    """The parameters for ``link``, leaving out what equals ``defaults``."""
    out: dict[str, str] = {}
    if link.corpora is not None and link.corpora != defaults.corpora:
        out[CORPUS] = ",".join(link.corpora)
    if link.pattern is not None and link.pattern != defaults.pattern:
        out[PATTERN] = link.pattern
    if link.vocab is not None and link.vocab != defaults.vocab:
        out[VOCAB] = str(link.vocab)
    if link.heldout is not None and link.heldout != (defaults.heldout or HeldOut(SPLIT, DEFAULT_SHARE)):
        out[HELDOUT] = link.heldout.key()
    return out
