"""A vocab.json and a merges.txt from two different tokenizers: the error names both files and what
each holds, and the first merge that cannot work (the issue's "merge 12 makes 'Ġth', which vocab.json
does not have"); files named otherwise than vocab.json / merges.txt are still read as a pair."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_core import train
from bpe_core.byte_level import to_unicode_string
from bpe_core.formats import TokenizerFileError, load_tokenizer, save_tokenizer
from tests.engine.formats.support import CORPUS

ENGLISH = "the theory of the thing: then there were three thin thieves " * 40
CODE = "def f(x):\n    return x + 1  # add\n" * 40


def _save(tmp: Path, name: str, text: str) -> Path:
    out = tmp / name
    save_tokenizer(train(text, vocab_size=300, pattern="gpt2"), out)
    return out


def _first_bad_merge(vocab: dict[str, int], merges_txt: str) -> tuple[int, str]:
    """The number of the first merge (1-based) whose result ``vocab`` lacks, and that result."""
    lines = [line for line in merges_txt.splitlines()[1:] if line]
    for k, line in enumerate(lines, start=1):
        left, right = line.split(" ")
        for needed in (left, right, left + right):
            if needed not in vocab:
                return k, needed
    raise AssertionError("the two tokenizers share every merge")


def test_vocab_of_one_and_merges_of_another_name_both_files(tmp_path: Path) -> None:
    english, code = _save(tmp_path, "en", ENGLISH), _save(tmp_path, "code", CODE)
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "gpt2_vocab.json").write_bytes((english / "vocab.json").read_bytes())
    (mixed / "reference-merges.txt").write_bytes((code / "merges.txt").read_bytes())
    vocab = json.loads((english / "vocab.json").read_text(encoding="utf-8"))
    merges_txt = (code / "merges.txt").read_text(encoding="utf-8")
    step, token = _first_bad_merge(vocab, merges_txt)
    with pytest.raises(TokenizerFileError) as info:
        load_tokenizer(mixed)
    message = str(info.value)
    n_merges = len([line for line in merges_txt.splitlines()[1:] if line])
    assert f"gpt2_vocab.json ({len(vocab):,} tokens)" in message, message
    assert f"reference-merges.txt ({n_merges:,} merges)" in message, message
    assert "come from different tokenizers" in message
    assert f"merge {step} " in message and f"{token!r}, which gpt2_vocab.json does not have" in message
    assert info.value.path.endswith("reference-merges.txt") and info.value.where == f"line {step + 1}"


def test_a_matching_pair_with_other_names_loads(tmp_path: Path) -> None:
    tok = train(CORPUS, vocab_size=320, pattern="gpt2")
    saved = tmp_path / "saved"
    save_tokenizer(tok, saved)
    pair = tmp_path / "pair"
    pair.mkdir()
    (pair / "gpt2_vocab.json").write_bytes((saved / "vocab.json").read_bytes())
    (pair / "my-merges.txt").write_bytes((saved / "merges.txt").read_bytes())
    back = load_tokenizer(pair)
    assert back.merges == tok.merges and back.encode(CORPUS[:500]) == tok.encode(CORPUS[:500])


def test_one_damaged_line_keeps_the_line_message(tmp_path: Path) -> None:
    saved = _save(tmp_path, "en", ENGLISH)
    with open(saved / "merges.txt", "a", encoding="utf-8") as f:
        f.write(f"{to_unicode_string(b'q')} {to_unicode_string(b'z')}\n")
    with pytest.raises(TokenizerFileError) as info:
        load_tokenizer(saved / "vocab.json")
    assert "makes 'qz', which is not in the vocab" in str(info.value)
    assert "different tokenizers" not in str(info.value)
