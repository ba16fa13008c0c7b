"""WordPiece's files: BERT vocab.txt and tokenizer.json, round trips, HF reading ours and we HF's,
and malformed files named by line."""

import json

import pytest

from bpe_core.formats.safe_io import TokenizerFileError
from bpe_core.formats.wordpiece_files import (
    bert_vocab_txt,
    read_bert_vocab,
    read_wordpiece_json,
    read_wordpiece_json_text,
    wordpiece_tokenizer_json,
    write_wordpiece,
)
from bpe_core.tokenizer.wordpiece import WordPieceTokenizer
from bpe_core.training.wordpiece import train_wordpiece

from .support import hf_wordpiece, random_texts, real_text


@pytest.fixture(scope="module")
def ours():
    return train_wordpiece(real_text(), vocab_size=800)


def test_round_trip(ours, tmp_path):
    paths = write_wordpiece(ours, tmp_path)
    assert sorted(p.name for p in paths) == ["tokenizer.json", "vocab.txt"]
    for back in (read_bert_vocab(tmp_path / "vocab.txt"), read_wordpiece_json(tmp_path / "tokenizer.json")):
        assert back.vocab == ours.vocab and back.special_tokens == ours.special_tokens
        for text in random_texts(200, seed=5):
            assert back.encode(text) == ours.encode(text)


def test_hf_reads_ours(ours, tmp_path):
    from tokenizers import Tokenizer, models

    (tmp_path / "tokenizer.json").write_text(wordpiece_tokenizer_json(ours), encoding="utf-8")
    hf = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    from_vocab = Tokenizer(models.WordPiece.from_file(str(_vocab(ours, tmp_path)), unk_token="[UNK]"))
    assert from_vocab.get_vocab() == hf.get_vocab() == ours.vocab
    for text in random_texts(500, seed=6):
        ids = ours.encode(text)
        assert hf.encode(text).ids == ids, text
        assert hf.decode(ids, skip_special_tokens=False) == ours.decode(ids)


def _vocab(tok, tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text(bert_vocab_txt(tok), encoding="utf-8")
    return path


def test_we_read_hf(tmp_path):
    hf = hf_wordpiece(real_text(), 700)
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    tok = read_wordpiece_json(path)
    assert tok.vocab == hf.get_vocab()
    for text in random_texts(300, seed=7):
        assert tok.encode(text) == hf.encode(text).ids


def test_crlf_and_trailing_space_are_line_ends(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_bytes(b"[UNK]\r\nhu \r\n##g\n")
    assert read_bert_vocab(path).vocab == {"[UNK]": 0, "hu": 1, "##g": 2}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[UNK]\nhu\n\n##g\n", r"vocab\.txt, line 3: the line is empty;.*remove the line"),
        (b"[UNK]\nhu\n  \n", r"line 3: the line holds only white space"),
        (b"[UNK]\nhu\n##g\nhu\n", r"line 4: 'hu' is already on line 2; each token is listed once"),
        (b"hu\n##g\n", r"has no \[UNK\] line; add a line \[UNK\]"),
        (b"[UNK]\n\xff\n", r"line 2: byte 0xFF at offset 6 is not valid UTF-8"),
        (b"", r"is empty"),
        (b"# vocab.txt: 3 tokens\n", r"human-readable listing"),
    ],
)
def test_malformed_vocab_txt(tmp_path, content, message):
    path = tmp_path / "vocab.txt"
    path.write_bytes(content)
    with pytest.raises(TokenizerFileError, match=message):
        read_bert_vocab(path)


def _json(**changes):
    tok = WordPieceTokenizer(["[PAD]", "[UNK]", "hu", "##g"])
    data = json.loads(wordpiece_tokenizer_json(tok))
    for key, value in changes.items():
        if "." in key:
            outer, inner = key.split(".")
            data[outer][inner] = value
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"normalizer": {"type": "BertNormalizer"}}, r"'normalizer'.*'BertNormalizer'.*set it to null"),
        ({"pre_tokenizer": {"type": "Whitespace"}}, r"'pre_tokenizer'.*BertPreTokenizer"),
        ({"model.type": "BPE"}, r"'model.type': is 'BPE', not 'WordPiece'"),
        (
            {"model.vocab": {"a": 0}, "added_tokens": []},
            r"the unknown token '\[UNK\]' is not in the vocabulary",
        ),
        ({"model.vocab": {"[UNK]": -1}}, r"out of range"),
        (
            {"added_tokens": [{"id": 3, "content": "[UNK]", "special": True}]},
            r"has id 3 here but 1 in the vocab",
        ),
    ],
)
def test_malformed_tokenizer_json(changes, message):
    with pytest.raises(TokenizerFileError, match=message):
        read_wordpiece_json_text(_json(**changes), "tokenizer.json")


def test_what_vocab_txt_cannot_hold():
    with pytest.raises(ValueError, match=r"save tokenizer\.json instead"):
        bert_vocab_txt(WordPieceTokenizer(["[UNK]", "a"], max_word_chars=5))
    with pytest.raises(ValueError, match=r"do not run 0\.\.N-1"):
        bert_vocab_txt(WordPieceTokenizer({"[UNK]": 0, "a": 2}))
    with pytest.raises(ValueError, match="this one is char"):
        from bpe_core.tokenizer.char_baseline import CharTokenizer

        bert_vocab_txt(CharTokenizer("ab"))


def test_load_and_save_find_wordpiece_files(ours, tmp_path):
    from bpe_core.formats import (
        detect_format,
        load_tokenizer,
        read_tokenizer_data,
        save_tokenizer,
        write_format,
    )

    paths = save_tokenizer(ours, tmp_path / "wp")
    assert sorted(p.name for p in paths) == ["tokenizer.json", "vocab.txt"]
    assert detect_format(tmp_path / "wp")[0] == "wordpiece-json"
    assert detect_format(tmp_path / "wp" / "vocab.txt")[0] == "bert-vocab"
    for source in (tmp_path / "wp", tmp_path / "wp" / "vocab.txt", tmp_path / "wp" / "tokenizer.json"):
        back = load_tokenizer(source, any_scheme=True)
        assert back.scheme == "wordpiece" and back.vocab == ours.vocab
    (tmp_path / "wp" / "tokenizer.json").unlink()
    assert detect_format(tmp_path / "wp")[0] == "bert-vocab"  # a directory with BERT's vocab.txt alone
    write_format(ours, "bert-vocab", tmp_path / "only.txt")
    assert (
        load_tokenizer(tmp_path / "wp", any_scheme=True).vocab == read_bert_vocab(tmp_path / "only.txt").vocab
    )
    with pytest.raises(
        TokenizerFileError, match=r"holds a WordPiece \(BERT's vocab.txt\) tokenizer; only byte-level"
    ):
        load_tokenizer(tmp_path / "wp")  # what the app's upload calls: BPE only
    with pytest.raises(ValueError, match="format 'tiktoken' cannot hold a wordpiece tokenizer"):
        write_format(ours, "tiktoken", tmp_path / "x.tiktoken")
    with pytest.raises(ValueError, match="tokenizer, not byte-level BPE; load it with load_tokenizer"):
        read_tokenizer_data(tmp_path / "wp" / "vocab.txt")
    with pytest.raises(ValueError, match="pattern= and special_tokens= are for byte-level BPE files"):
        load_tokenizer(tmp_path / "wp", pattern="gpt2", any_scheme=True)
