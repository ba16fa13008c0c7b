"""The chunk cache a Tokenizer keeps across calls: bounded in chunks and bytes, and never a different id."""

from __future__ import annotations

import random

import pytest

from bpe_core import train
from bpe_core.tokenizer import bpe
from tests.engine.formats.support import CORPUS


def words(n: int, *, seed: int) -> str:
    """``n`` distinct made-up words (Latin, Cyrillic, CJK, emoji letters), each a chunk of its own."""
    rng = random.Random(seed)
    letters = "etaoinshrdlu" + "абвгд" + "自然语言" + "🤷🎉"
    return " ".join(
        "".join(rng.choice(letters) for _ in range(rng.randint(3, 12))) + str(i) for i in range(n)
    )


@pytest.mark.parametrize("most_chunks, most_bytes", [(10_000, 2_000), (100, 10**6)])
def test_the_cache_stays_within_its_chunks_and_bytes(
    monkeypatch: pytest.MonkeyPatch, most_chunks: int, most_bytes: int
) -> None:
    monkeypatch.setattr(bpe, "_CACHE_LIMIT", most_chunks)
    monkeypatch.setattr(bpe, "_CACHE_BYTES", most_bytes)
    tok = train(CORPUS, vocab_size=400, pattern="gpt2")
    fresh = train(CORPUS, vocab_size=400, pattern="gpt2")  # a cache emptied at other times
    cache = tok._cache
    seen: set[str] = set()
    fresh.encode(words(150, seed=99))
    for seed in range(6):
        text = words(150, seed=seed)  # about 360 chunks, 2,200 bytes
        assert tok.encode(text) == fresh.encode(text)
        seen.update(tok.pretokenizer.split(text))
        held = sum(len(chunk.encode()) for chunk in cache)
        assert cache.bytes == held and len(cache) <= most_chunks and held < most_bytes + bpe._CACHE_LONGEST
    seen_bytes = sum(len(chunk.encode()) for chunk in seen)
    assert len(seen) > 2 * most_chunks or seen_bytes > 2 * most_bytes  # the input held more


def test_a_long_chunk_is_encoded_but_not_kept() -> None:
    tok = train(CORPUS, vocab_size=400, pattern="none")  # the whole text is one chunk
    long_text = CORPUS[: bpe._CACHE_LONGEST + 1]
    short_text = CORPUS[:40]
    assert tok.decode(tok.encode(long_text)) == long_text and tok.decode(tok.encode(short_text)) == short_text
    assert list(tok._cache) == [short_text]
