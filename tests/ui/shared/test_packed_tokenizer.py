"""A tokenizer packed in a worker and unpacked on the server: the same tokenizer, rebuilt without a second
check, through a path no user input reaches."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bpe_core import Tokenizer, load_tokenizer, train
from bpe_core.formats.save import write_format
from mergescope_ui.shared.inputs import tokenizer_files
from mergescope_ui.shared.inputs.tokenizer_files import load_packed, load_uploaded, pack, unpack
from tests.engine.formats.support import rank_file

ROOT = Path(__file__).resolve().parents[3]
TEXTS = [
    "",
    "the cat in the hat<|endoftext|> sat on the mat",
    "naïve café, 自然言語処理 🙂🙂 and \x00 bytes\n\n\t  lots   of   space",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa abababababab <|endoftext|><|endoftext|>",
    "def f(x):\n    return x ** 2  # 12345 67890",
]


def _bytes_vocab(order: list[int]) -> dict[int, bytes]:
    return {i: bytes([b]) for i, b in enumerate(order)}


def tokenizers() -> list[Tokenizer]:
    corpus = " ".join(TEXTS[1:]) * 3
    shuffled = _bytes_vocab(list(range(255, -1, -1)))  # byte b has id 255 - b
    shared = _bytes_vocab(list(range(256))) | {256: b"<|endoftext|>", 257: b"ab", 258: b"aa"}
    return [
        train(corpus, vocab_size=300, pattern="gpt2"),
        train(corpus, vocab_size=320, pattern="gpt4", special_tokens=["<|endoftext|>"]),
        train(corpus, vocab_size=290, pattern="none"),
        # bytes numbered out of order; a pair listed twice (the first merge wins)
        Tokenizer(shuffled | {256: b"ab", 300: b"abab"}, [(158, 157), (256, 256), (158, 157)]),
        # a special token whose bytes an ordinary token (256) has too, at an id of its own
        Tokenizer(
            shared,
            [(97, 98), (97, 97)],
            special_tokens={"<|endoftext|>": 1000},
            pattern="gpt2",
        ),
    ]


@pytest.mark.parametrize("index", range(5))
def test_unpacked_equals_the_checked_tokenizer(index):
    tok = tokenizers()[index]
    back = unpack(pack(tok))
    assert (back.vocab, back.merges, back.merge_ids) == (tok.vocab, tok.merges, tok.merge_ids)
    assert (back.special_tokens, back.pattern) == (tok.special_tokens, tok.pattern)
    assert back.merge_ranks() == tok.merge_ranks() and back.byte_ids() == tok.byte_ids()
    for token_id in tok.vocab:
        assert back.merge_step_of(token_id) == tok.merge_step_of(token_id)
        assert back.id_of(tok.vocab[token_id]) == tok.id_of(tok.vocab[token_id])
    for text in TEXTS:
        assert back.encode(text) == tok.encode(text)
        assert back.encode_ordinary(text) == tok.encode_ordinary(text)
        assert back.decode(back.encode(text)) == text


def test_a_tiktoken_file_through_the_workers_path_equals_the_engines_load(tmp_path):
    data = rank_file(3000, seed=5)
    packed = load_packed([("big.tiktoken", data)])
    assert isinstance(packed, tokenizer_files.PackedTokenizer)
    (tmp_path / "big.tiktoken").write_bytes(data)
    checked = load_tokenizer(tmp_path / "big.tiktoken")
    back = unpack(packed)
    assert (back.vocab, back.merges, back.merge_ids) == (checked.vocab, checked.merges, checked.merge_ids)
    sample = bytes(range(256)).decode("latin-1") + data[:4000].decode("ascii")
    for text in [*TEXTS, sample]:
        assert back.encode(text) == checked.encode(text)


def test_unpack_checks_nothing_again(monkeypatch):
    """The server does not check the merges a second time (the point of the trusted path)."""
    tok = train("the cat in the hat " * 5, vocab_size=270, pattern="gpt2", special_tokens=["<|x|>"])
    packed = pack(tok)

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("a check ran on the trusted path")

    for name in ("__init__", "_merge_ids", "_checked_merge_ids", "_checked_id_of"):
        monkeypatch.setattr(Tokenizer, name, refuse)
    assert unpack(packed).encode("the hat<|x|>") == tok.encode("the hat<|x|>")


def test_user_files_reach_the_trusted_constructor_only_as_data_their_reader_checked(monkeypatch, tmp_path):
    """With the trusted constructor made to fail, every format but .tiktoken still loads (they build
    through the checking constructor) and bad .tiktoken files are still refused (by the reader, before
    any tokenizer is built); a good .tiktoken file is the one file the trusted path builds."""

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("the trusted constructor was reached")

    monkeypatch.setattr(Tokenizer, "_from_checked", refuse)
    tok = tokenizers()[0]
    for fmt, name in [("hf-json", "tokenizer.json"), ("minbpe", "t.model")]:
        (path,) = write_format(tok, fmt, tmp_path / name)
        loaded = load_uploaded([(name, path.read_bytes())])
        assert (loaded.vocab, loaded.merges) == (tok.vocab, tok.merges)
        assert isinstance(load_packed([(name, path.read_bytes())]), tokenizer_files.PackedTokenizer)
    good = rank_file(400, seed=2)
    lines = good.splitlines()
    for bad in [b"\n".join(lines[:300] + lines[:1]), b"\n".join(lines[1:])]:  # a token twice; no byte 0
        with pytest.raises(ValueError):
            load_uploaded([("a.tiktoken", bad)])
    with pytest.raises(AssertionError, match="trusted constructor"):
        load_uploaded([("a.tiktoken", good)])


def _callers(name: str) -> set[str]:
    """The repository's source files (not tests) that name ``name``."""
    found = set()
    for path in [*ROOT.glob("bpe_core/**/*.py"), *ROOT.glob("mergescope_ui/**/*.py"), *ROOT.glob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr == name) or (
                isinstance(node, ast.Name) and node.id == name
            ):
                found.add(path.relative_to(ROOT).as_posix())
    found.update(
        p.relative_to(ROOT).as_posix()
        for p in ROOT.glob("pages/**/*.py")
        if name in p.read_text(encoding="utf-8")
    )
    return found


