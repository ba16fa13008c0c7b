"""Files made to hurt: loaders stay linear, quote only an excerpt, read digits and files strictly.

Each case is one that took minutes, blocked for ever, or put a whole token in a
message before: a vocab.json whose tokens no merge reaches, a .tiktoken with a
huge token, a minbpe file with ``²`` or Arabic-Indic digits, a FIFO named
``x.tiktoken``.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from bpe_core import TokenizerFileError, load_tokenizer, save_tokenizer, train
from bpe_core.formats import safe_io
from bpe_core.formats.safe_io import read_bytes
from bpe_core.pretokenizer import PreTokenizer, check_special_tokens
from tests.engine.formats.support import megabyte_token_files

SHORT = 400  # a message quoting only an excerpt stays under this many characters


@pytest.fixture(scope="module")
def tok():
    return train("the cat sat on the mat, the cat ate the hat " * 20, vocab_size=300)


@pytest.fixture
def saved(tmp_path: Path, tok) -> Path:
    save_tokenizer(tok, tmp_path)
    return tmp_path


def rank_file(path: Path, tokens: list[bytes]) -> Path:
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    lines += [f"{base64.b64encode(t).decode()} {256 + i}" for i, t in enumerate(tokens)]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path


def refused(path: Path, *parts: str) -> str:
    with pytest.raises(TokenizerFileError) as info:
        load_tokenizer(path)
    message = str(info.value)
    for part in parts:
        assert part in message, message
    assert len(message) < SHORT, f"the message quotes too much: {len(message)} characters"
    return message


# ----- linear loaders -----
def test_a_vocab_json_with_tens_of_thousands_of_unreachable_tokens_is_refused_at_once(saved: Path):
    vocab = json.loads((saved / "vocab.json").read_text(encoding="utf-8"))
    top = max(vocab.values()) + 1
    vocab.update({f"unreachable{i}": top + i for i in range(20_000)})
    (saved / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    refused(saved / "vocab.json", "vocab.json", "20,000 tokens that no merge makes or uses", "'unreachable0'")


def test_a_few_thousand_special_tokens_still_load_and_encode(saved: Path):
    vocab = json.loads((saved / "vocab.json").read_text(encoding="utf-8"))
    top = max(vocab.values()) + 1
    vocab.update({f"<|reserved_{i}|>": top + i for i in range(5_000)})
    (saved / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    loaded = load_tokenizer(saved / "vocab.json")
    assert len(loaded.special_tokens) == 5_000
    text = "the cat <|reserved_4999|> sat<|reserved_12|>"
    ids = loaded.encode(text)
    assert loaded.decode(ids) == text and top + 4999 in ids and top + 12 in ids


def test_check_special_tokens_is_linear_and_caps_the_number():
    many = [f"<|t{i}|>" for i in range(10_000)]
    assert check_special_tokens(many) == many
    with pytest.raises(ValueError, match="more than 10,000 special tokens"):
        check_special_tokens(many + ["<|one more|>"])


def test_a_tiktoken_file_with_a_one_megabyte_token_is_refused_with_an_excerpt(tmp_path: Path):
    path = rank_file(tmp_path / "big.tiktoken", [b"x" * 1_000_000])
    refused(path, "big.tiktoken, line 257", "(1,000,000 bytes) is longer than 256 bytes")


def test_a_tiktoken_token_nothing_can_make_is_refused_with_an_excerpt(tmp_path: Path):
    path = rank_file(tmp_path / "odd.tiktoken", [b"ab", b"\x01\x02\x03" * 80])
    refused(
        path, "odd.tiktoken, line 258", "(240 bytes) (rank 257) cannot be made by joining two other tokens"
    )


def test_a_long_chain_of_tokens_loads_and_encodes_as_tiktoken_does(tmp_path: Path):
    """Every token from aa to 256 a's: each merge is recovered by BPE on a long token."""
    tiktoken = pytest.importorskip("tiktoken", reason="tiktoken is a dev requirement (requirements-dev.txt)")
    chain = [b"a" * k for k in range(2, 257)]
    loaded = load_tokenizer(rank_file(tmp_path / "chain.tiktoken", chain), pattern="none")
    ranks = {bytes([b]): b for b in range(256)} | {t: 256 + i for i, t in enumerate(chain)}
    reference = tiktoken.Encoding("chain", pat_str=r"[\s\S]+", mergeable_ranks=ranks, special_tokens={})
    for n in (2, 3, 77, 256, 300, 1000):
        assert loaded.encode("a" * n) == reference.encode("a" * n)


def test_a_one_megabyte_token_made_by_merges_loads(tmp_path: Path):
    """vocab.json + merges.txt: a 1 MB token made by 20 doubling merges is fine (nothing quadratic)."""
    loaded = load_tokenizer(megabyte_token_files(tmp_path))
    assert loaded.encode("a" * 2**20) == [256 + 19]


# ----- messages quote an excerpt -----
def test_a_huge_bad_merges_line_is_quoted_short(saved: Path):
    with open(saved / "merges.txt", "a", encoding="utf-8") as f:
        f.write("x" * 500_000 + "\n")
    refused(saved / "vocab.json", "merges.txt, line", "(500,000 characters) is not a merge")


def test_a_huge_unknown_merge_part_is_quoted_short(saved: Path):
    with open(saved / "merges.txt", "a", encoding="utf-8") as f:
        f.write("y" * 300_000 + " z\n")
    refused(saved / "vocab.json", "merges.txt, line", "(300,000 characters)", "is not in the vocab")


