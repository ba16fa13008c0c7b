"""What the scheme tests share: a real training text, HF `tokenizers` WordPiece built like ours, and
random texts made to hit every rule of pre-tokenization and WordPiece encoding."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

CORPORA = Path(__file__).resolve().parents[3] / "corpora"
BERT = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


@cache
def real_text() -> str:
    """Every corpus of the repo, one after the other (English, Chinese, code, mixed scripts)."""
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(CORPORA.glob("*.txt")))


def hf_wordpiece(text: str, vocab_size: int, *, max_word_chars: int = 100):
    """HF's WordPiece tokenizer trained by HF's trainer: BertPreTokenizer, no normalizer, its decoder."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    hf = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=max_word_chars))
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    hf.decoder = decoders.WordPiece()
    hf.train_from_iterator(
        [text], trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=BERT, show_progress=False)
    )
    return hf


_SPACES = [" ", "  ", "\n", "\t", "\r\n", "\u00a0", "\u3000", "\u2028", "\x85", "\u200b", "\x1c", "\x0b"]
_ODD = [
    "!",
    ".",
    ",",
    "?",
    "'",
    "$",
    "+",
    "<",
    "=",
    "^",
    "`",
    "|",
    "~",
    "#",
    "##",
    "¿",
    "«",
    "»",
    "—",
    "、",
    "。",
    "😀",
    "👩\u200d👩\u200d👧",
    "e\u0301",
    "\x00",
    "\x7f",
    "\u0300",
    "自然",
    "ß",
    "İ",
    "Ω",
    "\U0010ffff",
    "[CLS]",
    "[UNK]",
    "[MASK",
    "SEP]",
    "don't",
    "n't",
    "a" * 100,
    "b" * 101,
    "é" * 101,
]


def random_texts(n: int, seed: int = 24) -> list[str]:
    """``n`` texts of words from the real text, odd characters, special tokens and long words, with
    every kind of white space between them (seeded)."""
    rng = random.Random(seed)
    words = real_text().split()
    chars = sorted(set(real_text()))
    out = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(0, 12)):
            kind = rng.random()
            if kind < 0.5:
                parts.append(rng.choice(words))
            elif kind < 0.7:
                parts.append(rng.choice(_ODD))
            elif kind < 0.85:
                parts.append("".join(rng.choice(chars) for _ in range(rng.randint(1, 6))))
            else:
                parts.append(chr(rng.randint(0x20, 0x2FFF)))
            if rng.random() < 0.7:
                parts.append(rng.choice(_SPACES))
        out.append("".join(parts))
    return out
