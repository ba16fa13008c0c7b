"""Every saved format reloads as the same tokenizer, whatever its split pattern (issue #29).

``vocab.json`` + ``merges.txt`` and ``.tiktoken`` files cannot record the pattern (nor, for tiktoken,
the special tokens); ``encoding.json`` beside them does, and the loader reads it.
"""

from __future__ import annotations

import io
import json
import random
from functools import cache
from pathlib import Path

import pytest

from bpe_core import Tokenizer, cli, load_tokenizer, save_tokenizer, train
from bpe_core.formats import TokenizerFileError, write_format
from bpe_core.formats.encoding_config import ENCODING_JSON, read_encoding_json_text
from tests.engine.formats.support import CORPUS, EOT, PATTERN_NAMES

CUSTOM = r"\p{L}+|\p{N}|[^\p{L}\p{N}]+"
PATTERNS = (*PATTERN_NAMES, "cl100k", CUSTOM)
FILES = ("tokenizer.json", "vocab.json", "merges.txt", "tokenizer.tiktoken", "tokenizer.model")
STRINGS = 3000
# What the strings are made of: every kind of character the patterns treat differently.
PIECES = (
    *"abcXYZéü自然🤷🏽‍♀️0123456789 \t\n\r.,!?-'\"/",
    " the",
    "'s",
    "'LL",
    "  ",
    "\r\n",
    "2024",
    "Größe",
    "Привет",
    EOT,
)


@cache
def tokenizer(pattern: str) -> Tokenizer:
    """One tokenizer per pattern, trained small (a few hundred merges)."""
    return train(CORPUS, vocab_size=330, pattern=pattern, special_tokens=[EOT])


@cache
def strings() -> tuple[str, ...]:
    rng = random.Random(29)
    return tuple("".join(rng.choices(PIECES, k=rng.randint(0, 24))) for _ in range(STRINGS))


def saved(tok: Tokenizer, folder: Path) -> Path:
    save_tokenizer(tok, folder)
    write_format(tok, "minbpe", folder / "tokenizer.model", renumber=True)
    return folder


@pytest.mark.parametrize("pattern", PATTERNS)
def test_every_format_reloads_as_the_same_tokenizer(tmp_path: Path, pattern: str) -> None:
    tok = tokenizer(pattern)
    folder = saved(tok, tmp_path)
    for name in FILES:
        notes: list[str] = []
        back = load_tokenizer(folder / name, notes=notes)
        assert notes == [], (name, notes)
        assert back.pretokenizer.source == tok.pretokenizer.source, name
        assert back.special_tokens.keys() == tok.special_tokens.keys(), name
        ids = [back.encode(s) for s in strings()]
        if name == "tokenizer.model":  # renumbered: the same tokens under other ids
            same = [
                [back.vocab[i] for i in got] == [tok.vocab[i] for i in tok.encode(s)]
                for s, got in zip(strings(), ids)
            ]
        else:
            same = [got == tok.encode(s) for s, got in zip(strings(), ids)]
        assert all(same), f"{name}: {same.count(False)} of {len(same)} strings encode differently"
        lost = [s for s, got in zip(strings(), ids) if back.decode(got) != s]
        assert lost == [], f"{name}: {len(lost)} strings do not round-trip, e.g. {lost[0]!r}"


def test_the_strings_cut_differently_under_each_pattern() -> None:
    """The test above can fail: under another pattern, many strings get other ids."""
    texts = strings()
    for pattern in PATTERNS:
        if pattern == "cl100k":
            continue
        tok = tokenizer(pattern)
        as_gpt2 = Tokenizer(tok.vocab, tok.merges, special_tokens=tok.special_tokens, pattern="gpt2")
        if pattern != "gpt2":
            assert sum(as_gpt2.encode(s) != tok.encode(s) for s in texts) > STRINGS // 20, pattern


def test_encoding_json_is_what_tiktoken_encoding_takes(tmp_path: Path) -> None:
    tok = tokenizer("gpt4")
    save_tokenizer(tok, tmp_path)
    data = json.loads((tmp_path / ENCODING_JSON).read_text(encoding="utf-8"))
    assert data == {"pattern": "gpt4", "pat_str": tok.pretokenizer.source, "special_tokens": {EOT: 256}}


