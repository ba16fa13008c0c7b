"""Saving and loading every format: same ids back, and save -> load -> save is byte-identical."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_core import Tokenizer, train
from bpe_core.byte_level import BYTE_TO_UNICODE
from bpe_core.formats import DEFAULT_PATTERN, FORMATS, load_tokenizer, save_tokenizer, write_format
from bpe_core.formats.vocab_txt import show_token
from tests.engine.formats.support import CORPUS, EOT, PATTERN_NAMES, SAMPLE, trained

SAVED = [
    "encoding.json",
    "merges.txt",
    "special_tokens_map.json",
    "tokenizer.json",
    "tokenizer.tiktoken",
    "vocab.json",
    "vocab.txt",
]


def files_of(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def same_tokenizer(a: Tokenizer, b: Tokenizer) -> None:
    assert a.vocab == b.vocab
    assert a.merges == b.merges
    assert a.special_tokens == b.special_tokens
    assert a.encode(SAMPLE) == b.encode(SAMPLE)


@pytest.mark.parametrize("pattern", PATTERN_NAMES)
def test_save_load_save_is_byte_identical(tmp_path: Path, pattern: str) -> None:
    tok = trained(pattern)
    first = sorted(p.name for p in save_tokenizer(tok, tmp_path / "a"))
    assert first == SAVED
    back = load_tokenizer(tmp_path / "a")
    same_tokenizer(tok, back)
    assert back.pattern == pattern  # tokenizer.json records it
    save_tokenizer(back, tmp_path / "b")
    assert files_of(tmp_path / "a") == files_of(tmp_path / "b")


@pytest.mark.parametrize("pattern", ["gpt4", "none", r"\p{L}+|\d"])
def test_every_file_alone_loads_the_same_tokenizer(tmp_path: Path, pattern: str) -> None:
    tok = train(CORPUS, vocab_size=400, pattern=pattern, special_tokens=[EOT])
    save_tokenizer(tok, tmp_path)
    write_format(tok, "minbpe", tmp_path / "m.model", renumber=True)
    from_json = load_tokenizer(tmp_path / "tokenizer.json")
    from_vocab = load_tokenizer(tmp_path / "vocab.json", pattern=pattern)
    from_merges = load_tokenizer(tmp_path / "merges.txt", pattern=pattern)
    from_tiktoken = load_tokenizer(
        tmp_path / "tokenizer.tiktoken", pattern=pattern, special_tokens={EOT: 256}
    )
    for other in (from_json, from_vocab, from_merges, from_tiktoken):
        same_tokenizer(tok, other)
        assert other.pattern == tok.pattern or other.pretokenizer.source == tok.pretokenizer.source
    # minbpe renumbers (merges first, then the special token) but keeps every token and merge
    from_minbpe = load_tokenizer(tmp_path / "m.model")
    assert from_minbpe.decode(from_minbpe.encode(SAMPLE)) == SAMPLE
    assert [from_minbpe.vocab[i] for i in from_minbpe.encode(SAMPLE)] == [
        tok.vocab[i] for i in tok.encode(SAMPLE)
    ]
    assert from_minbpe.special_tokens == {EOT: 256 + len(tok.merges)}


def test_vocab_json_and_merges_txt_are_gpt2_style(tmp_path: Path) -> None:
    tok = trained("gpt2")
    save_tokenizer(tok, tmp_path)
    vocab = json.loads((tmp_path / "vocab.json").read_text(encoding="utf-8"))
    assert vocab[EOT] == 256  # special token as its literal string
    assert vocab["Ġ"] == 32 and vocab[BYTE_TO_UNICODE[10]] == 10  # bytes are ids 0..255 when trained here
    assert sorted(vocab.values()) == list(range(len(tok.vocab)))
    lines = (tmp_path / "merges.txt").read_text(encoding="utf-8").split("\n")
    assert lines[0] == "#version: 0.2" and lines[-1] == ""
    assert len(lines) == len(tok.merges) + 2
    assert all(len(line.split(" ")) == 2 for line in lines[1:-1])
    assert json.loads((tmp_path / "special_tokens_map.json").read_text()) == {"eos_token": EOT}


def test_special_tokens_map_names_every_special_token(tmp_path: Path) -> None:
    tok = train("a b c <|a|> <|b|> abab" * 5 + EOT, vocab_size=262, special_tokens=["<|a|>", EOT, "<|b|>"])
    save_tokenizer(tok, tmp_path)
    data = json.loads((tmp_path / "special_tokens_map.json").read_text())
    assert data == {"eos_token": EOT, "additional_special_tokens": ["<|a|>", "<|b|>"]}
    # objects with "content" are read too, and every named token is special
    (tmp_path / "tokenizer.json").unlink()
    (tmp_path / "special_tokens_map.json").write_text(
        json.dumps(
            {
                "bos_token": {"content": "<|a|>", "lstrip": False},
                "eos_token": EOT,
                "additional_special_tokens": [{"content": "<|b|>"}],
            }
        )
    )
    back = load_tokenizer(tmp_path)
    assert back.special_tokens == tok.special_tokens
    assert back.encode("<|b|>ab<|a|>") == tok.encode("<|b|>ab<|a|>")


def test_unreachable_token_in_vocab_json_is_special_like_gpt2s_endoftext(tmp_path: Path) -> None:
    tok = trained("gpt2")
    save_tokenizer(tok, tmp_path)
    (tmp_path / "special_tokens_map.json").unlink()
    (tmp_path / "tokenizer.json").unlink()
    back = load_tokenizer(tmp_path)
    assert back.special_tokens == {EOT: 256}
    assert back.pattern == DEFAULT_PATTERN == "gpt2"


def test_truncated_tokenizer_with_gap_below_special_saves_and_loads(tmp_path: Path) -> None:
    # GPT-2-like layout: special token last; with_merges leaves a gap below it, which is allowed
    tok = trained("gpt2")
    vocab = {i: t for i, t in tok.vocab.items() if i != 256}
    shift = {i: (i if i < 256 else i - 1) for i in vocab}
    last = max(shift.values()) + 100
    gpt2_like = Tokenizer(
        {shift[i]: t for i, t in vocab.items()} | {last: EOT.encode()},
        [(shift[a], shift[b]) for a, b in tok.merges],
        special_tokens={EOT: last},
    )
    small = gpt2_like.with_merges(10)
    save_tokenizer(small, tmp_path / "a")
    back = load_tokenizer(tmp_path / "a")
    same_tokenizer(small, back)
    save_tokenizer(back, tmp_path / "b")
    assert files_of(tmp_path / "a") == files_of(tmp_path / "b")


def test_vocab_txt_lists_every_token_readably(tmp_path: Path) -> None:
    tok = trained("gpt2")
    save_tokenizer(tok, tmp_path)
    lines = (tmp_path / "vocab.txt").read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith(
        f"# vocab.txt: {len(tok.vocab)} tokens (256 bytes, 1 special token, {len(tok.merges)} merges)"
    )
    body = [ln.split("\t") for ln in lines[2:-1]]
    assert [int(row[0]) for row in body] == sorted(tok.vocab)
    assert body[10] == ["10", '"\\n"', "byte 0x0A"]
    assert body[0xE4] == ["228", '"<0xE4>"', "byte 0xE4"]
    assert body[256] == ["256", f'"{EOT}"', "special token"]
    a, b = tok.merges[0]
    assert body[257][2] == f"merge 1: {show_token(tok.vocab[a])} + {show_token(tok.vocab[b])} ({a} + {b})"
    assert show_token("自".encode()[:2]) == '"<0xE8><0x87>"'
    assert show_token(b' "x"\\\r\t\x7f') == '" \\"x\\"\\\\\\r\\t<0x7F>"'


@pytest.mark.parametrize("fmt", FORMATS)
def test_write_format_into_a_directory_or_file(tmp_path: Path, fmt: str) -> None:
    tok = train("hello world " * 10, vocab_size=270)  # no special tokens: minbpe's layout fits
    paths = write_format(tok, fmt, tmp_path / "out" if fmt == "gpt2" else tmp_path)
    assert all(p.exists() for p in paths)
    if fmt != "vocab-txt":
        back = load_tokenizer(paths[0])
        assert back.encode("hello world!") == tok.encode("hello world!")


def test_minbpe_needs_renumber_when_ids_do_not_fit(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="renumber"):
        write_format(trained("gpt2"), "minbpe", tmp_path / "x.model")
    assert not (tmp_path / "x.model").exists()


def test_minbpe_file_written_by_hand_loads(tmp_path: Path) -> None:
    # The layout minbpe's save() writes: header, pattern ('' = no split), special count, specials, merges.
    model = "minbpe v1\n\n1\n<|endoftext|> 300\n97 98\n256 99\n32 257\n"
    (tmp_path / "basic.model").write_text(model)
    tok = load_tokenizer(tmp_path / "basic.model")
    assert tok.pattern == "none"
    assert tok.vocab[256] == b"ab" and tok.vocab[257] == b"abc" and tok.vocab[258] == b" abc"
    assert tok.encode("abc abc<|endoftext|>") == [257, 258, 300]
    write_format(tok, "minbpe", tmp_path / "again.model")
    assert (tmp_path / "again.model").read_text() == model


def test_save_refuses_before_writing_anything(tmp_path: Path) -> None:
    tok = trained("gpt2")
    # tiktoken needs ids that grow with the merges; swap two merged tokens' ids
    vocab = dict(tok.vocab)
    vocab[300], vocab[301] = vocab[301], vocab[300]
    odd = Tokenizer(vocab, tok.merges, special_tokens=tok.special_tokens)
    with pytest.raises(ValueError, match=r"tokenizer\.tiktoken"):
        save_tokenizer(odd, tmp_path / "x")
    assert not (tmp_path / "x").exists()
    written = save_tokenizer(odd, tmp_path / "y", formats=["gpt2", "hf-json"])
    assert len(written) == 5  # vocab.json, merges.txt, special_tokens_map.json, encoding.json, tokenizer.json
    same_tokenizer(odd, load_tokenizer(tmp_path / "y"))


def test_a_saved_directory_loads_whole_or_by_one_file(tmp_path: Path) -> None:
    tok = trained("gpt4")
    save_tokenizer(tok, tmp_path)
    same_tokenizer(tok, load_tokenizer(tmp_path))
    assert load_tokenizer(tmp_path / "vocab.json", pattern="gpt4").encode(SAMPLE) == tok.encode(SAMPLE)
