"""Tokenizer and CharTokenizer behaviour: ids, spans, truncation, errors."""

import subprocess
import sys

import pytest

from bpe_core import CharTokenizer, Tokenizer, train

TEXT = "机器学习 机器学习 机器 learning learning"


@pytest.fixture(scope="module")
def tok():
    return train(TEXT * 4, vocab_size=270, pattern="gpt2", special_tokens=["<|eot|>"])


def test_unknown_id_names_the_id_and_the_vocab_size(tok):
    with pytest.raises(ValueError, match=r"token id 99999 is not in the vocabulary \(vocab size 270"):
        tok.decode([1, 99999])
    with pytest.raises(ValueError, match="'x'"):
        tok.decode_bytes(["x"])


def test_spans_cover_the_text_and_partial_characters_map_to_their_character(tok):
    text = "机器学习 learning<|eot|>é"
    spans = tok.token_spans(text)
    assert b"".join(s.token for s in spans) == text.encode()
    assert [s.byte_start for s in spans[1:]] == [s.byte_end for s in spans[:-1]]

    def is_whole(token):
        try:
            token.decode("utf-8")
            return True
        except UnicodeDecodeError:
            return False

    for s in spans:
        assert 0 <= s.start < s.end <= len(text)
        if is_whole(s.token):
            assert text[s.start : s.end].encode() == s.token
        else:  # a token that starts or ends inside a character covers that character
            assert s.token in text[s.start : s.end].encode()
            assert any(len(c.encode()) > 1 for c in text[s.start : s.end])
    assert any(not is_whole(s.token) for s in spans), "the example should have a partial-UTF-8 token"
    special = [s for s in spans if s.id == tok.special_tokens["<|eot|>"]]
    assert len(special) == 1 and text[special[0].start : special[0].end] == "<|eot|>"


def test_with_merges_is_a_prefix_of_the_merges(tok):
    for k in (0, 3, len(tok.merges)):
        cut = tok.with_merges(k)
        assert cut.merges == tok.merges[:k]
        assert cut.vocab_size == 256 + 1 + k
        assert cut.decode(cut.encode(TEXT)) == TEXT
    assert tok.with_merges(0).encode("ab") == [97, 98]
    assert len(tok.with_merges(2).encode(TEXT)) >= len(tok.encode(TEXT))
    with pytest.raises(ValueError, match="from 0 to"):
        tok.with_merges(len(tok.merges) + 1)


def test_merge_step_of(tok):
    first = tok.merge_ids[0]
    assert tok.merge_step_of(first) == 1 and tok.merge_step_of(97) is None


def test_constructor_rejects_inconsistent_vocabularies():
    base = {i: bytes([i]) for i in range(256)}
    with pytest.raises(ValueError, match="lacks 1 of the 256"):
        Tokenizer({i: bytes([i]) for i in range(255)}, [])
    with pytest.raises(ValueError, match="not in the vocab"):
        Tokenizer(base, [(97, 98)])
    with pytest.raises(ValueError, match="appears twice"):
        Tokenizer({**base, 300: b"a"}, [])
    ok = Tokenizer({**base, 256: b"ab"}, [(97, 98)])
    assert ok.encode("abab") == [256, 256]


def test_encode_uses_the_merge_priority_not_the_token_ids():
    # ids need not follow merge order (as in files from other tools)
    base = {i: bytes([i]) for i in range(256)}
    tok = Tokenizer({**base, 900: b"bc", 800: b"ab"}, [(98, 99), (97, 98)])
    assert tok.encode("abc") == [97, 900]


def test_char_tokenizer_baseline():
    ct = CharTokenizer("hello world")
    assert ct.decode(ct.encode("hello")) == "hello"
    with pytest.raises(ValueError, match=r"character '机' \(U\+673A\) at position 0"):
        ct.encode("机器")
    assert ct.unknown("hex!") == [(2, "x"), (3, "!")]
    with pytest.raises(ValueError, match="not in the vocabulary"):
        ct.decode([ct.vocab_size])
    with pytest.raises(ValueError, match="non-empty"):
        CharTokenizer("")


def test_importing_bpe_core_imports_no_ui_library():
    code = (
        "import sys, bpe_core; bpe_core.train('a b', vocab_size=257); "
        "bad = [m for m in ('streamlit', 'pandas', 'altair') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
