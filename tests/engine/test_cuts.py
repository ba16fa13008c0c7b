"""Safe cuts: a text cut where SafeCuts says pre-tokenizes, on both sides, exactly as the whole does."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.pretokenizer import PreTokenizer
from bpe_core.pretokenizer.cuts import SafeCuts

PATTERNS = ["gpt2", "gpt4", "o200k", "whitespace", "none", r"\w+|[^\w\s]+|\s+"]
SPECIAL_SETS = [(), ("<|endoftext|>",), ("<|endoftext|>", "<|end|>"), ("ab", "bc", "b")]
# What the cut rules are about: spaces of every kind (regex's \s and the ones it
# does not count), newlines alone and in runs, CRLF, the '/' o200k's punctuation
# runs take, contractions, digits, marks, CJK, emoji, and segments of special tokens.
ATOMS = [
    "a", "b", "c", "Tom", "x", "é", "e\u0301", "1", "234", " ", "  ", "\t", "\n", "\n\n", "\r\n", "\r",
    "\x0b", "\x85", "\xa0", "\u2028", "\x1c", ".", "/", "'", "'s", "ll", "你好", "。", "😀", "\u200d",
    "<|endoftext|>", "<|end", "|>", "<|end|>",
]  # fmt: skip
TEXTS = st.one_of(
    st.lists(st.sampled_from(ATOMS), max_size=24).map("".join),
    st.text(alphabet="abc x.\n/", max_size=16),  # dense: overlapping specials, o200k's '.\n/'
)


def pretokens(pre: PreTokenizer, text: str) -> list[tuple[str, bool]]:
    """The special tokens and chunks of ``text`` in order."""
    return [
        (part, special)
        for segment, special in pre.segments(text)
        for part in ([segment] if special else pre.split(segment))
    ]


def assert_safe(pre: PreTokenizer, text: str, c: int) -> None:
    assert 0 < c < len(text) + 1
    assert pretokens(pre, text[:c]) + pretokens(pre, text[c:]) == pretokens(pre, text), (text[:c], text[c:])


@pytest.mark.parametrize("specials", SPECIAL_SETS, ids=lambda s: "+".join(s) or "no-specials")
@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=300, deadline=None)
@given(text=TEXTS, data=st.data())
def test_every_cut_found_in_a_prefix_or_a_block_is_safe_in_the_whole_text(pattern, specials, text, data):
    pre = PreTokenizer(pattern, special_tokens=specials)
    cuts = SafeCuts(pre)
    # In a prefix of the stream (what streaming encode sees): lo=0.
    k = data.draw(st.integers(0, len(text)))
    prefix = text[:k]
    found = all_cuts(cuts, prefix, 0)
    assert cuts.last(prefix) == (found[-1] if found else -1)
    for c in found:
        assert_safe(pre, text, c)
    # In a block from the middle (what a worker counting a file block sees).
    s = data.draw(st.integers(0, len(text)))
    e = data.draw(st.integers(s, len(text)))
    block = text[s:e]
    found = all_cuts(cuts, block, cuts.reach_back)
    assert cuts.last(block, cuts.reach_back) == (found[-1] if found else -1)
    for c in found:
        assert c >= cuts.reach_back
        assert_safe(pre, text, s + c)


def all_cuts(cuts: SafeCuts, text: str, lo: int) -> list[int]:
    found: list[int] = []
    while (c := cuts.first(text, lo)) != -1:
        found.append(c)
        lo = c + 1
    return found


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        ("gpt2", "Tom sat.\n\n\nThen", "Tom sat."),  # before the newline run, not inside it
        ("gpt4", "Tom sat.\n\n\nThen", "Tom"),  # gpt4 keeps '.\n\n\n' together
        ("gpt4", "one\ntwo", "one\n"),  # after a lone newline
        ("o200k", "one.\n/two", ""),  # o200k takes ".\n/" as one chunk: no cut
        ("whitespace", "ab\n\ncd", "ab\n\n"),
        ("none", "ab cd", ""),  # no cut without special tokens
        (r"\w+", "ab cd", ""),  # nor with a custom regex
    ],
)
def test_the_last_cut_of_known_texts(pattern, text, expected):
    c = SafeCuts(PreTokenizer(pattern)).last(text)
    assert text[: max(c, 0)] == expected


def test_no_cut_inside_or_just_around_a_special_token():
    pre = PreTokenizer("gpt2", special_tokens=["<|endoftext|>"])
    cuts = SafeCuts(pre)
    text = "a <|endoftext|> b"
    found = all_cuts(cuts, text, 0)
    assert all(not (text.find("<") < c < text.find(">") + 1) for c in found), found
    assert found  # the cut before ' b' and the one after the special token
    # Overlapping specials: 'bc' occurs at 1 but 'ab' is matched first, so 3 is no cut.
    cuts = SafeCuts(PreTokenizer("none", special_tokens=["ab", "bc"]))
    assert cuts.last("abcd") == -1
    assert cuts.last("xab d") == 3
