"""Lesson presets: a text and the settings that reproduce a published BPE trace merge for merge (pure).

``tests/ui/train/test_presets.py`` trains each preset and checks its published merges, pair by pair.

- ``sennrich2016``: Sennrich, Haddow and Birch (2016), *Neural Machine Translation of Rare Words
  with Subword Units*, Algorithm 1: the vocabulary ``low``×5, ``lower``×2, ``newest``×6,
  ``widest``×3, each word ending in the end-of-word symbol ``</w>`` (here ``_``, one byte, so it
  starts as one symbol as in the paper).  The paper's code takes ``max(pairs, key=pairs.get)``:
  among equal counts, the pair met first, which is this app's ``first-seen`` rule; ``lowest-id``
  agrees for four merges only (at merge 6 it takes ``e w`` before ``n e``).  Minimum frequency 2.
- ``classic``: the same words without the marker (the built-in corpus): the paper's merges less those
  with ``</w>``, then training stops when every word is one token.
- ``cs336``: Stanford CS336 (2025) assignment 1, section 2.4: the same words, ties to the
  lexicographically greater pair.
- ``gpt2_bytes``: byte-level BPE with GPT-2's pre-tokenizer on Wikipedia's ``aaabdaaabac``, the
  merges Wikipedia publishes (``aa``, ``ab``, ``aaab``; ``lowest-id`` takes ``a b`` over ``aa a`` at 2),
  and the encoding minbpe's tests check: ``XdXac`` = 258, 100, 258, 97, 99.
- ``order_abc``: ``ab`` and ``bc`` share ``b``: in the other order ``abc`` is cut ``a + bc``.

>>> [p.id for p in PRESETS]
['sennrich2016', 'classic', 'cs336', 'gpt2_bytes', 'order_abc']
>>> PRESETS[0].text.split()[:6]
['low_', 'low_', 'low_', 'low_', 'low_', 'lower_']
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Preset:
    """A lesson: its text, the settings, and the merges its source publishes (``left right`` each)."""

    id: str
    title: str
    source: str  # where the published merges come from
    text: str
    tie_break: str
    merges: int  # merges to ask for (training may stop earlier)
    published: tuple[str, ...]  # "left right", in order, as the source prints them
    corpus: str | None = None  # a built-in corpus id to pick instead of pasting ``text``
    pattern: str = "whitespace"
    min_frequency: int = 1


def _words(marker: str = "") -> str:
    counts = (("low", 5), ("lower", 2), ("newest", 6), ("widest", 3))
    return " ".join(word + marker for word, n in counts for _ in range(n))


PRESETS: tuple[Preset, ...] = (
    Preset(
        id="sennrich2016",
        title="Sennrich et al. 2016: words with an end-of-word marker",
        source="Sennrich, Haddow, Birch (2016), Algorithm 1 (`_` stands for the paper's `</w>`)",
        text=_words("_"),
        tie_break="first-seen",
        min_frequency=2,
        merges=20,
        published=("e s", "es t", "est _", "l o", "lo w", "n e", "ne w", "new est_", "low _", "w i"),
    ),
    Preset(
        id="classic",
        title="low lower newest widest: the paper's merges, word by word",
        source="Sennrich et al. (2016), Algorithm 1, without the end-of-word marker",
        text=_words(),
        tie_break="first-seen",
        min_frequency=2,
        merges=20,
        published=("e s", "es t", "l o", "lo w", "n e", "ne w", "new est", "w i", "wi d", "wid est"),
        corpus="low_lower_newest_widest",
    ),
    Preset(
        id="cs336",
        title="CS336 assignment 1: the BPE training example",
        source="Stanford CS336 (2025), assignment 1, section 2.4",
        text="low low low low low lower lower widest widest widest newest newest newest newest newest newest",
        tie_break="lexicographic",
        merges=12,
        published=(
            "s t",
            "e st",
            "o w",
            "l ow",
            "w est",
            "n e",
            "ne west",
            "w i",
            "wi d",
            "wid est",
            "low e",
            "lowe r",
        ),
    ),
    Preset(
        id="gpt2_bytes",
        title="Byte-level BPE, GPT-2 pre-tokenizer: aaabdaaabac",
        source="Wikipedia's byte pair encoding example (Z = aa, Y = ab, X = ZY); minbpe checks its encoding",
        text="aaabdaaabac",
        pattern="gpt2",
        tie_break="lowest-id",
        merges=3,
        published=("a a", "a b", "aa ab"),
    ),
    Preset(
        id="order_abc",
        title="Merge order matters: ab and bc share b",
        source="this app's lesson (Merge order matters, below the stage)",
        text="ab ab ab bc bc abc",
        tie_break="lowest-id",
        merges=2,
        published=("a b", "b c"),
    ),
)
BY_ID = {p.id: p for p in PRESETS}
CORPUS_LESSONS = {p.corpus: p for p in PRESETS if p.corpus is not None}  # a corpus's own lesson settings