def test_a_huge_bad_vocab_value_is_quoted_short(saved: Path):
    vocab = json.loads((saved / "vocab.json").read_text(encoding="utf-8"))
    vocab["a"] = list(range(100_000))
    (saved / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    refused(saved / "vocab.json", "vocab.json, key 'a'", "must be a whole number")


def test_a_huge_bad_minbpe_line_is_quoted_short(tmp_path: Path):
    path = tmp_path / "x.model"
    path.write_text("minbpe v1\n\n0\n97 97 " + "9" * 200_000 + "\n", encoding="utf-8")
    refused(path, "x.model, line 4", "is not a merge")


def test_a_huge_special_token_in_a_tokenizer_json_is_quoted_short(saved: Path):
    data = json.loads((saved / "tokenizer.json").read_text(encoding="utf-8"))
    data["added_tokens"].append({"id": 5, "content": "s" * 100_000, "special": True})
    (saved / "tokenizer.json").write_text(json.dumps(data), encoding="utf-8")
    refused(saved / "tokenizer.json", "tokenizer.json", "(100,000 characters)")


# ----- digits: ASCII only, the file and the line named -----
@pytest.mark.parametrize(
    "digit", ["²", "٣", "３", "৩"], ids=["superscript", "arabic-indic", "fullwidth", "bengali"]
)
@pytest.mark.parametrize(
    ("template", "line"),
    [
        ("minbpe v1\n\n{d}\n", 3),
        ("minbpe v1\n\n1\n<|x|> 30{d}\n", 4),
        ("minbpe v1\n\n0\n9{d} 97\n", 4),
    ],
    ids=["count", "special-id", "merge-id"],
)
def test_a_non_ascii_digit_in_a_minbpe_file_is_refused_with_file_and_line(tmp_path, digit, template, line):
    path = tmp_path / "digits.model"
    path.write_text(template.format(d=digit), encoding="utf-8")
    refused(path, f"digits.model, line {line}", "is not a whole number in ASCII digits")


@pytest.mark.parametrize("digit", ["²", "٣", "３"])
def test_a_non_ascii_digit_in_a_tiktoken_rank_is_refused(tmp_path, digit):
    path = rank_file(tmp_path / "r.tiktoken", [b"ab"])
    path.write_text(path.read_text() + f"YWJj 25{digit}\n", encoding="utf-8")
    refused(path, "r.tiktoken, line 258", "is not a whole number")


# ----- only regular files -----
def load_in_thread(path: Path, fifo: Path) -> BaseException | None:
    """Load ``path`` in a thread; a reader blocked on ``fifo`` is released (by opening its other end)
    and fails the test."""
    outcome: dict[str, BaseException] = {}

    def load() -> None:
        try:
            load_tokenizer(path)
        except BaseException as exc:  # the caller checks what it was
            outcome["error"] = exc

    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(timeout=10)
    if reader.is_alive():
        with open(fifo, "wb"):
            pass
        reader.join(timeout=10)
        pytest.fail("loading a FIFO blocked until something wrote to it")
    return outcome.get("error")


def test_a_fifo_named_like_a_tokenizer_is_refused_at_once(tmp_path: Path):
    fifo = tmp_path / "x.tiktoken"
    os.mkfifo(fifo)
    error = load_in_thread(fifo, fifo)
    assert isinstance(error, TokenizerFileError), error
    assert "x.tiktoken: is not a regular file" in str(error)


def test_a_fifo_inside_a_tokenizer_directory_is_refused(tmp_path: Path):
    fifo = tmp_path / "only.model"
    os.mkfifo(fifo)
    error = load_in_thread(tmp_path, fifo)
    assert isinstance(error, TokenizerFileError), error
    assert "only.model: is not a regular file" in str(error)


# ----- the API's own arguments -----
@pytest.mark.parametrize("path", [None, 42, b"vocab.json"])
def test_load_tokenizer_of_something_that_is_not_a_path(path):
    with pytest.raises(ValueError, match="must be a directory or a file name"):
        load_tokenizer(path)


def test_train_with_workers_as_a_string():
    with pytest.raises(ValueError, match="workers must be a whole number of processes"):
        train("abc", vocab_size=258, workers="2")


def test_a_special_token_cannot_be_a_megabyte():
    with pytest.raises(ValueError, match=r"\(1,000,000 characters\) is longer than 1,000") as info:
        PreTokenizer("gpt2", special_tokens=["<" * 1_000_000])
    assert len(str(info.value)) < SHORT


def test_reading_a_small_file_sets_aside_its_size_not_the_limit(tmp_path: Path):
    """``read(n)`` allocates n bytes before reading: asked for the 128 MiB limit, every load of a few-KB
    tokenizer file took 128 MiB for a moment (134 MB peak in tracemalloc)."""
    path = tmp_path / "vocab.txt"
    path.write_bytes(b"hello\n" * 1000)
    tracemalloc.start()
    try:
        data = read_bytes(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert data == b"hello\n" * 1000
    assert peak < 1_000_000, f"{peak:,} bytes at the peak to read 6,000"


def test_a_file_that_grows_while_read_is_still_cut_at_the_limit(tmp_path: Path, monkeypatch):
    path = tmp_path / "vocab.txt"
    path.write_bytes(b"x" * 100)
    monkeypatch.setattr(safe_io, "check_regular_file", lambda p: 10)  # the size seen before it grew
    assert read_bytes(path, max_bytes=200) == b"x" * 100
    with pytest.raises(TokenizerFileError, match="larger than"):
        read_bytes(path, max_bytes=50)
