"""Bad files: every one is a TokenizerFileError naming the file, the line or key, and the problem."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from bpe_core.formats import load_tokenizer, save_tokenizer
from bpe_core.formats.safe_io import MAX_FILE_BYTES, TokenizerFileError
from tests.engine.formats.support import EOT, trained


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    save_tokenizer(trained("gpt2"), tmp_path)
    return tmp_path


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def fails(path: Path, *match: str, **kwargs) -> TokenizerFileError:
    with pytest.raises(TokenizerFileError) as info:
        load_tokenizer(path, **kwargs)
    message = str(info.value)
    for m in match:
        assert m in message, message
    return info.value


# ----- vocab.json + merges.txt -----
def test_truncated_vocab_json(saved: Path) -> None:
    text = (saved / "vocab.json").read_text(encoding="utf-8")
    (saved / "vocab.json").write_text(text[: len(text) // 2], encoding="utf-8")
    err = fails(saved / "vocab.json", "vocab.json", "ends too early")
    assert err.where.startswith("line ")


def test_merge_part_not_in_vocab(saved: Path) -> None:
    with open(saved / "merges.txt", "a", encoding="utf-8") as f:
        f.write("Ġzzq x\n")
    lines = (saved / "merges.txt").read_text(encoding="utf-8").count("\n")
    fails(saved / "vocab.json", "merges.txt", f"line {lines}", "'Ġzzq' is not in the vocab")


def test_merged_token_missing_from_vocab(saved: Path) -> None:
    with open(saved / "merges.txt", "a", encoding="utf-8") as f:
        f.write("q z\n")
    fails(saved / "merges.txt", "merges.txt", "makes 'qz', which is not in the vocab")


def test_duplicate_merge_line(saved: Path) -> None:
    first = (saved / "merges.txt").read_text(encoding="utf-8").split("\n")[1]
    with open(saved / "merges.txt", "a", encoding="utf-8") as f:
        f.write(first + "\n")
    fails(saved / "vocab.json", "merges.txt", "repeats line 2")


def test_malformed_merge_line(saved: Path) -> None:
    with open(saved / "merges.txt", "a", encoding="utf-8") as f:
        f.write("a b c\n")
    fails(saved / "vocab.json", "merges.txt", "is not a merge")


def test_duplicate_ids(saved: Path) -> None:
    edit_json(
        saved / "vocab.json", lambda d: d.__setitem__("Ġthe", 5) if "Ġthe" in d else d.__setitem__("zz", 5)
    )
    fails(saved / "vocab.json", "vocab.json", "id 5 is already used by")


def test_duplicate_token_key(saved: Path) -> None:
    text = (saved / "vocab.json").read_text(encoding="utf-8")
    (saved / "vocab.json").write_text(text.replace('"a": 97', '"a": 97, "a": 98'), encoding="utf-8")
    fails(saved / "vocab.json", "vocab.json", "key 'a'", "appears twice")


def test_ids_with_a_gap(saved: Path) -> None:
    def move(d: dict) -> None:
        top = max(d.values())
        key = next(k for k, v in d.items() if v == top - 1)  # an ordinary merged token below the last one
        d[key] = top + 5

    edit_json(saved / "vocab.json", move)
    fails(saved / "vocab.json", "vocab.json", "no token has id", "without gaps")


def test_id_not_a_number(saved: Path) -> None:
    edit_json(saved / "vocab.json", lambda d: d.__setitem__("a", "97"))
    fails(saved / "vocab.json", "key 'a'", "whole number")
    edit_json(saved / "vocab.json", lambda d: d.__setitem__("a", -1))
    fails(saved / "vocab.json", "out of range")


def test_missing_byte(saved: Path) -> None:
    edit_json(saved / "vocab.json", lambda d: d.pop("Ā"))
    fails(saved / "vocab.json", "byte 0x00", "all 256")


def test_non_utf8_bytes(saved: Path) -> None:
    data = (saved / "merges.txt").read_bytes()
    (saved / "merges.txt").write_bytes(data[:40] + b"\xff\xfe" + data[40:])
    fails(saved / "vocab.json", "merges.txt", "0xFF", "not valid UTF-8")


@pytest.mark.parametrize("name", ["vocab.json", "merges.txt", "tokenizer.json", "tokenizer.tiktoken"])
def test_empty_files(saved: Path, name: str) -> None:
    (saved / name).write_bytes(b"")
    fails(saved / name, name, "is empty")
    (saved / "x.model").write_bytes(b"  \n")
    fails(saved / "x.model", "x.model", "empty")


def test_special_tokens_map_naming_an_unknown_token(saved: Path) -> None:
    (saved / "tokenizer.json").unlink()
    (saved / "special_tokens_map.json").write_text(json.dumps({"pad_token": "<pad>"}))
    fails(saved, "special_tokens_map.json", "'<pad>'", "does not have")
    (saved / "special_tokens_map.json").write_text(json.dumps({"pad_token": 3}))
    fails(saved, "special_tokens_map.json", "key 'pad_token'")


def test_huge_file_is_refused_before_reading(saved: Path) -> None:
    huge = saved / "huge.tiktoken"
    with open(huge, "wb") as f:  # sparse: 2 GiB on paper, nothing on disk
        f.truncate(2 * 1024**3)
    fails(huge, "huge.tiktoken", "2.0 GiB", "above the 128.0 MiB limit")
    assert MAX_FILE_BYTES == 128 * 1024 * 1024
    fails(saved / "vocab.json", "vocab.json", "limit", max_bytes=1000)


# ----- tokenizer.json -----
def test_hf_json_settings_that_would_change_ids(saved: Path) -> None:
    path = saved / "tokenizer.json"
    original = path.read_text(encoding="utf-8")
    cases = [
        (lambda d: d.__setitem__("normalizer", {"type": "NFC"}), "key 'normalizer'"),
        (
            lambda d: d["pre_tokenizer"]["pretokenizers"][1].__setitem__("add_prefix_space", True),
            "add_prefix_space",
        ),
        (lambda d: d["pre_tokenizer"]["pretokenizers"][0].__setitem__("behavior", "Removed"), "Isolated"),
        (lambda d: d["model"].__setitem__("ignore_merges", True), "key 'model.ignore_merges'"),
        (lambda d: d["model"].__setitem__("type", "WordPiece"), "key 'model.type'"),
        (lambda d: d["added_tokens"][0].__setitem__("lstrip", True), "added_tokens[0].lstrip"),
        (lambda d: d["added_tokens"][0].__setitem__("id", 3), "has id 3 here but 256"),
        (lambda d: d["model"]["merges"].append("q z"), "model.merges["),
        (lambda d: d["model"]["merges"].append(["q"]), "expected two tokens"),
        (lambda d: d.__setitem__("pre_tokenizer", {"type": "Whitespace"}), "key 'pre_tokenizer'"),
        (
            lambda d: d["pre_tokenizer"]["pretokenizers"][0].__setitem__("pattern", {"Regex": "(unclosed"}),
            "not a valid regex",
        ),
        (lambda d: d.__setitem__("decoder", {"type": "WordPiece"}), "key 'decoder'"),
        (lambda d: d.pop("model"), "key 'model'"),
    ]
    for change, message in cases:
        path.write_text(original, encoding="utf-8")
        edit_json(path, change)
        fails(path, "tokenizer.json", message)


# ----- tiktoken -----
def tiktoken_lines(saved: Path) -> list[str]:
    return (saved / "tokenizer.tiktoken").read_text().split("\n")


def test_tiktoken_line_not_base64(saved: Path) -> None:
    lines = tiktoken_lines(saved)
    lines[5] = "not*base64 5"
    (saved / "tokenizer.tiktoken").write_text("\n".join(lines))
    fails(saved / "tokenizer.tiktoken", "line 6", "not base64")


def test_tiktoken_bad_rank_and_duplicates(saved: Path) -> None:
    lines = tiktoken_lines(saved)
    for bad, message in [
        (lines[:5] + ["YQ== x"] + lines[6:], "rank 'x'"),
        (lines[:5] + ["YQ=="] + lines[6:], "is not 'BASE64TOKEN RANK'"),
        (lines + ["YQ== 99999"], "already has rank 97"),
        (lines + [base64.b64encode(b"zzzz").decode() + " 97"], "rank 97 is already used on line 98"),
        (lines[:97] + lines[98:], "no rank for the single byte 0x61"),
        (
            lines + [base64.b64encode(b"\x00\x01\x02").decode() + " 5000"],
            "cannot be made by joining two other tokens",
        ),
    ]:
        (saved / "tokenizer.tiktoken").write_text("\n".join(bad))
        fails(saved / "tokenizer.tiktoken", "tokenizer.tiktoken", message)


def test_tiktoken_special_token_on_a_used_rank(saved: Path) -> None:
    fails(
        saved / "tokenizer.tiktoken",
        "rank 97 is also the id given for special token",
        special_tokens={EOT: 97},
    )


# ----- minbpe -----
@pytest.mark.parametrize(
    "text, message",
    [
        ("minbpe v2\n\n0\n", "line 1"),
        ("minbpe v1\n", "truncated"),
        ("minbpe v1\n\nx\n", "line 3"),
        ("minbpe v1\n\n2\n<a> 300\n", "1 of 2 special tokens"),
        ("minbpe v1\n\n1\n<a> 256\n97 98\n", "also the id of the merge on line 5"),
        ("minbpe v1\n\n0\n97 300\n", "uses id 300"),
        ("minbpe v1\n\n0\n97 98\n97 98\n", "makes b'ab' again"),
        ("minbpe v1\n\n0\n97\n", "is not a merge"),
        ("minbpe v1\n(\n0\n", "not a valid regex"),
    ],
)
def test_bad_minbpe_models(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "bad.model").write_text(text)
    fails(tmp_path / "bad.model", "bad.model", message)


# ----- finding the files -----
def test_what_cannot_be_loaded(tmp_path: Path, saved: Path) -> None:
    fails(tmp_path / "nope", "does not exist")
    empty = tmp_path / "empty"
    empty.mkdir()
    fails(empty, "holds no tokenizer files")
    fails(saved / "vocab.txt", "human-readable")
    fails(saved / "special_tokens_map.json", "only names the special tokens")
    (saved / "merges.txt").rename(saved / "other.txt")
    fails(saved / "vocab.json", "needs its merges file merges.txt")
    with pytest.raises(ValueError, match=r"only for \.tiktoken"):
        load_tokenizer(saved / "tokenizer.json", special_tokens={EOT: 256})
