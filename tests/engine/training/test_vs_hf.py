"""tie_break="hf" reproduces HF tokenizers' BPE trainer merge for merge (skips without `tokenizers`)."""

import json
import random

import pytest

from bpe_core import save_tokenizer, train
from bpe_core.byte_level import from_unicode_string

tokenizers = pytest.importorskip(
    "tokenizers", reason="HF tokenizers is a dev-only reference: pip install -r requirements-dev.txt"
)


def corpus(seed: int) -> str:
    """A few KB of text with many equal counts, so the tie rule decides often."""
    rng = random.Random(seed)
    words = [
        "the",
        "then",
        "there",
        "token",
        "tokens",
        "merge",
        "merges",
        "bytes",
        "pair",
        "pairs",
        "学习",
        "机器",
        "naïve",
        "café",
        "x=1;",
        "2024",
        "  ",
        "\n",
        "it's",
        "we'll",
    ]
    return " ".join(rng.choice(words) for _ in range(1500))


def hf_merges(text: str, vocab_size: int) -> list[tuple[bytes, bytes]]:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    hf.train_from_iterator([text], trainer)
    merges = json.loads(hf.to_str())["model"]["merges"]
    pairs = [m if isinstance(m, list) else m.split(" ") for m in merges]
    return [(from_unicode_string(a), from_unicode_string(b)) for a, b in pairs]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hf_rule_matches_hf_trainer(seed):
    text = corpus(seed)
    theirs = hf_merges(text, 400)
    tok = train(text, vocab_size=400, pattern="gpt2", tie_break="hf")
    ours = [(tok.vocab[a], tok.vocab[b]) for a, b in tok.merges]
    assert len(theirs) > 50
    assert ours == theirs


def test_other_rules_can_differ_from_hf():
    """The comparison above can fail: the lexicographic rule picks other merges on this text."""
    text = corpus(0)
    tok = train(text, vocab_size=400, pattern="gpt2", tie_break="lexicographic")
    assert [(tok.vocab[a], tok.vocab[b]) for a, b in tok.merges] != hf_merges(text, 400)


def test_merges_file_written_under_hf_rule_is_byte_identical_to_hfs(tmp_path):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    text = corpus(3)
    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.train_from_iterator(
        [text],
        trainers.BpeTrainer(
            vocab_size=380, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
        ),
    )
    (tmp_path / "hf").mkdir()
    hf.model.save(str(tmp_path / "hf"))
    save_tokenizer(train(text, vocab_size=380, tie_break="hf"), tmp_path / "ours")
    theirs = (tmp_path / "hf" / "merges.txt").read_bytes()
    assert theirs.count(b"\n") > 50  # enough merges to make the comparison mean something
    assert (tmp_path / "ours" / "merges.txt").read_bytes() == theirs
