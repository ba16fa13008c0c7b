"""The lab's list of vocab sizes: parsed in time that grows with its length, capped with a message."""

from __future__ import annotations

import time

import pytest

from mergescope_ui.lab.compute import MAX_SIZES, MAX_VOCAB, parse_sizes

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
