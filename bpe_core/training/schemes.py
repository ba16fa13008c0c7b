"""One entry point for the four schemes: :func:`train_scheme` trains ``model="bpe"``, ``"wordpiece"``,
``"unigram"`` or ``"char"`` on a text and returns a tokenizer with the one interface they share
(:class:`~bpe_core.tokenizer.scheme.SchemeTokenizer`).

>>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
>>> for model in MODELS:
...     tok = train_scheme(text, model=model, vocab_size=270 if model == "bpe" else 20)
...     print(model, tok.vocab_size, [tok.piece(i) for i in tok.encode("hugs")])
bpe 266 ['hug', 's']
wordpiece 20 ['hugs']
unigram 20 ['▁hugs']
char 9 ['h', 'u', 'g', 's']

(BPE stopped at 266: with the ``gpt2`` pattern, no pair is left to merge; ``vocab_size`` is what each
reached.)

Each scheme's own options pass through (``pattern=`` for BPE, ``tie_break=`` for WordPiece,
``shrinking_factor=`` for Unigram...); one a scheme does not have is a ValueError that lists its
options.  ``vocab_size`` means the same for all: every id, special tokens included.  BPE needs at
least 256 (its bytes); the character scheme's vocabulary is the text's characters and ``[UNK]``
(``vocab_size`` must hold them, and is not filled further).
:func:`bpe_core.train` stays byte-level BPE's entry point (it also trains from files).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..tokenizer.char_baseline import CharTokenizer
from ..tokenizer.scheme import SchemeTokenizer
from .trainer import train
from .unigram import train_unigram
from .wordpiece import train_wordpiece

MODELS: tuple[str, ...] = ("bpe", "wordpiece", "unigram", "char")
CHAR_UNK = "[UNK]"


def train_char(text: str, *, vocab_size: int) -> CharTokenizer:
    """The character scheme: the text's characters, then ``[UNK]`` for the ones it lacks.

    >>> train_char("hello", vocab_size=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: vocab_size is 3, smaller than the 4 characters of the text + [UNK]; ask for at least 5
    """
    if not isinstance(text, str) or not text:
        raise ValueError("the text is empty; give the character scheme a text to take its characters from")
    needed = len(set(text)) + 1
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < needed:
        raise ValueError(
            f"vocab_size is {vocab_size}, smaller than the {needed - 1} characters of the text + {CHAR_UNK}; "
            f"ask for at least {needed}"
        )
    return CharTokenizer(text, unk_token=CHAR_UNK)


TRAINERS: dict[str, Callable[..., SchemeTokenizer]] = {
    "bpe": train,
    "wordpiece": train_wordpiece,
    "unigram": train_unigram,
    "char": train_char,
}


def train_scheme(text: str, *, model: str, vocab_size: int, **options: Any) -> SchemeTokenizer:
    """Train ``model`` on ``text`` to ``vocab_size`` ids (see the module docstring)."""
    if model not in TRAINERS:
        raise ValueError(f"model {model!r} is unknown; use one of {', '.join(MODELS)}")
    if not isinstance(text, str) or not text:
        raise ValueError(f"the text is empty; give {model} a text to learn from")
    trainer = TRAINERS[model]
    known = options_of(model)
    if "**" not in known:
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(
                f"{model} has no option {unknown[0]!r}; its options are {', '.join(known) or 'none'}"
            )
    return trainer(text, vocab_size=vocab_size, **options)


def options_of(model: str) -> list[str]:
    """The keyword options ``model`` takes besides ``vocab_size`` (``"**"`` when it takes any).

    >>> options_of("wordpiece")  # doctest: +NORMALIZE_WHITESPACE
    ['special_tokens', 'unk_token', 'prefix', 'max_word_chars', 'tie_break', 'min_frequency']
    """
    out = []
    for name, p in inspect.signature(TRAINERS[model]).parameters.items():
        if p.kind is p.VAR_KEYWORD:
            out.append("**")
        elif p.kind is p.KEYWORD_ONLY and name != "vocab_size":
            out.append(name)
    if model == "bpe":
        out.remove("files")  # train_scheme takes a text
    return out
