"""The lab's settings in the URL: corpora, pattern, largest vocab size, held-out split (pure).

A teacher sends ``/vocab-lab?corpus=lighthouse_story,machine_learning_zh&vocab=8192&heldout=end:30``
and the class opens the same run (``heldout``: ``split:PERCENT`` of the documents, ``end:PERCENT`` of
the text, or ``text:CORPUS``).  Defaults stay out of the link; a bad value is ignored with a note.  The
user's own texts do not fit in a link: ``own=upload,paste`` says the run had some, for the page to say so.

>>> ids = ["lighthouse_story", "mixed_scripts", "machine_learning_zh"]
>>> params = {"corpus": "mixed_scripts,nope", "vocab": "8192", "heldout": "end:30"}
>>> link, notes = from_query(params, corpus_ids=ids)
>>> link.corpora, link.vocab, link.heldout
(('mixed_scripts',), 8192, HeldOut(how='end', share=30, text=None))
>>> notes
["ignored corpus 'nope': not a built-in corpus"]
>>> to_query(link, defaults=LabLink(corpora=("lighthouse_story",), pattern="gpt2", vocab=4096))
{'corpus': 'mixed_scripts', 'vocab': '8192', 'heldout': 'end:30'}
>>> link, notes = from_query({"own": "upload,nope"}, corpus_ids=ids)
>>> link.own, notes
(('upload',), ["ignored own 'nope': use upload, paste or heldout"])
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from bpe_core.pretokenizer import excerpt

CORPUS, PATTERN, VOCAB, HELDOUT, OWN = "corpus", "pattern", "vocab", "heldout", "own"
PARAM_NAMES = (CORPUS, PATTERN, VOCAB, HELDOUT, OWN)
# The user's own texts a link cannot carry, by the name the link gives them.
OWN_TEXTS = {
    "upload": "an uploaded file",
    "paste": "pasted training text",
    "heldout": "a pasted held-out text",
}
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
    own: tuple[str, ...] | None = None  # the run had these texts of its own (keys of OWN_TEXTS)


def own_text_note(own: tuple[str, ...], *, opened: bool) -> str:
    """What a page says about texts of the user's own that its link cannot carry: ``opened`` from a link
    that was made with them, or (not ``opened``) while the user's run has them.

    >>> own_text_note(("upload",), opened=True)[:58]
    'This link was made from a run on an uploaded file, which a'
    >>> own_text_note(("upload", "paste"), opened=False)[:72]
    "This page's link (the address bar) carries the built-in corpora and the "
    """
    what = " and ".join(OWN_TEXTS[o] for o in own)
    if opened:
        return (
            f"This link was made from a run on {what}, which a link cannot carry: the lab opens on the "
            "built-in texts the link names (or its default texts) instead. Add that text again to see the "
            "same run."
        )
    return (
        "This page's link (the address bar) carries the built-in corpora and the settings, not "
        f"{what}: it opens on the built-in texts, and says so to whoever opens it."
    )


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
    raw = {name: _one(params.get(name)) for name in PARAM_NAMES}
    corpora = pattern = vocab = heldout = own = None
    if (given := raw[CORPUS]) is not None:
        wanted = [c for c in given.split(",") if c]
        unknown = [c for c in wanted if c not in corpus_ids]
        notes += [f"ignored corpus {excerpt(c)}: not a built-in corpus" for c in unknown[:MAX_NOTES]]
        if len(unknown) > MAX_NOTES:
            notes.append(f"ignored {len(unknown) - MAX_NOTES:,} more unknown corpora")
        corpora = tuple(dict.fromkeys(c for c in wanted if c in corpus_ids)) or None
    if (given := raw[PATTERN]) is not None:
        if given in patterns:
            pattern = given
        else:
            notes.append(f"ignored pattern {excerpt(given)}: use one of {', '.join(patterns)}")
    if (given := raw[VOCAB]) is not None:
        if given.isascii() and given.isdigit() and len(given) < 7 and smallest <= int(given) <= largest:
            vocab = int(given)
        else:
            notes.append(
                f"ignored vocab {excerpt(given)}: give a whole number from {smallest} to {largest:,}"
            )
    if (given := raw[HELDOUT]) is not None and (heldout := _heldout(given, corpus_ids)) is None:
        notes.append(
            f"ignored heldout {excerpt(given)}: use split:PERCENT, end:PERCENT (5 to 50, in steps of 5) "
            "or text:CORPUS"
        )
    if (given := raw[OWN]) is not None:
        parts = [p for p in given.split(",") if p]
        choices = ", ".join(OWN_TEXTS).replace(", heldout", " or heldout")
        notes += [f"ignored own {excerpt(p)}: use {choices}" for p in parts if p not in OWN_TEXTS]
        own = tuple(o for o in OWN_TEXTS if o in parts) or None
    return LabLink(corpora, pattern, vocab, heldout, own), notes


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
    if link.own:
        out[OWN] = ",".join(link.own)
    return out
