"""WordPiece encoding is HF's: same ids, offsets and decoded text as `tokenizers.models.WordPiece`
(BertPreTokenizer, no normalizer, WordPiece decoder) on a vocabulary HF's trainer made; and
``lost`` tells exactly when a text does not come back."""

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.tokenizer.scheme import SchemeTokenizer, lost
from bpe_core.tokenizer.wordpiece import WordPieceTokenizer

from .support import BERT, hf_wordpiece, random_texts, real_text


@cache
def pair(vocab_size: int = 600, max_word_chars: int = 100):
    hf = hf_wordpiece(real_text(), vocab_size, max_word_chars=max_word_chars)
    ours = WordPieceTokenizer(hf.get_vocab(), max_word_chars=max_word_chars, special_tokens=BERT)
    return hf, ours


def same_as_hf(text: str, vocab_size: int = 600, max_word_chars: int = 100) -> None:
    hf, ours = pair(vocab_size, max_word_chars)
    want = hf.encode(text)
    ids = ours.encode(text)
    assert ids == want.ids, text
    assert [(s.start, s.end) for s in ours.token_spans(text)] == want.offsets, text
    assert ours.decode(ids) == hf.decode(ids, skip_special_tokens=False), text


def test_protocol():
    assert isinstance(pair()[1], SchemeTokenizer)


def test_thousands_of_random_texts():
    texts = random_texts(3000)
    assert sum("[UNK]" in t or "b" * 101 in t for t in texts) > 100  # the rules under test do occur
    for text in texts:
        same_as_hf(text)


@pytest.mark.parametrize("vocab_size", [40, 200, 2000])
def test_the_real_text_line_by_line(vocab_size):
    for line in real_text().splitlines():
        same_as_hf(line, vocab_size)


def test_word_length_limit():
    same = "ab" * 2  # 4 characters
    for limit in (3, 4, 5):
        same_as_hf(f"{same} {same}s x", max_word_chars=limit)
    _, ours = pair(600, 4)
    assert ours.encode("abcde") == [ours.unk_id]
    with pytest.raises(ValueError, match=r"5 characters long, above max_word_chars=4.*raise max_word_chars"):
        ours.encode("ab abcde", strict=True)
    with pytest.raises(ValueError, match=r"cannot be cut.*train on a text that has its characters"):
        ours.encode("\U0001f9ea", strict=True)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=40))
def test_any_text(text):
    same_as_hf(text)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(["the", "light", "house", ".", ",", "!", "é", "\U0001f9ea", "[CLS]", "a" * 120]),
        max_size=8,
    ),
    st.lists(st.sampled_from(["", " ", "  ", "\n", "\t"]), min_size=9, max_size=9),
)
def test_lost_says_when_text_comes_back(parts, gaps):
    text = gaps[0] + "".join(p + g for p, g in zip(parts, gaps[1:]))
    tok = pair()[1]
    loss = lost(tok, text)
    assert loss.decoded == tok.decode(tok.encode(text))
    assert loss.round_trip == (loss.decoded == text)
    assert loss.round_trip == (not loss.unknown and loss.spacing == 0)
    for start, end in loss.unknown:
        assert tok.encode(text[start:end]) == [tok.unk_id]


def test_lost_counts():
    tok = pair()[1]
    loss = tok.lost("  the\U0001f9ea house ,x")
    assert loss.unknown == ((2, 6),) and loss.unknown_chars == 4
    assert loss.spacing == 3  # the leading spaces, none before ',' gives one, none after it gives one
    assert tok.lost("the house, the light.").round_trip


def test_bad_vocabularies():
    with pytest.raises(ValueError, match="the unknown token '\\[UNK\\]' is not in the vocabulary; add it"):
        WordPieceTokenizer(["a", "##b"])
    with pytest.raises(ValueError, match="listed twice"):
        WordPieceTokenizer(["[UNK]", "a", "a"])
    with pytest.raises(ValueError, match="id 1 is given to 'a' and 'b'"):
        WordPieceTokenizer({"[UNK]": 0, "a": 1, "b": 1})
    with pytest.raises(ValueError, match="token id 9 is not in the vocabulary"):
        WordPieceTokenizer(["[UNK]"]).decode([9])


def test_words_split_as_hf_on_every_code_point():
    """BERT's pre-tokenizer, ours and HF's, on every code point between two letters (white space,
    punctuation old and new, controls, unassigned)."""
    from tokenizers import pre_tokenizers

    from bpe_core.tokenizer.wordpiece_words import words

    text = "a" + "a".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF) + "a"
    hf = pre_tokenizers.BertPreTokenizer().pre_tokenize_str(text)
    ours = words(text)
    assert len(ours) == len(hf)
    assert [(w.text, w.start, w.end) for w in ours] == [(w, a, b) for w, (a, b) in hf]
