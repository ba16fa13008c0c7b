"""The pre-tokenizer's fast paths give exactly the chunks of the Unicode pattern."""

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.pretokenizer import PATTERNS, PreTokenizer, pretokenizer

FAST_PATTERNS = ["gpt2", "gpt4", "whitespace"]
# ASCII characters the patterns treat differently: quotes and contractions, case,
# digits, the six spaces regex knows, and \x1c-\x1f, which str.isspace() calls
# space but regex does not.
ASCII = st.text(alphabet="aZsStTdDmMlLvVrReE09'’ !.,;-_\t\n\r\x0b\x0c\x1c\x1f\x00\x7f", max_size=60)
MIXED = st.text(alphabet="ab Z9'.!\n\n\n\r\t\x1c\x85\u00a0é机器😀\u200d", max_size=80)


@pytest.mark.parametrize("name", FAST_PATTERNS)
def test_every_fast_pattern_has_an_ascii_form(name):
    assert PreTokenizer(name)._ascii_regex is not None


@pytest.mark.parametrize("name", FAST_PATTERNS)
@settings(max_examples=300, deadline=None)
@given(text=ASCII)
def test_ascii_form_matches_the_unicode_pattern_on_ascii_text(name, text):
    assert PreTokenizer(name).split(text) == regex.findall(PATTERNS[name], text)


@pytest.mark.parametrize("name", FAST_PATTERNS)
@settings(max_examples=300, deadline=None)
@given(text=MIXED)
def test_mixed_text_cut_into_ascii_runs_gives_the_same_chunks(name, text, monkeypatch_module):
    assert PreTokenizer(name).split(text) == regex.findall(PATTERNS[name], text)


@pytest.fixture(scope="module")
def monkeypatch_module():
    """Send even short mixed texts through the ASCII-run cutter."""
    mp = pytest.MonkeyPatch()
    mp.setattr(pretokenizer, "MIXED_MIN_CHARS", 0)
    yield mp
    mp.undo()


def test_long_mixed_text_takes_the_cutter_and_keeps_every_chunk():
    lines = [
        "It's 2024.",
        "The  cat sat;",
        "机器学习!",
        "",
        "  indented\tline\r",
        "naïve café",
        "plain words here",
    ]
    text = "\n".join(lines * 200)
    assert len(text) >= pretokenizer.MIXED_MIN_CHARS
    for name in FAST_PATTERNS:
        chunks = PreTokenizer(name).split(text)
        assert chunks == regex.findall(PATTERNS[name], text)
        assert "".join(chunks) == text


def test_custom_patterns_keep_the_regex_module():
    assert PreTokenizer(r"\p{L}+|\s+").split("héllo wörld") == ["héllo", " ", "wörld"]


# ----- special tokens: one trie regex, the same cuts as the longest-first alternation -----
SPECIAL_ALPHABET = "ab<|>\n.é"


@settings(max_examples=300, deadline=None)
@given(
    tokens=st.lists(
        st.text(alphabet=SPECIAL_ALPHABET, min_size=1, max_size=6), min_size=1, max_size=8, unique=True
    ),
    text=st.text(alphabet=SPECIAL_ALPHABET + "xyz", max_size=60),
)
def test_special_tokens_are_cut_as_the_longest_first_alternation_cuts(tokens, text):
    alternation = regex.compile(
        "(" + "|".join(regex.escape(s) for s in sorted(tokens, key=len, reverse=True)) + ")"
    )
    expected = [(p, i % 2 == 1) for i, p in enumerate(alternation.split(text)) if p]
    assert PreTokenizer("none", special_tokens=tokens).segments(text) == expected


def test_special_tokens_nested_past_the_trie_depth_still_cut_longest_first():
    tokens = ["a" * k for k in range(1, 200)]  # each a prefix of the next: 199 levels deep
    pre = PreTokenizer("none", special_tokens=tokens)
    assert pre.segments("a" * 450 + "b") == [
        ("a" * 199, True),
        ("a" * 199, True),
        ("a" * 52, True),
        ("b", False),
    ]
