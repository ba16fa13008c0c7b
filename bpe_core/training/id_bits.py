"""How many bits a token id takes: every id fits in :data:`ID_BITS`, so a pair packs into one int.

The fast trainer and the tie rules key a pair ``(a, b)`` as ``(a << ID_BITS) | b``
(an int hashes and compares faster than a tuple), and the replay of a run
(``places.py``) writes an id as three 7-bit bytes.  ``options.MAX_VOCAB_SIZE``
(1,000,000) stays below ``2**ID_BITS - 1``, which the replay keeps for its
separator; ``tests/engine/training/test_id_bits.py`` checks it.

>>> a, b = 97, 300
>>> key = (a << ID_BITS) | b
>>> key >> ID_BITS, key & ID_MASK
(97, 300)
"""

ID_BITS = 21
ID_MASK = (1 << ID_BITS) - 1
