"""A tokenizer's health (bpe_core/analysis/health.py), each finding checked against an independent
oracle: the tokenizer's own public encode, decode and vocabulary, one token at a time."""

from pathlib import Path

import pytest

from bpe_core import train, train_scheme
from bpe_core.analysis.health import FINDINGS, NEVER_UTF8, check_health
from bpe_core.tokenizer import Tokenizer, UnigramTokenizer, WordPieceTokenizer

CORPORA = Path(__file__).resolve().parents[3] / "corpora"
STORY = (CORPORA / "lighthouse_story.txt").read_text(encoding="utf-8")
MIXED = (CORPORA / "mixed_scripts.txt").read_text(encoding="utf-8")
ZH = (CORPORA / "machine_learning_zh.txt").read_text(encoding="utf-8")
BYTES = {i: bytes([i]) for i in range(256)}


@pytest.fixture(scope="module")
def trained() -> Tokenizer:
    return train(STORY + MIXED + ZH, vocab_size=600, pattern="gpt2", special_tokens=["<|endoftext|>"])


def test_a_trained_bpe_has_exactly_the_bytes_utf8_never_uses_unreachable(trained):
    report = check_health(trained)
    assert report.ids()["unreachable"] == sorted(trained.byte_ids()[b] for b in NEVER_UTF8)
    assert all(f.why == f"byte 0x{f.token[0]:02X} is in no UTF-8 text" for f in report.unreachable)
    # the oracle: every whole-character token's text encodes as itself
    plain = trained.without_special_tokens()
    for i, data in trained.vocab.items():
        if i not in trained.special_ids and len(data) > 1 and _whole(data):
            assert plain.encode(data.decode("utf-8")) == [i], data


def test_a_token_an_earlier_merge_swallows_is_unreachable_and_the_merge_named():
    vocab = BYTES | {256: b"bc", 257: b"ab", 258: b"abc", 259: b"xy"}
    tok = Tokenizer(vocab, [(98, 99), (97, 98), (257, 99), (120, 121)])
    found = {f.id: f.why for f in check_health(tok).unreachable if f.id > 255}
    assert found == {
        258: "its bytes encode as 'a' 'bc': merge 1 ('b' + 'c') takes 'bc' before merge 3 ('ab' + 'c') "
        "can make it"
    }
    assert tok.encode("abc") == [97, 256]  # the oracle: its text never gives it


def test_a_token_the_split_pattern_cuts_apart_is_unreachable():
    vocab = BYTES | {256: b"a ", 257: b"a b"}
    tok = Tokenizer(vocab, [(97, 32), (256, 98)], pattern="gpt2")
    found = {f.id: f.why for f in check_health(tok).unreachable if f.id > 255}
    assert found == {
        256: "the split pattern cuts its text into 'a' ' '",
        257: "the split pattern cuts its text into 'a' ' b'",
    }
    assert tok.encode("a b") == [97, 32, 98] and tok.encode("a ") == [97, 32]
    # with no pattern the same token is made
    whole = Tokenizer(vocab, [(97, 32), (256, 98)], pattern="none")
    assert [f.id for f in check_health(whole).unreachable if f.id > 255] == []


def test_unused_partial_longest_and_special_agree_with_the_vocabulary(trained):
    text = STORY[:1500]
    report = check_health(trained, text=text, longest=7)
    used = set(trained.encode(text))
    ordinary = [i for i in trained.vocab if i not in trained.special_ids]
    assert report.ids()["unused"] == sorted(i for i in ordinary if i not in used)
    assert report.reference_tokens == len(trained.encode(text))
    partial = sorted(i for i in ordinary if not _whole(trained.vocab[i]))
    assert report.ids()["partial_utf8"] == partial and len(partial) > 10  # the Chinese text's pieces
    lengths = sorted((len(trained.vocab[i]) for i in ordinary), reverse=True)
    assert [len(f.token) for f in report.longest] == lengths[:7]
    (special,) = report.special_from_text
    assert special.piece == "<|endoftext|>" and trained.encode("<|endoftext|>") == [special.id]
    assert check_health(trained).unused == () and check_health(trained).reference_tokens is None


def test_partial_utf8_says_where_the_character_is_cut():
    vocab = BYTES | {256: b"\xe6\x9c", 257: b"\x9c\x80", 258: b" \xe6\x9c"}
    tok = Tokenizer(vocab, [(0xE6, 0x9C), (0x9C, 0x80), (32, 256)])
    why = {f.id: f.why for f in check_health(tok).partial_utf8 if f.id > 255}
    assert why == {
        256: "ends inside a character (0xE6 starts one of 3 bytes)",
        257: "starts inside a character (continuation byte 0x9C)",
        258: "ends inside a character (0xE6 starts one of 3 bytes)",
    }


def test_duplicates_after_nfkc():
    vocab = BYTES | {256: "ﬁ".encode(), 257: b"fi", 258: b"fj"}
    tok = Tokenizer(vocab, [(102, 105)], pattern="none")
    dup = {f.id: f.why for f in check_health(tok).duplicates}
    assert dup[257] == "NFKC makes it 'fi', as it makes id 256" and 258 not in dup
    assert set(dup) == {256, 257}


def test_every_kind_is_listed_and_asking_for_another_is_an_error(trained):
    report = check_health(trained)
    assert list(report.ids()) == list(FINDINGS)
    assert sum(len(v) for v in report.ids().values()) == len(list(report.findings()))
    with pytest.raises(ValueError, match="not a kind of finding"):
        report.of("glitchy")
    with pytest.raises(ValueError, match="longest must be"):
        check_health(trained, longest=-1)


def test_wordpiece_unreachable_pieces_and_why():
    tok = WordPieceTokenizer(["[UNK]", "[CLS]", "a", "ab", "##b", "x.y"], max_word_chars=2)
    found = {f.piece: f.why for f in check_health(tok).unreachable}
    assert found == {
        # only "ab" + "b" would be cut "ab" "##b", and "abb" is longer than max_word_chars
        "##b": "no first piece ends where it starts: a longer piece always takes its first characters",
        "x.y": "the pre-tokenizer cuts its text into the words 'x' '.' 'y'",
    }
    assert tok.encode("ab") == [3] and tok.encode("abb") == [0]
    wider = WordPieceTokenizer(["[UNK]", "[CLS]", "a", "ab", "##b", "x.y"], max_word_chars=3)
    assert [f.piece for f in check_health(wider).unreachable] == ["x.y"] and wider.encode("abb") == [3, 4]
    assert [f.piece for f in check_health(tok).special_from_text] == ["[UNK]", "[CLS]"]


def test_a_trained_wordpiece_uses_no_piece_it_calls_unreachable():
    tok = train_scheme(STORY + MIXED, model="wordpiece", vocab_size=300)
    assert isinstance(tok, WordPieceTokenizer)
    report = check_health(tok, text=STORY + MIXED)
    unreachable = set(report.ids()["unreachable"])
    assert unreachable.isdisjoint(tok.encode(STORY + MIXED))
    assert unreachable <= set(report.ids()["unused"])


def test_unigram_piece_whose_parts_score_higher_is_unreachable():
    tok = UnigramTokenizer([("<unk>", 0.0), ("▁a", -1.0), ("b", -1.0), ("▁ab", -5.0), ("▁b", -1.0)])
    (finding,) = check_health(tok).unreachable
    assert (finding.piece, finding.token) == ("▁ab", b" ab")
    assert finding.why == "Viterbi cuts its text as '▁a' 'b' (score -2.000 against its own -5.000)"
    assert tok.encode_pieces("ab") == ["▁a", "b"]  # the oracle: the text never gives it


def _whole(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
