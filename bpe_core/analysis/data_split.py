"""Deterministic train / held-out splits: by documents or by a fraction of the text.

Held-out text is what a tokenizer was not trained on; compression measured
on it shows how well the merges generalize (the gap to the training text is
over-fitting).  Both splits give the same result every time for the same input.

>>> s = split_documents("a\\n\\nb\\n\\nc\\n\\nd\\n\\ne", heldout_fraction=0.4, seed=0)
>>> s.train, s.heldout, s.train_parts, s.heldout_parts
('a\\n\\nb\\n\\nc', 'd\\n\\ne', 3, 2)
>>> s = split_fraction("one two three four five six seven eight nine ten", heldout_fraction=0.3)
>>> s.train + s.heldout == "one two three four five six seven eight nine ten", s.heldout
(True, 'eight nine ten')
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Split:
    """A training text and a held-out text cut from one text, and how."""

    train: str
    heldout: str
    train_parts: int
    heldout_parts: int
    method: str  # a sentence saying how the split was made


def _check_fraction(heldout_fraction: float) -> float:
    if (
        isinstance(heldout_fraction, bool)
        or not isinstance(heldout_fraction, (int, float))
        or not 0 < heldout_fraction < 1
    ):
        raise ValueError(
            f"heldout_fraction must be between 0 and 1 (e.g. 0.1 for 10%), not {heldout_fraction!r}"
        )
    return float(heldout_fraction)


def split_documents(
    text: str,
    *,
    delimiter: str = "\n\n",
    heldout_fraction: float = 0.1,
    seed: int | None = None,
) -> Split:
    """Cut ``text`` into documents at ``delimiter`` and hold some out.

    With ``seed=None`` the held-out documents are the last ones (a clean cut,
    as for a corpus in time order); with a seed they are drawn at random by
    ``random.Random(seed)``.  At least one document goes to each side; both
    sides keep the original order and are joined with ``delimiter``.  Empty
    documents (two delimiters in a row) are dropped.

    >>> eot = "<|endoftext|>"
    >>> split_documents(f"x{eot}y{eot}z", delimiter=eot, heldout_fraction=0.5, seed=1).heldout
    'x<|endoftext|>z'
    """
    fraction = _check_fraction(heldout_fraction)
    if not isinstance(delimiter, str) or not delimiter:
        raise ValueError(
            "delimiter must be a non-empty string, e.g. '\\n\\n' for paragraphs or '<|endoftext|>'"
        )
    docs = [d for d in text.split(delimiter) if d.strip()]
    if len(docs) < 2:
        raise ValueError(
            f"the text has {len(docs)} document(s) separated by {delimiter!r}; a split needs at least 2: "
            "use another delimiter or split by fraction"
        )
    n_held = min(len(docs) - 1, max(1, round(len(docs) * fraction)))
    if seed is None:
        held = set(range(len(docs) - n_held, len(docs)))
        how = f"the last {n_held} of {len(docs)} documents"
    else:
        held = set(random.Random(seed).sample(range(len(docs)), n_held))
        how = f"{n_held} of {len(docs)} documents drawn with seed {seed}"
    train = delimiter.join(d for i, d in enumerate(docs) if i not in held)
    heldout = delimiter.join(d for i, d in enumerate(docs) if i in held)
    return Split(
        train=train,
        heldout=heldout,
        train_parts=len(docs) - n_held,
        heldout_parts=n_held,
        method=f"held out {how} (split at {delimiter!r})",
    )


def split_fraction(text: str, *, heldout_fraction: float = 0.1) -> Split:
    """Hold out the last ``heldout_fraction`` of ``text`` (by characters), cut at a line or word boundary.

    The cut moves forward to just after the next newline (or, with none in
    reach, the next space), so no word is cut in two; ``train + heldout == text``.

    >>> split_fraction("ab\\ncd\\nef\\ngh", heldout_fraction=0.5).heldout
    'ef\\ngh'
    """
    fraction = _check_fraction(heldout_fraction)
    if not isinstance(text, str) or len(text.split()) < 2:
        raise ValueError("the text needs at least two words to split; paste or choose a longer text")
    target = len(text) - max(1, round(len(text) * fraction))
    window = max(200, len(text) // 20)
    cut = -1
    for sep in ("\n", " "):
        pos = text.find(sep, target - 1, target + window)
        if pos >= 0 and pos + 1 < len(text):
            cut = pos + 1
            break
    if cut < 0 or not text[:cut].strip() or not text[cut:].strip():
        # no boundary near the target: take the last boundary before it
        cut = max(text.rfind("\n", 0, target), text.rfind(" ", 0, target)) + 1
        if cut <= 0:
            raise ValueError("found no space or newline to cut the text at; paste or choose a longer text")
    return Split(
        train=text[:cut],
        heldout=text[cut:],
        train_parts=1,
        heldout_parts=1,
        method=f"held out the last {len(text) - cut:,} of {len(text):,} characters",
    )
