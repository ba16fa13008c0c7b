"""The Unigram tokenizer: the shared interface, spans, round trips, what is lost, and bad input."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.tokenizer.scheme import SchemeTokenizer
from bpe_core.tokenizer.unigram import UnigramTokenizer
from bpe_core.tokenizer.unigram_normalizer import SentencePieceNormalizer
from bpe_core.training.unigram import train_unigram

TEXT = "the cat sat on the mat.\nthe dog  ran after the cat; it ran far.\n\ttabs too\n" * 5
TOK = train_unigram(TEXT, vocab_size=45, seed_by_branching=False)  # its seed holds 45 pieces only without
ALPHABET = sorted(set(TEXT))


def test_it_is_a_scheme_tokenizer():
    assert isinstance(TOK, SchemeTokenizer) and TOK.scheme == "unigram"
    assert TOK.vocab_size == 45 and TOK.piece(0) == "<unk>"
    assert any(TOK.piece(i).startswith("▁") for i in range(TOK.vocab_size))
    scores = [TOK.score(i) for i in range(1, TOK.vocab_size)]
    assert scores == sorted(scores, reverse=True) and all(s < 0 for s in scores)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=ALPHABET + [" "], max_size=80))
def test_every_text_of_seen_characters_round_trips(text):
    assert TOK.decode(TOK.encode(text)) == text
    lost = TOK.lost(text)
    assert lost.round_trip and not lost.unknown and not lost.changed and not lost.spacing


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=[*ALPHABET, "x", "é", "😀", " "], max_size=60))
def test_spans_cover_the_text_in_order(text):
    spans = TOK.token_spans(text)
    data = text.encode()
    assert [s.id for s in spans] == TOK.encode(text)
    assert b"".join(s.token for s in spans) == data  # spaces are kept, so every byte is in one token
    assert all(s.token == data[s.byte_start : s.byte_end] for s in spans)
    assert all(text[s.start : s.end].encode() == s.token for s in spans)
    assert all(a.byte_end == b.byte_start for a, b in itertools.pairwise(spans))


def test_unknown_characters_are_one_unk_per_run_and_said_lost():
    ids = TOK.encode("the xyz cat")
    assert ids.count(0) == 1
    assert TOK.encode_pieces("the xyz cat")[ids.index(0)] == "xyz"
    lost = TOK.lost("the xyz cat")
    assert lost.unknown == ((4, 7),) and not lost.round_trip
    assert lost.decoded == "the  \u2047  cat"


def test_lattice_of_a_word():
    lat = TOK.lattice("cat")
    assert lat.word == "▁cat" and lat.best.pieces == tuple(TOK.encode_pieces("cat"))
    assert all(s.score <= lat.best.score for s in lat.segmentations)


def test_sentencepiece_defaults_squeeze_spaces():
    tok = UnigramTokenizer([("<unk>", 0.0), ("▁a", -1.0), ("▁", -2.0), ("a", -2.0)])
    assert tok.encode_pieces("  a   a ") == ["▁a", "▁a"]
    assert tok.decode(tok.encode("  a   a ")) == "a a"
    lost = tok.lost("  a   a ")
    assert (lost.spacing, lost.changed, lost.round_trip) == (3, 0, False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pieces": []}, "at least its unknown piece"),
        ({"pieces": [("<unk>", 0.0), ("a", -1.0), ("a", -2.0)]}, "listed twice"),
        ({"pieces": [("<unk>", 0.0), ("", -1.0)]}, "is empty"),
        ({"pieces": [("<unk>", 0.0)], "unk_id": 3}, "unk_id 3 is not an id"),
        ({"pieces": [("<unk>", 0.0)], "kinds": ["normal", "normal"]}, "one kind per piece"),
        ({"pieces": [("<unk>", 0.0), ("a", 0.0)], "kinds": ["unknown", "weird"]}, "has kind 'weird'"),
        ({"pieces": [("<unk>", 0.0), ("<0x41>", 0.0)], "kinds": ["unknown", "byte"], "byte_fallback": True},
         "needs the 256 pieces"),
    ],
)  # fmt: skip
def test_bad_models_say_how_to_fix_them(kwargs, message):
    with pytest.raises(ValueError, match=message):
        UnigramTokenizer(**kwargs)


@pytest.mark.parametrize("bad", [-1, 45, 1.0, True, "3"])
def test_unknown_ids_are_refused(bad):
    with pytest.raises(ValueError, match="not in the vocabulary"):
        TOK.decode([1, bad])
    with pytest.raises(ValueError, match="not in the vocabulary"):
        TOK.piece(bad)


def test_encode_wants_a_string():
    with pytest.raises(ValueError, match="must be a string"):
        TOK.encode(b"bytes")


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=" ab▁\n\u3000é", max_size=14),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_the_plain_normalizer_equals_the_byte_one(text, prefix, squeeze, escape, only_if_missing):
    options = dict(
        add_dummy_prefix=prefix,
        remove_extra_whitespaces=squeeze,
        escape_whitespaces=escape,
        prefix_only_if_missing=only_if_missing,
    )
    plain = SentencePieceNormalizer(**options)
    by_bytes = SentencePieceNormalizer(user_defined=("zz",), **options)  # a symbol forces the byte path
    assert plain.normalize(text) == by_bytes.normalize(text)


def test_a_damaged_charsmap_is_refused():
    with pytest.raises(ValueError, match="damaged"):
        SentencePieceNormalizer(charsmap=b"\xff\xff\xff\x00abcd")
    with pytest.raises(ValueError, match="damaged"):
        SentencePieceNormalizer(charsmap=b"\x01")
