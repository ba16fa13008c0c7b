"""Every id training may make fits in a packed pair, and in the replay's codes below its separator."""

import pytest

from bpe_core.training.id_bits import ID_BITS, ID_MASK
from bpe_core.training.options import MAX_VOCAB_SIZE
from bpe_core.training.places import code


def test_the_largest_id_survives_a_packed_pair_and_the_replay() -> None:
    top = MAX_VOCAB_SIZE - 1
    key = (top << ID_BITS) | top
    assert (key >> ID_BITS, key & ID_MASK) == (top, top)
    a, b, c = code(top)
    assert (a & 0x7F) << 14 | b << 7 | c == top
    with pytest.raises(ValueError, match="21-bit"):
        code(ID_MASK)  # the replay's separator, above every id
