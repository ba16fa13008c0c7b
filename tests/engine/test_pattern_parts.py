"""The split patterns' parts, named from their own text: the named patterns, the patterns files carry
(Hugging Face's GPT-2 Split without possessives, Llama 3's), and which part cut each chunk."""

from __future__ import annotations

import pytest
import regex

from bpe_core.pretokenizer import PreTokenizer
from bpe_core.pretokenizer.pattern_parts import GAP_PART, PatternParts, alternatives

HF_GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
LLAMA3 = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
TEXT = "It's 12345 dogs!!\r\n\n  ok 自然 🎉\tx'LL"


@pytest.mark.parametrize(
    ("pattern", "names"),
    [
        (HF_GPT2, ["contractions"] * 7 + ["letters", "numbers", "punctuation", "spaces", "spaces"]),
        (LLAMA3, ["contractions", "letters", "numbers", "punctuation", "newlines", "spaces", "spaces"]),
        ("whitespace", ["non-spaces", "spaces"]),
    ],
)
def test_patterns_from_files_are_named_from_their_text(pattern: str, names: list[str]) -> None:
    assert [p.name for p in PatternParts(pattern).parts] == names


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4", "o200k", HF_GPT2, LLAMA3, "whitespace"])
def test_each_chunk_is_cut_by_the_part_that_matches_it_there(pattern: str) -> None:
    parts, pre = PatternParts(pattern), PreTokenizer(pattern)
    at = 0
    for chunk in pre.split(TEXT):
        part = parts.part_of(TEXT, at, at + len(chunk))
        assert part.index >= 0 and part.name != GAP_PART, (pattern, chunk)
        # the alternative alone matches the chunk there (the ones before it do not)
        assert regex.compile(part.source).match(TEXT, at).group() == chunk, (pattern, chunk, part)
        at += len(chunk)


def test_alternatives_rejoin_to_the_pattern() -> None:
    for pattern in ("gpt2", "gpt4", "o200k"):
        source = PreTokenizer(pattern).source
        assert "|".join(alternatives(source)) == source