def test_without_encoding_json_the_loader_says_what_it_assumed(tmp_path: Path) -> None:
    tok = tokenizer("o200k")
    save_tokenizer(tok, tmp_path)
    (tmp_path / ENCODING_JSON).unlink()
    notes: list[str] = []
    back = load_tokenizer(tmp_path / "vocab.json", notes=notes)
    assert back.pattern == "gpt2"
    assert notes == [
        "vocab.json + merges.txt: the split pattern is not recorded (no encoding.json beside), so gpt2 is "
        "assumed; choose the pattern it was trained with if it was another"
    ]
    notes = []
    back = load_tokenizer(tmp_path / "tokenizer.tiktoken", notes=notes)
    assert back.special_tokens == {} and len(notes) == 2 and "special tokens are not recorded" in notes[1]
    notes = []
    load_tokenizer(tmp_path / "tokenizer.tiktoken", pattern="o200k", special_tokens={EOT: 256}, notes=notes)
    assert notes == []  # told everything


def test_the_cli_prints_the_loader_notes(tmp_path: Path) -> None:
    save_tokenizer(tokenizer("none"), tmp_path)
    (tmp_path / ENCODING_JSON).unlink()
    out, err = io.BytesIO(), io.StringIO()
    argv = ["encode", "--tokenizer", str(tmp_path / "vocab.json"), "--text", "hi"]
    assert cli.main(argv, stdin=io.BytesIO(), stdout=out, stderr=err) == 0
    assert err.getvalue().startswith("note: vocab.json + merges.txt: the split pattern is not recorded")


def test_a_given_pattern_and_special_tokens_win(tmp_path: Path) -> None:
    save_tokenizer(tokenizer("gpt4"), tmp_path)
    assert load_tokenizer(tmp_path / "vocab.json", pattern="none").pattern == "none"
    back = load_tokenizer(tmp_path / "tokenizer.tiktoken", special_tokens={"<|other|>": 256})
    assert back.special_tokens == {"<|other|>": 256} and back.pattern == "gpt4"


def test_write_format_puts_encoding_json_beside_a_tiktoken_file(tmp_path: Path) -> None:
    tok = tokenizer(CUSTOM)
    paths = write_format(tok, "tiktoken", tmp_path / "mine.tiktoken")
    assert [p.name for p in paths] == ["mine.tiktoken", ENCODING_JSON]
    back = load_tokenizer(tmp_path / "mine.tiktoken")
    assert back.pattern == CUSTOM and back.encode(f"ab 12{EOT}") == tok.encode(f"ab 12{EOT}")
    assert load_tokenizer(tmp_path).pattern == CUSTOM  # the directory: one .tiktoken and its config


def test_a_directory_with_odd_names_still_finds_its_pair(tmp_path: Path) -> None:
    tok = tokenizer("gpt4")
    save_tokenizer(tok, tmp_path, formats=["gpt2"])
    (tmp_path / "vocab.json").rename(tmp_path / "gpt2_vocab.json")
    (tmp_path / "merges.txt").rename(tmp_path / "reference-merges.txt")
    (tmp_path / "special_tokens_map.json").unlink()
    back = load_tokenizer(tmp_path)
    assert back.pattern == "gpt4"


@pytest.mark.parametrize(
    "text, message",
    [
        ("[]", "must be a JSON object"),
        ('{"pattern": "gpt9"}', "key 'pattern'"),
        ('{"pattern": "gpt2", "pat_str": "\\\\w+"}', "is not the regex of pattern 'gpt2'"),
        ('{"pattern": "custom"}', "needs its regex in pat_str"),
        ('{"pat_str": "(a"}', "key 'pat_str'"),
        ('{"pat_str": 3}', "is not a regex"),
        ('{"special_tokens": ["<|x|>"]}', "must be an object"),
        ('{"special_tokens": {"<|x|>": -1}}', "out of range"),
        ('{"special_tokens": {"<|x|>": true}}', "whole number"),
        ('{"special_tokens": {"": 3}}', "empty"),
    ],
)
def test_a_bad_encoding_json_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(TokenizerFileError, match=message.replace("(", r"\(").replace("|", r"\|")):
        read_encoding_json_text(text, ENCODING_JSON)


def test_encoding_json_alone_is_not_a_tokenizer(tmp_path: Path) -> None:
    save_tokenizer(tokenizer("gpt2"), tmp_path)
    with pytest.raises(TokenizerFileError, match="only holds the split pattern"):
        load_tokenizer(tmp_path / ENCODING_JSON)


def test_pat_str_alone_names_the_pattern() -> None:
    from bpe_core.pretokenizer import PATTERNS

    assert read_encoding_json_text(json.dumps({"pat_str": PATTERNS["o200k"]}), "e").pattern == "o200k"
    assert read_encoding_json_text('{"pat_str": null}', "e").pattern == "none"
    assert read_encoding_json_text("{}", "e").pattern is None
