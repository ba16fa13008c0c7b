"""An HF ``tokenizer.json`` for a code-point BPE run (:mod:`bpe_core.training.char_bpe`), laid out as
Llama-2's: model ``BPE`` with ``byte_fallback`` and ``fuse_unk``, ``<unk>`` an added special token, the
normalizer ``Prepend("▁")`` then ``Replace(" ", "▁")`` (what our normalizer does: a ``▁`` in front, every
space a ``▁``), no pre-tokenizer, and Llama's decoder (``▁`` back to spaces, byte pieces fused into
characters, the first space stripped).  HF ``tokenizers`` loads it and gives our ids (a test compares).

>>> from bpe_core.training.char_bpe import char_bpe_steps
>>> trainer = char_bpe_steps("low low lower", vocab_size=266).run()  # 263: <unk>, bytes, 6 characters
>>> data = json.loads(char_bpe_tokenizer_json(trainer.vocab, trainer.merges))
>>> data["model"]["merges"], data["model"]["vocab"]["▁low"]
([['l', 'o'], ['▁', 'lo'], ['▁lo', 'w']], 265)
"""

from __future__ import annotations

import json
from collections.abc import Sequence

SPACE = "\u2581"


def char_bpe_tokenizer_json(vocab: Sequence[str], merges: Sequence[tuple[str, str]]) -> str:
    """The file's text: ``vocab`` in id order (``<unk>`` first), ``merges`` in the order learned."""
    if not vocab or vocab[0] != "<unk>":
        raise ValueError("the vocabulary must start with <unk> (id 0); give a code-point BPE run's vocab")
    ids: dict[str, int] = {}
    for i, piece in enumerate(vocab):
        ids.setdefault(piece, i)
    missing = [a + b for a, b in merges if a + b not in ids]
    if missing:
        raise ValueError(f"the merge making {missing[0]!r} has no id in the vocabulary; give the run's vocab")
    data = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {
                "id": 0,
                "content": "<unk>",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
        ],
        "normalizer": {
            "type": "Sequence",
            "normalizers": [
                {"type": "Prepend", "prepend": SPACE},
                {"type": "Replace", "pattern": {"String": " "}, "content": SPACE},
            ],
        },
        "pre_tokenizer": None,
        "post_processor": None,
        "decoder": {
            "type": "Sequence",
            "decoders": [
                {"type": "Replace", "pattern": {"String": SPACE}, "content": " "},
                {"type": "ByteFallback"},
                {"type": "Fuse"},
                {"type": "Strip", "content": " ", "start": 1, "stop": 0},
            ],
        },
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": "<unk>",
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": True,
            "byte_fallback": True,
            "ignore_merges": False,
            "vocab": ids,
            "merges": [[a, b] for a, b in merges],
        },
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
