"""Unigram against the field's libraries: ``sentencepiece`` models and HF ``tokenizers`` Unigram files.

A text is generated here (sentences drawn from words written below: English, French, German, Russian,
Japanese, full-width and ligature forms that NFKC changes, digits, punctuation, runs of spaces and tabs).
SentencePiece trains Unigram models on it; we load each ``.model`` through its ModelProto and must give,
for thousands of texts, the same ids, the same pieces, the same decoded text and the same offsets.
"""

from __future__ import annotations

import io
import random

import pytest

spm = pytest.importorskip("sentencepiece")
tokenizers = pytest.importorskip("tokenizers")

from bpe_core.formats.safe_io import TokenizerFileError  # noqa: E402
from bpe_core.formats.sentencepiece_model import (  # noqa: E402
    is_sentencepiece_model_bytes,
    read_sentencepiece_model,
    sentencepiece_from_bytes,
)
from bpe_core.formats.unigram_json import read_unigram_json_text, unigram_tokenizer_json  # noqa: E402
from bpe_core.training.unigram import train_unigram  # noqa: E402

WORDS = [
    "the",
    "cat",
    "sat",
    "on",
    "a",
    "mat",
    "and",
    "then",
    "it",
    "ran",
    "far",
    "away",
    "from",
    "home",
    "while",
    "we",
    "were",
    "reading",
    "books",
    "about",
    "tokenizers",
    "which",
    "cut",
    "text",
    "into",
    "pieces",
    "of",
    "every",
    "length",
    "so",
    "that",
    "a",
    "model",
    "can",
    "read",
    "them",
    "one",
    "by",
    "one",
    "café",
    "naïve",
    "déjà",
    "vu",
    "straße",
    "Grüße",
    "Ünïcode",
    "ﬁnal",
    "ﬂow",
    "①",
    "②",
    "２０２６",
    "ＡＢＣ",
    "ｶﾀｶﾅ",
    "ﾊﾟﾝ",  # half-width katakana and its sound mark: NFKC makes one character of two (パ)
    "ｶﾞｷﾞ",
    "cafe\u0301",  # e + combining acute: NFKC composes é
    "A\u030angstro\u0308m",
    "東京",
    "日本語",
    "です",
    "привет",
    "мир",
    "как",
    "дела",
    "123",
    "4.5",
    "3,000",
    "e-mail",
    "hello,",
    "world!",
    "(yes)",
    "don't",
    "it's",
    "“quoted”",
    "—",
    "dash…",
]


def sentence(rng: random.Random) -> str:
    words = []
    for _ in range(rng.randint(1, 14)):
        w = rng.choice(WORDS)
        if rng.random() < 0.1:
            w = w.upper()
        if rng.random() < 0.05:
            w += rng.choice(",.;:!?")
        words.append(w)
    sep = rng.choice([" "] * 10 + ["  ", "\t", " \u3000", "   "])
    lead = rng.choice([""] * 8 + [" ", "  "])
    return lead + sep.join(words) + rng.choice([""] * 8 + [" ", "\n"])


def corpus(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [sentence(rng) for _ in range(n)]


EDGE_CASES = [
    "ﾊﾟ",
    "e\u0301\u0301",
    "",
    " ",
    "   ",
    "a",
    " a ",
    "x\u0301y",
    "zzz qqq §§ ¤",
    "😀😀 ok",
    "a\u00a0b",
    "ＡＢＣ　def",
    "\t\t",
    "▁▁x▁",
]


def train_sp(rule: str, vocab_size: int = 200, **extra) -> bytes:
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(corpus(1, 3000)),
        model_writer=model,
        vocab_size=vocab_size,
        hard_vocab_limit=False,
        model_type="unigram",
        normalization_rule_name=rule,
        character_coverage=0.98,
        minloglevel=2,
        num_threads=1,
        **extra,
    )
    return model.getvalue()


@pytest.fixture(scope="module", params=["identity", "nmt_nfkc", "byte_fallback"])
def models(request):
    rule = request.param
    data = (
        train_sp("identity", vocab_size=400, byte_fallback=True)
        if rule == "byte_fallback"
        else train_sp(rule)
    )
    return rule, spm.SentencePieceProcessor(model_proto=data), sentencepiece_from_bytes(data)


def test_same_ids_pieces_text_and_offsets_as_sentencepiece(models):
    rule, sp, ours = models
    texts = corpus(7, 2500) + EDGE_CASES
    unknown_seen = 0
    for text in texts:
        ids = sp.encode(text)
        assert ours.encode(text) == ids, text
        assert ours.encode_pieces(text) == sp.encode(text, out_type=str), text
        assert ours.decode(ids) == sp.decode(ids), text
        proto = sp.encode(text, return_type="proto")
        spans = ours.token_spans(text)
        data = text.encode()
        got = [(s.id, s.byte_start, s.byte_end) for s in spans]
        want = [(p.id, p.begin, p.end) for p in proto.pieces]
        if (
            rule != "byte_fallback"
        ):  # sentencepiece gives a byte piece of a character an empty span but the last
            assert got == want, text
        assert all(s.token == data[s.byte_start : s.byte_end] for s in spans)
        unknown_seen += any(i == sp.unk_id() or sp.is_byte(i) for i in ids)
    assert unknown_seen > 50  # the texts do reach unknown characters (coverage 0.98)


