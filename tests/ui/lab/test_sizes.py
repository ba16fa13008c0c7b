"""The lab's list of vocab sizes: parsed in time that grows with its length, capped with a message; the
table's rows stop where training stopped."""

from __future__ import annotations

import time

import pytest

from bpe_core import TrainOptions
from mergescope_ui.lab.compute import MAX_SIZES, MAX_VOCAB, LabSettings, compute_lab, parse_sizes
from mergescope_ui.lab.tables import size_frame

EVERY_SIZE = ", ".join(map(str, range(257, MAX_VOCAB + 1)))  # 32,512 sizes, 227 KB


def test_every_size_written_out_parses_in_well_under_a_second_of_work():
    """Generous: the quadratic version took 9.8 s on the class's server, this one takes milliseconds."""
    started = time.process_time()
    sizes = parse_sizes(EVERY_SIZE, most=len(EVERY_SIZE))
    used = time.process_time() - started
    assert sizes == tuple(range(257, MAX_VOCAB + 1))
    assert used < 2.0, f"{used:.1f} s of CPU to parse {len(sizes):,} sizes"


def test_repeats_are_kept_once_in_the_order_first_typed():
    assert parse_sizes("512 300 512 8k 300 8192") == (512, 300, 8192)


def test_more_sizes_than_the_table_shows_are_refused_with_a_message():
    assert len(parse_sizes(" ".join(map(str, range(300, 300 + MAX_SIZES))))) == MAX_SIZES
    with pytest.raises(ValueError, match=f"more than {MAX_SIZES} vocab sizes"):
        parse_sizes(EVERY_SIZE)


def test_a_run_that_stopped_early_shows_its_final_tokenizer_once_and_says_it_stopped():
    """A short text runs out of pairs long before 32,768: one row for the final tokenizer, marked."""
    settings = LabSettings(TrainOptions(vocab_size=MAX_VOCAB), samples=200)
    result = compute_lab("low lower lowest newer newest " * 4, {"held-out": "lowest newer"}, settings)
    final = result.run.vocab_size(result.run.merges)
    assert final < 300  # stopped well before every lesson size but the first
    table = size_frame(result.rows)
    bpe = table[table["tokenizer"] == "byte-level BPE"]
    for text, rows in bpe.groupby("text"):
        assert rows["vocab size"].is_unique, f"{text}: a tokenizer repeated\n{rows}"
        assert rows["vocab size"].iloc[-1] == final
        assert rows["note"].tolist() == [""] * (len(rows) - 1) + [f"training stopped at {final:,}"]
    assert MAX_VOCAB not in set(bpe["vocab size asked"])
