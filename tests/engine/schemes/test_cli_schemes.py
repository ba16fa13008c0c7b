"""python -m bpe_core train --model wordpiece|unigram, and encode / decode / convert on their files
(BERT vocab.txt, tokenizer.json with WordPiece or Unigram models, SentencePiece .model)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bpe_core import cli
from bpe_core.formats import load_tokenizer

from .support import real_text

TEXT = "the hugging lighthouse keeper hugs the pugs; puns and buns.\n" * 20 + real_text()[:3000]


def run(*argv: str, stdin: bytes = b"") -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    code = cli.main(list(argv), stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


def test_train_wordpiece_then_encode_decode_convert(tmp_path, corpus):
    out = tmp_path / "wp"
    code, _, err = run("train", str(corpus), "--model", "wordpiece", "--vocab-size", "700", "--out", str(out))
    assert code == 0, err
    assert "trained wordpiece" in err and "vocab size 700" in err
    assert sorted(p.name for p in out.iterdir()) == ["tokenizer.json", "vocab.txt"]
    tok = load_tokenizer(out / "vocab.txt", any_scheme=True)
    text = "the lighthouse keeper hugs ☃ pugs."
    code, ids, err = run("encode", "--tokenizer", str(out / "vocab.txt"), "--text", text)
    assert code == 0, err
    assert json.loads(ids) == tok.encode(text)
    (tmp_path / "in.txt").write_text(text, encoding="utf-8")
    assert run("encode", "--tokenizer", str(out), "--input", str(tmp_path / "in.txt"))[1] == ids
    assert run("encode", "--tokenizer", str(out), "--input", "-", stdin=text.encode())[1] == ids
    code, back, err = run("decode", "--tokenizer", str(out / "tokenizer.json"), stdin=ids)
    assert code == 0, err
    assert back.decode() == tok.decode(tok.encode(text)) == "the lighthouse keeper hugs [UNK] pugs."
    code, _, err = run(
        "convert", str(out / "tokenizer.json"), "--to", "bert-vocab", "--out", str(tmp_path / "v.txt")
    )
    assert code == 0, err
    assert (tmp_path / "v.txt").read_text(encoding="utf-8") == (out / "vocab.txt").read_text(encoding="utf-8")
    code, _, err = run("convert", str(out), "--to", "tiktoken", "--out", str(tmp_path / "t.tiktoken"))
    assert (
        code == 1
        and "format 'tiktoken' cannot hold a wordpiece tokenizer; choose from hf-json, bert-vocab" in err
    )
    code, _, err = run("decode", "--tokenizer", str(out), "--bytes", stdin=ids)
    assert code == 1 and "--bytes is for byte-level BPE; this tokenizer is wordpiece" in err


def test_train_wordpiece_options(tmp_path, corpus):
    out = tmp_path / "wp"
    code, _, err = run(
        "train", str(corpus), "--model", "wordpiece", "--vocab-size", "600", "--special-token", "[UNK]",
        "--tie-break", "alphabetical", "--min-frequency", "2", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert code == 0 and err == ""
    assert load_tokenizer(out, any_scheme=True).special_tokens == ("[UNK]",)
    code, _, err = run("train", str(corpus), "--model", "wordpiece", "--vocab-size", "9", "--out", str(out))
    assert code == 1 and "smaller than the 5 special tokens" in err and "ask for at least" in err
    code, _, err = run(
        "train", str(corpus), "--model", "wordpiece", "--vocab-size", "900", "--pattern", "gpt4",
        "--out", str(out),
    )  # fmt: skip
    assert code == 1 and "--pattern are for byte-level BPE" in err
    code, _, err = run("train", str(corpus), "--model", "bert", "--vocab-size", "900", "--out", str(out))
    assert code == 2  # argparse's usage error
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    code, _, err = run("train", str(tmp_path / "empty.txt"), "--model", "wordpiece", "--vocab-size", "900",
                       "--out", str(out))  # fmt: skip
    assert code == 1 and "the text is empty" in err


def test_train_unigram_and_sentencepiece_model(tmp_path, corpus):
    out = tmp_path / "uni"
    code, _, err = run("train", str(corpus), "--model", "unigram", "--vocab-size", "300", "--out", str(out))
    assert code == 0, err
    assert [p.name for p in out.iterdir()] == ["tokenizer.json"]
    tok = load_tokenizer(out, any_scheme=True)
    assert tok.scheme == "unigram"
    text = "the lighthouse keeper"
    code, ids, err = run("encode", "--tokenizer", str(out), "--text", text)
    assert code == 0 and json.loads(ids) == tok.encode(text), err
    assert run("decode", "--tokenizer", str(out), stdin=ids)[1].decode() == tok.decode(tok.encode(text))
    # a SentencePiece .model, read through the sentencepiece package, converted to tokenizer.json
    import sentencepiece as spm

    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(TEXT.splitlines()), model_writer=model, vocab_size=200, model_type="unigram",
        remove_extra_whitespaces=False,  # else tokenizer.json cannot say its normalizer
    )  # fmt: skip
    (tmp_path / "m.model").write_bytes(model.getvalue())
    sp = spm.SentencePieceProcessor(model_proto=model.getvalue())
    code, ids, err = run("encode", "--tokenizer", str(tmp_path / "m.model"), "--text", text)
    assert code == 0 and json.loads(ids) == sp.encode(text), err
    code, _, err = run(
        "convert", str(tmp_path / "m.model"), "--to", "hf-json", "--out", str(tmp_path / "m.json")
    )
    assert code == 0, err
    assert run("encode", "--tokenizer", str(tmp_path / "m.json"), "--text", text)[1] == ids


def test_train_scheme_refuses_a_text_too_big_to_hold(tmp_path, corpus, monkeypatch):
    monkeypatch.setattr(cli, "MAX_SCHEME_TEXT_CHARS", 1000)
    out = str(tmp_path)
    code, _, err = run("train", str(corpus), "--model", "wordpiece", "--vocab-size", "900", "--out", out)
    assert code == 1 and "wordpiece training reads the text whole, and it holds more than 1,000" in err
    assert not (tmp_path / "vocab.txt").exists()
    monkeypatch.setattr(cli, "MAX_SCHEME_TEXT_CHARS", 10**6)
    assert run("train", str(corpus), "--model", "wordpiece", "--vocab-size", "900", "--out", out)[0] == 0
    monkeypatch.setattr(cli, "MAX_SCHEME_TEXT_CHARS", 1000)
    code, ids, err = run("encode", "--tokenizer", out, "--input", str(corpus))
    assert code == 1 and ids == b"" and "encoding this scheme reads the text whole" in err
