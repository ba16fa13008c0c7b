"""Training from files (several, globs, stdin), read in blocks: the merges of the concatenated text."""

from __future__ import annotations

import io
import itertools
import tracemalloc
from pathlib import Path

import pytest

from bpe_core import Trainer, TrainOptions, train
from bpe_core.pretokenizer import PreTokenizer
from bpe_core.training.corpus import Corpus
from bpe_core.training.corpus_files import Progress, count_files
from tests.engine.formats.support import CORPUS, EOT

# Three documents, cut so that a word, a CRLF, a whitespace run and the special token straddle files.
TEXT = CORPUS + "Tom sat.\r\n\r\n\n  Then<|end|>he ran.\n" * 40
CUTS = [0, 1234, 5000, 5001, 9000, len(TEXT.encode())]  # byte offsets


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    data = TEXT.encode("utf-8")
    out = []
    for k, (a, b) in enumerate(itertools.pairwise(CUTS)):
        path = tmp_path / f"part{k}.txt"
        path.write_bytes(data[a:b])  # some cuts fall inside a UTF-8 character
        out.append(path)
    return out


@pytest.mark.parametrize(
    ("pattern", "tie_break"),
    [("gpt2", "lexicographic"), ("gpt4", "first-seen"), ("o200k", "hf"), ("none", "lowest-id")],
)
def test_files_in_small_blocks_give_the_merges_of_the_joined_text(files, pattern, tie_break):
    options = TrainOptions(
        vocab_size=400, pattern=pattern, special_tokens=(EOT, "<|end|>"), tie_break=tie_break, top_k=0
    )
    corpus = count_files(files, options.pretokenizer(), block_bytes=97)
    whole = Corpus.count(TEXT, options.pretokenizer())
    assert list(corpus.chunk_counts.items()) == list(whole.chunk_counts.items())  # first-seen order too
    assert corpus.special_counts == whole.special_counts and corpus.bytes == whole.bytes
    assert Trainer(corpus, options).run().merges == Trainer(TEXT, options).run().merges


def test_train_takes_files_and_globs(files):
    tok = train(files=[str(files[0]), str(files[0].parent / "part[1-9].txt")], vocab_size=350)
    assert tok.merges == train(TEXT, vocab_size=350).merges


def test_a_special_token_separates_documents_across_files(tmp_path):
    (tmp_path / "a.txt").write_text("low lower<|endof", encoding="utf-8")
    (tmp_path / "b.txt").write_text("text|>lowest low", encoding="utf-8")
    tok = train(files=sorted(tmp_path.glob("*.txt")), vocab_size=270, special_tokens=[EOT])
    assert (
        tok.merges == train("low lower<|endoftext|>lowest low", vocab_size=270, special_tokens=[EOT]).merges
    )
    corpus = count_files(sorted(tmp_path.glob("*.txt")), PreTokenizer("gpt2", special_tokens=[EOT]))
    assert corpus.special_counts == {EOT: 1} and "er<|endof" not in "".join(corpus.chunk_counts)


def test_stdin_and_progress(files):
    seen: list[Progress] = []
    pre = PreTokenizer("gpt2", special_tokens=[EOT])
    stdin = io.BytesIO(files[1].read_bytes())
    corpus = count_files([files[0], "-", *files[2:]], pre, stdin=stdin, progress=seen.append, block_bytes=512)
    assert corpus == Corpus.count(TEXT, pre)
    assert seen[-1].bytes_read == len(TEXT.encode()) and seen[-1].total_bytes is None
    assert [p.bytes_read for p in seen] == sorted(p.bytes_read for p in seen) and seen[-1].pretokens > 1000


def test_processes_count_ranges_and_agree(files):
    pre = PreTokenizer("gpt4", special_tokens=[EOT])
    seen: list[Progress] = []
    corpus = count_files(files, pre, workers=2, range_bytes=1500, block_bytes=300, progress=seen.append)
    assert list(corpus.chunk_counts.items()) == list(Corpus.count(TEXT, pre).chunk_counts.items())
    assert seen[-1].bytes_read == seen[-1].total_bytes == len(TEXT.encode())


def test_memory_holds_the_counts_not_the_text(tmp_path):
    """3 MB of text counted in 64 KB blocks: the peak of Python allocations stays under 2 MB."""
    line = "the keeper lit the lamp and the ship saw the light at night\n"
    (tmp_path / "big.txt").write_text(line * 52_000, encoding="utf-8")
    pre = PreTokenizer("gpt2")
    tracemalloc.start()
    try:
        corpus = count_files([tmp_path / "big.txt"], pre, block_bytes=1 << 16)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert corpus.bytes > 3_000_000 and corpus.chunk_counts[" lamp"] == 52_000
    assert peak < 2_000_000, peak


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["nothing-*.txt"], "nothing-*.txt: no file matches this pattern"),
        (["missing.txt"], "missing.txt: does not exist; pass a UTF-8 text file, a glob or - for stdin"),
        (["."], ".: is not a regular file"),
        ([], "no files given"),
        (["-", "-"], "stdin"),
    ],
)
def test_bad_file_names_are_clear_errors(tmp_path, monkeypatch, names, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=message.replace("*", r"\*").replace(".", r"\.")):
        count_files(names, PreTokenizer("gpt2"), stdin=io.BytesIO(b""))


def test_a_bad_byte_names_the_file_and_line(files, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"good line\nsecond \xff line\n")
    with pytest.raises(ValueError, match=r"bad\.txt, line 2: byte 0xFF at offset 17 is not valid UTF-8"):
        count_files([files[0], bad], PreTokenizer("gpt2"))


def test_train_wants_a_text_or_files():
    with pytest.raises(ValueError, match="either a text or files"):
        train(vocab_size=300)
    with pytest.raises(ValueError, match="either a text or files"):
        train("abc", files=["x.txt"], vocab_size=300)
    with pytest.raises(ValueError, match="workers must be a whole number"):
        count_files(["-"], PreTokenizer("gpt2"), workers=0, stdin=io.BytesIO(b""))
