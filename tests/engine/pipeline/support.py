"""What the pipeline tests share: tokenizers built with the real libraries (HF ``tokenizers``,
``sentencepiece``) the way today's models are, from the repo's corpora, and the strings to compare on."""

from __future__ import annotations

import io
from functools import cache
from typing import Any

from tests.engine.schemes.support import random_texts, real_text

HOSTILE = [
    "",
    " ",
    "  ",
    "。",
    "自然语言处理",
    "😀 emoji 👩\u200d👩\u200d👧 👍🏽",
    "e\u0301 café Ünïcode ÀÉÎÕÜ",
    "a" * 1000,
    "\ttabs\tand\nnew\nlines\r\n",
    "\x00\x07\x1b control \x7f\x85",
    "  double  spaces  ",
    "ﬁ Ａ ① ㌀ ½",
    "İstanbul ΣΑΣ ß",
    "[CLS] [SEP] <s> </s> <unk>",
    "▁ already ▁▁ metaspace",
    "<0xE6> is text",
    "don't won't I'm",
    "12345 3.14159 1,000",
    "\u200b\ufeff\u2028",
    "\U0010ffff\ue000",
]


def strings() -> list[str]:
    """Hundreds of strings: every corpus line, the hostile ones, and seeded random texts."""
    lines = [line for line in real_text().splitlines() if line.strip()]
    return lines + HOSTILE + random_texts(300, seed=41)


@cache
def nmt_nfkc_charsmap() -> bytes:
    """SentencePiece's ``nmt_nfkc`` rules as a ``precompiled_charsmap`` (T5's normalizer)."""
    return sentencepiece_model(
        "unigram", vocab_size=600, normalization_rule_name="nmt_nfkc", character_coverage=0.98
    )[1]


@cache
def sentencepiece_model(model_type: str, *, vocab_size: int, **options: Any) -> tuple[bytes, bytes]:
    """A SentencePiece ``.model`` trained on the corpora, and its charsmap."""
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2

    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(real_text().splitlines()),
        model_writer=model,
        model_type=model_type,
        vocab_size=vocab_size,
        hard_vocab_limit=False,
        minloglevel=2,
        **options,
    )
    proto = sentencepiece_model_pb2.ModelProto()  # type: ignore[attr-defined]
    proto.ParseFromString(model.getvalue())
    return model.getvalue(), bytes(proto.normalizer_spec.precompiled_charsmap)


def _train(tok: Any, trainer: Any) -> Any:
    tok.train_from_iterator(real_text().splitlines(), trainer)
    return tok


BYTE_PIECES = [f"<0x{b:02X}>" for b in range(256)]


def bert(*, lowercase: bool) -> Any:
    """BERT, uncased (lower case, accents stripped) or cased: BertNormalizer, BertPreTokenizer, WordPiece."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=lowercase)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    _train(tok, trainers.WordPieceTrainer(vocab_size=600, special_tokens=specials, show_progress=False))
    tok.post_processor = processors.BertProcessing(("[SEP]", 3), ("[CLS]", 2))
    return tok


def t5() -> Any:
    """T5: SentencePiece's nmt_nfkc as Precompiled, white space squeezed, Metaspace, Unigram, ``$A </s>``."""
    from tokenizers import (
        Regex,
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
        trainers,
    )

    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.Sequence(
        [normalizers.Precompiled(nmt_nfkc_charsmap()), normalizers.Replace(Regex(" {2,}"), " ")]
    )
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    trainer = trainers.UnigramTrainer(
        vocab_size=500, special_tokens=["<pad>", "</s>", "<unk>"], unk_token="<unk>", show_progress=False
    )
    _train(tok, trainer)
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    return tok


def unigram_byte_fallback() -> Any:
    """A Unigram model with byte fallback and Metaspace's ``first`` scheme."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    base = t5()
    vocab = base.get_vocab()
    pieces = sorted(vocab, key=vocab.__getitem__)
    scores = [(p, -1.0 - i / 100) for i, p in enumerate(pieces)] + [(b, -50.0) for b in BYTE_PIECES]
    tok = Tokenizer(models.Unigram(scores, unk_id=2, byte_fallback=True))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="first")
    tok.decoder = decoders.Sequence([decoders.Metaspace(prepend_scheme="first"), decoders.ByteFallback()])
    return tok


def llama2(*, legacy: bool) -> Any:
    """Llama-2: BPE over characters with byte fallback and fused unknowns; the old file (``legacy``):
    Prepend + Replace normalizers; the new one: Metaspace(first, no split); Replace/ByteFallback/Fuse/Strip
    decoders."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    if legacy:
        tok.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    else:
        tok.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="first", split=False)
    tok.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
    )
    trainer = trainers.BpeTrainer(
        vocab_size=900,
        special_tokens=["<unk>", "<s>", "</s>", *BYTE_PIECES],
        limit_alphabet=120,
        show_progress=False,
    )
    _train(tok, trainer)
    tok.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 1)])
    return tok


