"""Fuzz the loaders with mutated valid files: only a clean ValueError (TokenizerFileError) may come out."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_core import train
from bpe_core.formats import load_tokenizer, save_tokenizer, write_format

EOT = "<|endoftext|>"
TOKENIZER = train("the cat sat on the mat, 自然 🤷 naïve\r\n" * 8 + EOT, vocab_size=275, special_tokens=[EOT])
TARGETS = [
    "vocab.json",
    "merges.txt",
    "special_tokens_map.json",
    "tokenizer.json",
    "tokenizer.tiktoken",
    "m.model",
]

with tempfile.TemporaryDirectory() as _d:
    save_tokenizer(TOKENIZER, _d)
    write_format(TOKENIZER, "minbpe", Path(_d) / "m.model", renumber=True)
    ORIGINALS = {p.name: p.read_bytes() for p in Path(_d).iterdir()}

# Bytes worth inserting: JSON and file syntax, digits, base64, multi-byte and invalid UTF-8.
PIECES = st.sampled_from(
    [
        b'"',
        b"{",
        b"}",
        b"[",
        b"]",
        b",",
        b":",
        b" ",
        b"\n",
        b"\r\n",
        b"0",
        b"-1",
        b"99999",
        b"1e5",
        b"true",
        b"null",
        b"=",
        b"YQ==",
        b"\xc4\xa0",
        b"\xff",
        b"\xe8\x87",
        b"\\u0000",
        b'"\xc4\xa0t"',
        b"#version: 0.2\n",
        b"minbpe v1\n",
    ]
)


@st.composite
def mutated(draw: st.DrawFn, name: str) -> bytes:
    data = bytearray(ORIGINALS[name])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(["delete", "insert", "replace", "truncate", "dup-line", "swap-lines", "bytes"])
        )
        n = len(data)
        i = draw(st.integers(0, max(n - 1, 0)))
        if kind == "delete":
            del data[i : i + draw(st.integers(1, 20))]
        elif kind == "insert":
            data[i:i] = draw(PIECES)
        elif kind == "replace" and n:
            data[i] = draw(st.integers(0, 255))
        elif kind == "truncate":
            del data[i:]
        elif kind == "bytes":
            data[i:i] = draw(st.binary(min_size=1, max_size=8))
        else:
            lines = bytes(data).split(b"\n")
            j, k = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if kind == "dup-line":
                lines.insert(k, lines[j])
            else:
                lines[j], lines[k] = lines[k], lines[j]
            data = bytearray(b"\n".join(lines))
    return bytes(data)


def load_mutated(name: str, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        for n, original in ORIGINALS.items():
            (Path(d) / n).write_bytes(data if n == name else original)
        if name == "special_tokens_map.json":
            (Path(d) / "tokenizer.json").unlink()  # so the directory load reads the map
            target = Path(d)
        else:
            target = Path(d) / name
        kwargs = {"special_tokens": {EOT: 256}} if name.endswith(".tiktoken") else {}
        try:
            tok = load_tokenizer(target, **kwargs)
        except ValueError:
            return
        tok.decode(tok.encode("the cat 自然 🤷" + EOT))  # what loads must work


@pytest.mark.parametrize("name", TARGETS)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_files_fail_cleanly(name: str, data: st.DataObject) -> None:
    load_mutated(name, data.draw(mutated(name)))


@pytest.mark.parametrize("name", TARGETS)
@settings(max_examples=40, deadline=None)
@given(junk=st.binary(max_size=300))
def test_random_bytes_fail_cleanly(name: str, junk: bytes) -> None:
    load_mutated(name, junk)
