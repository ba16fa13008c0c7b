"""Interop with HF `tokenizers`: our files load there with our ids, and theirs load here with theirs."""

from __future__ import annotations

from pathlib import Path

import pytest

hf = pytest.importorskip(
    "tokenizers", reason="HF tokenizers is a dev requirement (requirements-dev.txt); interop tests need it"
)
from tokenizers import Regex, decoders, models, pre_tokenizers, trainers  # noqa: E402

from bpe_core import train  # noqa: E402
from bpe_core.formats import load_tokenizer, save_tokenizer  # noqa: E402
from bpe_core.formats.hf_json import HF_BYTELEVEL_PATTERN, to_hf_regex  # noqa: E402
from tests.engine.formats.support import CORPUS, EOT, PATTERN_NAMES, SAMPLE, trained  # noqa: E402
from tests.engine.formats.support import INTEROP_TEXTS as TEXTS  # noqa: E402


def hf_pre_tokenizer(pattern: str):
    regex = to_hf_regex(pattern)
    bytelevel = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    if regex is None:
        return bytelevel
    return pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(regex), behavior="isolated"), bytelevel])


@pytest.mark.parametrize("pattern", PATTERN_NAMES)
def test_hf_reads_our_tokenizer_json_with_our_ids(tmp_path: Path, pattern: str) -> None:
    tok = trained(pattern)
    save_tokenizer(tok, tmp_path)
    theirs = hf.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    for text in TEXTS:
        ids = tok.encode(text)
        assert theirs.encode(text).ids == ids, text[:60]
        assert theirs.decode(ids, skip_special_tokens=False) == text
    assert theirs.get_vocab_size() == len(tok.vocab)


@pytest.mark.parametrize("pattern", PATTERN_NAMES)
def test_hf_reads_our_vocab_json_and_merges_txt_with_our_ids(tmp_path: Path, pattern: str) -> None:
    tok = trained(pattern)
    save_tokenizer(tok, tmp_path)
    theirs = hf.Tokenizer(models.BPE.from_file(str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")))
    theirs.pre_tokenizer = hf_pre_tokenizer(pattern)
    theirs.decoder = decoders.ByteLevel()
    theirs.add_special_tokens([EOT])
    for text in TEXTS:
        ids = tok.encode(text)
        assert theirs.encode(text).ids == ids, text[:60]
        assert theirs.decode(ids, skip_special_tokens=False) == text


def test_hf_bytelevel_default_regex_agrees_on_gpt2_pattern(tmp_path: Path) -> None:
    # The usual way to open GPT-2-style files in HF: ByteLevel with its own regex.
    tok = trained("gpt2")
    save_tokenizer(tok, tmp_path)
    theirs = hf.Tokenizer(models.BPE.from_file(str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")))
    theirs.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    theirs.add_special_tokens([EOT])
    for text in TEXTS:
        assert theirs.encode(text).ids == tok.encode(text)


def hf_trained(pre_tokenizer) -> hf.Tokenizer:
    tokenizer = hf.Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizer
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=450,
        special_tokens=[EOT, "<pad>"],
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator([CORPUS], trainer)
    return tokenizer


@pytest.mark.parametrize("kind", ["bytelevel-regex", "split-gpt4", "no-split"])
def test_hf_trained_tokenizer_loads_here_with_its_ids(tmp_path: Path, kind: str) -> None:
    pre = {
        "bytelevel-regex": pre_tokenizers.ByteLevel(add_prefix_space=False),
        "split-gpt4": hf_pre_tokenizer("gpt4"),
        "no-split": hf_pre_tokenizer("none"),
    }[kind]
    theirs = hf_trained(pre)
    theirs.save(str(tmp_path / "tokenizer.json"))
    ours = load_tokenizer(tmp_path / "tokenizer.json")
    assert ours.special_tokens == {EOT: 0, "<pad>": 1}  # HF numbers special tokens first
    assert (
        ours.pattern
        == {"bytelevel-regex": HF_BYTELEVEL_PATTERN, "split-gpt4": "gpt4", "no-split": "none"}[kind]
    )
    for text in TEXTS + ["<pad>x<pad>"]:
        assert ours.encode(text) == theirs.encode(text).ids, text[:60]
        assert ours.decode(theirs.encode(text).ids) == text

    # its vocab.json + merges.txt (HF's model.save) too, with the pattern passed
    (tmp_path / "model").mkdir()
    theirs.model.save(str(tmp_path / "model"))
    from_files = load_tokenizer(tmp_path / "model", pattern=ours.pattern)
    assert from_files.vocab == ours.vocab and from_files.merges == ours.merges
    assert from_files.special_tokens == ours.special_tokens  # found as tokens no merge makes
    assert from_files.encode(SAMPLE) == theirs.encode(SAMPLE).ids

    # and what we save from it stays HF-compatible and stable
    save_tokenizer(ours, tmp_path / "a")
    again = hf.Tokenizer.from_file(str(tmp_path / "a" / "tokenizer.json"))
    assert again.encode(SAMPLE).ids == theirs.encode(SAMPLE).ids
    save_tokenizer(load_tokenizer(tmp_path / "a"), tmp_path / "b")
    for p in (tmp_path / "a").iterdir():
        assert p.read_bytes() == (tmp_path / "b" / p.name).read_bytes(), p.name


def test_merges_txt_matches_hf_trainer_byte_for_byte(tmp_path: Path) -> None:
    # tie rule "hf" reproduces HF's trainer; the merges.txt files must then be identical
    ours = train(CORPUS, vocab_size=450, pattern="gpt4", tie_break="hf")
    save_tokenizer(ours, tmp_path / "ours")
    theirs = hf.Tokenizer(models.BPE())
    theirs.pre_tokenizer = hf_pre_tokenizer("gpt4")
    trainer = trainers.BpeTrainer(
        vocab_size=450, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    theirs.train_from_iterator([CORPUS], trainer)
    (tmp_path / "theirs").mkdir()
    theirs.model.save(str(tmp_path / "theirs"))
    assert (tmp_path / "ours" / "merges.txt").read_bytes() == (
        tmp_path / "theirs" / "merges.txt"
    ).read_bytes()
