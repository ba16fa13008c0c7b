"""Files are recognised by what they hold, not by their names (issue 41): BERT's vocabulary under any
``.txt`` name, a ``.txt`` that is neither a vocabulary nor merges, a ``.json`` that is no tokenizer, and
the unknown file's line naming every kind that loads."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpe_core.formats import TokenizerFileError, detect_format, load_tokenizer
from bpe_core.tokenizer import WordPieceTokenizer

BERT_VOCAB = "[PAD]\n[UNK]\n[CLS]\n[SEP]\nhug\n##s\n"


@pytest.mark.parametrize("name", ["bert-vocab.txt", "vocab.txt", "bert_base_uncased.txt", "v.txt"])
def test_a_bert_vocabulary_loads_under_any_txt_name(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(BERT_VOCAB, encoding="utf-8")
    assert detect_format(path)[0] == "bert-vocab"
    tok = load_tokenizer(path, any_scheme=True)
    assert isinstance(tok, WordPieceTokenizer) and [tok.piece(i) for i in tok.encode("hugs")] == [
        "hug",
        "##s",
    ]


def test_merges_under_another_name_still_ask_for_their_vocab(tmp_path: Path) -> None:
    path = tmp_path / "bpe-merges.txt"
    path.write_text("#version: 0.2\nĠ t\nh e\n", encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="needs its vocab file"):
        load_tokenizer(path)


def test_a_txt_that_is_no_tokenizer_says_so(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("the cat sat on the mat\n" * 3, encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="holds neither BERT's vocabulary") as info:
        load_tokenizer(path, any_scheme=True)
    assert str(info.value).count("\n") == 0 and "needs its vocab file" not in str(info.value)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("data.json", '{"name": "x", "tags": ["a"]}', "is JSON but no tokenizer"),
        ("list.json", "[1, 2, 3]", "is JSON but no tokenizer"),
        ("tokenizer_config.json", '{"model_max_length": 512}', "only holds the model's settings"),
        ("config.json", '{"vocab_size": 3}', "only holds the model's settings"),
    ],
)
def test_a_json_that_is_no_tokenizer_says_so(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TokenizerFileError, match=message):
        load_tokenizer(path, any_scheme=True)


def test_a_vocab_json_with_one_bad_id_is_still_read_as_one(tmp_path: Path) -> None:
    (tmp_path / "vocab.json").write_text('{"a": 0, "b": "1"}', encoding="utf-8")
    (tmp_path / "merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="key 'b'"):
        load_tokenizer(tmp_path / "vocab.json")


def test_the_unknown_file_line_names_every_kind(tmp_path: Path) -> None:
    path = tmp_path / "mystery.bin"
    path.write_bytes(b"\x00\x01binary")
    with pytest.raises(TokenizerFileError) as info:
        load_tokenizer(path, any_scheme=True)
    for kind in ("tokenizer.json", "merges.txt", ".tiktoken", "SentencePiece", "vocab.txt"):
        assert kind in str(info.value)


def test_a_directory_with_a_bert_vocabulary_under_another_name_loads(tmp_path: Path) -> None:
    (tmp_path / "bert-base-vocab.txt").write_text(BERT_VOCAB, encoding="utf-8")
    (tmp_path / "README.txt").write_text("a model card, not a tokenizer\n", encoding="utf-8")
    assert detect_format(tmp_path) == ("bert-vocab", [tmp_path / "bert-base-vocab.txt"])