def test_settings_are_read_from_the_model(models):
    rule, sp, ours = models
    assert ours.vocab_size == sp.get_piece_size()
    assert [ours.piece(i) for i in range(ours.vocab_size)] == [
        sp.id_to_piece(i) for i in range(sp.get_piece_size())
    ]
    assert all(abs(ours.score(i) - sp.get_score(i)) == 0 for i in range(ours.vocab_size))
    assert ours.normalizer.name == ("nmt_nfkc" if rule == "nmt_nfkc" else "identity")
    assert bool(ours.normalizer.charsmap) == (rule == "nmt_nfkc")
    assert ours.byte_fallback == (rule == "byte_fallback")


def test_what_a_round_trip_loses():
    data = train_sp("nmt_nfkc")
    ours = sentencepiece_from_bytes(data)
    lost = ours.lost("  ＡＢＣ  cat ")
    assert not lost.round_trip and lost.decoded == "ABC cat"
    assert (lost.changed, lost.spacing, lost.unknown) == (
        3,
        3,
        (),
    )  # ＡＢＣ; the spaces before, between, after
    lost = ours.lost("cat §§ ok §")
    assert lost.unknown == ((4, 6), (10, 11)) and lost.unknown_chars == 3
    assert lost.decoded == "cat  \u2047  ok  \u2047 "  # sentencepiece's " ⁇ "
    assert ours.lost("the cat").round_trip


def test_a_model_file_on_disk(tmp_path):
    path = tmp_path / "m.model"
    path.write_bytes(train_sp("identity"))
    tok = read_sentencepiece_model(path)
    assert tok.encode_pieces("the cat") == spm.SentencePieceProcessor(model_file=str(path)).encode(
        "the cat", out_type=str
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "lists no pieces"),
        (b"\xff\xfe\x00garbage" * 10, "is not a SentencePiece model"),
        (b"minbpe v1\nnone\n", "is not a SentencePiece model"),
    ],
)
def test_malformed_model_files_name_the_fix(data, message):
    with pytest.raises(TokenizerFileError, match=message) as err:
        sentencepiece_from_bytes(data, "bad.model")
    assert "bad.model" in str(err.value) and "pass the .model file sentencepiece wrote" in str(err.value)
    assert not is_sentencepiece_model_bytes(data)


def test_truncated_model_is_refused():
    data = train_sp("identity")
    assert is_sentencepiece_model_bytes(data)
    with pytest.raises(TokenizerFileError, match="is not a SentencePiece model"):
        sentencepiece_from_bytes(data[: len(data) // 2])


def test_a_word_model_is_refused_with_the_fix():
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(corpus(1, 500)), model_writer=model, vocab_size=150, model_type="word",
        hard_vocab_limit=False, minloglevel=2,
    )  # fmt: skip
    with pytest.raises(TokenizerFileError, match="is word; Unigram and BPE models are read"):
        sentencepiece_from_bytes(model.getvalue())


def test_hf_unigram_trainer_file_encodes_as_hf():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    hf = Tokenizer(models.Unigram())
    hf.pre_tokenizer = pre_tokenizers.Metaspace()
    hf.decoder = decoders.Metaspace()
    hf.train_from_iterator(
        corpus(1, 3000), trainers.UnigramTrainer(vocab_size=150, unk_token="<unk>", special_tokens=["<unk>"])
    )
    ours = read_unigram_json_text(hf.to_str(), "tokenizer.json")
    for text in corpus(9, 2000) + EDGE_CASES:
        enc = hf.encode(text)
        assert ours.encode(text) == enc.ids, text
        assert ours.decode(enc.ids) == hf.decode(enc.ids), text
    again = Tokenizer.from_str(unigram_tokenizer_json(ours))
    assert all(again.encode(t).ids == hf.encode(t).ids for t in corpus(10, 300))


def test_our_trained_model_as_tokenizer_json_encodes_the_same_in_hf():
    from tokenizers import Tokenizer

    text = "\n".join(corpus(3, 400))
    ours = train_unigram(text, vocab_size=220)
    hf = Tokenizer.from_str(unigram_tokenizer_json(ours))
    for t in corpus(11, 1000) + EDGE_CASES:
        ids = ours.encode(t)
        assert hf.encode(t).ids == ids, t
        if 0 not in ids:  # HF drops <unk> when decoding; sentencepiece (and we) write " ⁇ "
            assert hf.decode(ids) == ours.decode(ids), t
    back = read_unigram_json_text(unigram_tokenizer_json(ours), "tokenizer.json")
    assert back.pieces == ours.pieces and back.scores == ours.scores


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["model"].update(unk_id=None), "model.unk_id"),
        (lambda d: d["model"].update(vocab=[]), "non-empty list"),
        (lambda d: d["model"].update(vocab=[["a", "x"]]), r"model.vocab\[0\]"),
        (lambda d: d.update(pre_tokenizer={"type": "Whitespace"}), "reads Metaspace"),
        (lambda d: d.update(normalizer={"type": "Lowercase"}), "is Lowercase"),
    ],
)
def test_bad_unigram_tokenizer_json_names_the_problem(change, message):
    import json

    ours = train_unigram("the cat sat on the mat", vocab_size=20)
    data = json.loads(unigram_tokenizer_json(ours))
    change(data)
    with pytest.raises(TokenizerFileError, match=message):
        read_unigram_json_text(json.dumps(data), "tokenizer.json")