def roberta_nfc() -> Any:
    """Byte-level BPE behind an NFC normalizer (which the byte-level reader refuses), RoBERTa's frame."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=700, special_tokens=["<s>", "<pad>", "</s>"], show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )  # fmt: skip
    _train(tok, trainer)
    tok.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
    return tok


def components() -> Any:
    """The other stages in one file: NFKD, Lowercase, StripAccents, Nmt, Strip; Whitespace-free cuts by
    Split, Punctuation, Digits and WhitespaceSplit; a WordPiece model; an added token that is normalized."""
    from tokenizers import (
        AddedToken,
        Regex,
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        trainers,
    )

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=30))
    tok.normalizer = normalizers.Sequence(
        [
            normalizers.Nmt(),
            normalizers.NFKD(),
            normalizers.StripAccents(),
            normalizers.Lowercase(),
            normalizers.Strip(),
        ]
    )
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.WhitespaceSplit(),
            pre_tokenizers.Punctuation(behavior="merged_with_previous"),
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.Split(Regex("[aeiou]"), behavior="merged_with_next"),
            pre_tokenizers.Split("-", behavior="removed", invert=False),
        ]
    )
    tok.decoder = decoders.WordPiece(cleanup=False)
    _train(tok, trainers.WordPieceTrainer(vocab_size=400, special_tokens=["[UNK]"], show_progress=False))
    tok.add_tokens([AddedToken("Lighthouse", normalized=True), AddedToken("<end>", rstrip=True, lstrip=True)])
    tok.add_special_tokens([AddedToken("<sep>", single_word=True)])
    return tok


def whitespace_nfkc() -> Any:
    """Whitespace pre-tokenizer after NFKC; BPE with a continuing prefix and an end-of-word suffix."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token="[UNK]", continuing_subword_prefix="##", end_of_word_suffix="</w>"))
    tok.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()])
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.BpeTrainer(
        vocab_size=600, special_tokens=["[UNK]"], continuing_subword_prefix="##", end_of_word_suffix="</w>",
        show_progress=False,
    )  # fmt: skip
    return _train(tok, trainer)


BUILDERS = {
    "bert-uncased": lambda: bert(lowercase=True),
    "bert-cased": lambda: bert(lowercase=False),
    "t5": t5,
    "unigram-byte-fallback": unigram_byte_fallback,
    "llama2-legacy": lambda: llama2(legacy=True),
    "llama2": lambda: llama2(legacy=False),
    "roberta-nfc": roberta_nfc,
    "components": components,
    "whitespace-nfkc": whitespace_nfkc,
}
"""Each tokenizer the fidelity tests build, by name."""


def unicode_version_chars(texts: list[str]) -> set[str]:
    """The characters of ``texts`` that HF's stages treat otherwise than Python's Unicode tables, one
    character alone through each table-driven stage (HF's crates carry older Unicode: U+1ACB, a
    combining mark since Unicode 14, is a letter to HF's StripAccents).  Strings holding one are left out
    of the id comparisons, and counted."""
    from tokenizers import normalizers as hf

    from bpe_core.pipeline import Aligned
    from bpe_core.pipeline import normalizers as ours

    pairs = [
        (hf.BertNormalizer(), ours.BertNormalizer()),
        (hf.Sequence([hf.NFKD(), hf.StripAccents(), hf.Lowercase()]),
         ours.Sequence((ours.NFKD(), ours.StripAccents(), ours.Lowercase()))),
        (hf.NFKC(), ours.NFKC()),
        (hf.NFC(), ours.NFC()),
    ]  # fmt: skip
    from tokenizers import pre_tokenizers as hf_pre

    from bpe_core.pipeline import pre_tokenizers as ours_pre

    cuts = [
        (hf_pre.Whitespace(), ours_pre.Whitespace()),
        (hf_pre.BertPreTokenizer(), ours_pre.BertPreTokenizer()),
        (hf_pre.Punctuation(), ours_pre.Punctuation()),
        (hf_pre.Digits(), ours_pre.Digits()),
        (hf_pre.WhitespaceSplit(), ours_pre.WhitespaceSplit()),
    ]

    def differs(c: str) -> bool:
        if any(h.normalize_str(c) != o.normalize(Aligned.of(c)).text for h, o in pairs):
            return True
        text = f"a{c}0"
        theirs = [[w for w, _ in h.pre_tokenize_str(text)] for h, _ in cuts]
        mine = [[w.text for w in o.pre_tokenize([Aligned.of(text)])] for _, o in cuts]
        return theirs != mine

    return {c for c in {c for t in texts for c in t} if differs(c)}