def test_only_unpack_reaches_the_trusted_constructor_and_only_a_jobs_value_reaches_unpack():
    # bpe.py defines it; load.py builds a reader's checked data with it (merge_ids only a .tiktoken's)
    trusted = {"mergescope_ui/shared/inputs/tokenizer_files.py", "bpe_core/formats/load.py"}
    assert _callers("_from_checked") == trusted
    source = (ROOT / "mergescope_ui/shared/inputs/tokenizer_files.py").read_text(encoding="utf-8")
    assert source.count("_from_checked(") == 1 and "def unpack(" in source
    load = (ROOT / "bpe_core/formats/load.py").read_text(encoding="utf-8")
    assert load.count("_from_checked(") == 1 and "if data.merge_ids is None:" in load
    setters = {
        path.relative_to(ROOT).as_posix()
        for path in ROOT.glob("bpe_core/formats/*.py")
        if "merge_ids=" in path.read_text(encoding="utf-8")
    }
    assert setters == {"bpe_core/formats/tiktoken.py"}
    importers = set()
    for path in [
        *ROOT.glob("bpe_core/**/*.py"),
        *ROOT.glob("mergescope_ui/**/*.py"),
        *ROOT.glob("pages/**/*.py"),
    ]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("tokenizer_files"):
                if any(alias.name in {"unpack", "*"} for alias in node.names):
                    importers.add(path.relative_to(ROOT).as_posix())
            elif (
                isinstance(node, ast.Attribute)
                and node.attr == "unpack"
                and isinstance(node.value, ast.Name)
                and node.value.id == "tokenizer_files"
            ):
                importers.add(path.relative_to(ROOT).as_posix())
    assert importers == {"mergescope_ui/shared/workers/job_wait.py"}
    job_wait = (ROOT / "mergescope_ui/shared/workers/job_wait.py").read_text(encoding="utf-8")
    # the one call: the value of the job that ran load_packed in a worker, after its status said done
    assert job_wait.count("unpack(") == 1 and "else unpack(value)" in job_wait
