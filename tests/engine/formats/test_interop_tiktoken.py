"""Interop with tiktoken: our rank file works there with our ids, and tiktoken-built ranks load here."""

from __future__ import annotations

import base64
import random
from functools import cache
from pathlib import Path

import pytest

tiktoken = pytest.importorskip(
    "tiktoken", reason="tiktoken is a dev requirement (requirements-dev.txt); interop tests need it"
)
from tiktoken._educational import bpe_train  # noqa: E402
from tiktoken.load import load_tiktoken_bpe  # noqa: E402

from bpe_core.byte_level import HF_BYTE_RANK  # noqa: E402
from bpe_core.formats import load_tokenizer, save_tokenizer  # noqa: E402
from bpe_core.pretokenizer import resolve_pattern  # noqa: E402
from tests.engine.formats.support import CORPUS, EOT, PATTERN_NAMES, trained  # noqa: E402
from tests.engine.formats.support import INTEROP_TEXTS as TEXTS  # noqa: E402

WHOLE_TEXT = r"[\s\S]+"  # pattern "none" in tiktoken: one chunk between special tokens


@pytest.fixture(autouse=True)
def no_tiktoken_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # load_tiktoken_bpe caches by path in /tmp otherwise; tests reuse paths across runs
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")


def encoding(ranks: dict[bytes, int], pattern: str, special_tokens: dict[str, int]) -> tiktoken.Encoding:
    pat = resolve_pattern(pattern) or WHOLE_TEXT
    return tiktoken.Encoding(
        name=f"mergescope-{pattern}", pat_str=pat, mergeable_ranks=ranks, special_tokens=special_tokens
    )


@pytest.mark.parametrize("pattern", PATTERN_NAMES)
def test_tiktoken_reads_our_rank_file_with_our_ids(tmp_path: Path, pattern: str) -> None:
    tok = trained(pattern)
    save_tokenizer(tok, tmp_path)
    ranks = load_tiktoken_bpe(str(tmp_path / "tokenizer.tiktoken"))
    enc = encoding(ranks, pattern, tok.special_tokens)
    for text in TEXTS:
        ids = tok.encode(text)
        assert enc.encode(text, allowed_special="all") == ids, text[:60]
        assert enc.decode(ids) == text


def write_ranks(path: Path, ranks: dict[bytes, int]) -> None:
    lines = [f"{base64.b64encode(t).decode()} {r}" for t, r in sorted(ranks.items(), key=lambda kv: kv[1])]
    path.write_text("\n".join(lines) + "\n")


@cache
def tiktoken_trained(pattern: str) -> tuple[tuple[bytes, int], ...]:
    """Ranks from tiktoken's own (educational) trainer on a slice of the corpus."""
    return tuple(bpe_train(CORPUS[:4000], 420, resolve_pattern(pattern), visualise=None).items())


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4", "o200k"])
@pytest.mark.parametrize("byte_order", ["identity", "gpt2-order"])
def test_tiktoken_built_tokenizer_loads_here_with_its_ids(
    tmp_path: Path, pattern: str, byte_order: str
) -> None:
    ranks = dict(tiktoken_trained(pattern))
    if byte_order == "gpt2-order":  # bytes ranked like GPT-2's and cl100k's files, not by value
        ranks = {t: (HF_BYTE_RANK[t[0]] if len(t) == 1 else r) for t, r in ranks.items()}
    special = {EOT: max(ranks.values()) + 2}  # a gap below the special token, as in cl100k
    write_ranks(tmp_path / "small.tiktoken", ranks)
    enc = encoding(ranks, pattern, special)
    ours = load_tokenizer(tmp_path / "small.tiktoken", pattern=pattern, special_tokens=special)
    for text in TEXTS:
        assert ours.encode(text) == enc.encode(text, allowed_special="all"), text[:60]
    # and back out: our rank file for it is the same file tiktoken would read
    save_tokenizer(ours, tmp_path / "out", formats=["tiktoken"])
    assert load_tiktoken_bpe(str(tmp_path / "out" / "tokenizer.tiktoken")) == ranks


def test_random_texts_agree_with_tiktoken(tmp_path: Path) -> None:
    tok = trained("gpt4")
    save_tokenizer(tok, tmp_path)
    enc = encoding(load_tiktoken_bpe(str(tmp_path / "tokenizer.tiktoken")), "gpt4", tok.special_tokens)
    rng = random.Random(1)
    alphabet = list("the cat sat 自然语言 🤷\u200d♀️ naïve\r\n\t 0123456789 '!?.,") + [EOT]
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        assert tok.encode(text) == enc.encode(text, allowed_special="all"), text
