"""Each stage alone against HF's own: every normalizer's text (``normalize_str``), every pre-tokenizer's
words and offsets (``pre_tokenize_str``), every decoder's text (``decode``) on the fidelity strings
(strings with characters HF's older Unicode tables see otherwise are left out, as in
:mod:`.test_hf_fidelity`)."""

from __future__ import annotations

from typing import Any

import pytest
from tokenizers import Regex
from tokenizers import decoders as hd
from tokenizers import normalizers as hn
from tokenizers import pre_tokenizers as hp

from bpe_core.pipeline import Aligned
from bpe_core.pipeline import decoders as od
from bpe_core.pipeline import normalizers as on
from bpe_core.pipeline import pre_tokenizers as op

from .support import nmt_nfkc_charsmap, strings, unicode_version_chars

ALL = strings()
NEWER = unicode_version_chars(ALL)
STRINGS = [s for s in ALL if not NEWER.intersection(s)]

NORMALIZERS: dict[str, tuple[Any, Any]] = {
    "NFC": (hn.NFC(), on.NFC()),
    "NFD": (hn.NFD(), on.NFD()),
    "NFKC": (hn.NFKC(), on.NFKC()),
    "NFKD": (hn.NFKD(), on.NFKD()),
    "Lowercase": (hn.Lowercase(), on.Lowercase()),
    "StripAccents": (hn.StripAccents(), on.StripAccents()),
    "Replace string": (hn.Replace(" ", "▁"), on.Replace(" ", "▁")),
    "Replace regex": (hn.Replace(Regex(r"\s+"), "_"), on.Replace(r"\s+", "_", is_regex=True)),
    "Prepend": (hn.Prepend("▁"), on.Prepend("▁")),
    "Strip": (hn.Strip(), on.Strip()),
    "Strip left": (hn.Strip(left=True, right=False), on.Strip(left=True, right=False)),
    "BertNormalizer uncased": (hn.BertNormalizer(), on.BertNormalizer()),
    "BertNormalizer cased": (hn.BertNormalizer(lowercase=False), on.BertNormalizer(lowercase=False)),
    "BertNormalizer no CJK": (
        hn.BertNormalizer(handle_chinese_chars=False, strip_accents=False),
        on.BertNormalizer(handle_chinese_chars=False, strip_accents=False),
    ),
    "Nmt": (hn.Nmt(), on.Nmt()),
    "Precompiled nmt_nfkc": (hn.Precompiled(nmt_nfkc_charsmap()), on.Precompiled(nmt_nfkc_charsmap())),
    "Sequence": (
        hn.Sequence([hn.NFD(), hn.StripAccents(), hn.Lowercase()]),
        on.Sequence((on.NFD(), on.StripAccents(), on.Lowercase())),
    ),
}


@pytest.mark.parametrize("name", sorted(NORMALIZERS))
def test_each_normalizer_gives_hfs_text(name: str) -> None:
    theirs, ours = NORMALIZERS[name]
    wrong = [s for s in STRINGS if ours.normalize(Aligned.of(s)).text != theirs.normalize_str(s)]
    assert wrong == []


PRE_TOKENIZERS: dict[str, tuple[Any, Any]] = {
    "BertPreTokenizer": (hp.BertPreTokenizer(), op.BertPreTokenizer()),
    "Whitespace": (hp.Whitespace(), op.Whitespace()),
    "WhitespaceSplit": (hp.WhitespaceSplit(), op.WhitespaceSplit()),
    "Metaspace always": (hp.Metaspace(), op.Metaspace()),
    "Metaspace first no split": (
        hp.Metaspace(prepend_scheme="first", split=False),
        op.Metaspace(prepend_scheme="first", split=False),
    ),
    "Metaspace never": (hp.Metaspace(prepend_scheme="never"), op.Metaspace(prepend_scheme="never")),
    "ByteLevel": (hp.ByteLevel(), op.ByteLevel()),
    "ByteLevel no regex": (
        hp.ByteLevel(add_prefix_space=False, use_regex=False),
        op.ByteLevel(add_prefix_space=False, use_regex=False),
    ),
    "Punctuation": (hp.Punctuation(), op.Punctuation()),
    "Punctuation contiguous": (hp.Punctuation("contiguous"), op.Punctuation("contiguous")),
    "Digits": (hp.Digits(), op.Digits()),
    "Digits individual": (hp.Digits(individual_digits=True), op.Digits(individual_digits=True)),
    "Split removed": (hp.Split(" ", "removed"), op.Split(" ", "removed")),
    "Split regex merged_with_next": (
        hp.Split(Regex(r"\s+"), "merged_with_next"),
        op.Split(r"\s+", "merged_with_next", is_regex=True),
    ),
    "Split regex inverted": (
        hp.Split(Regex(r"\w+"), "isolated", invert=True),
        op.Split(r"\w+", "isolated", invert=True, is_regex=True),
    ),
    "Sequence": (
        hp.Sequence([hp.WhitespaceSplit(), hp.Digits(individual_digits=True)]),
        op.Sequence((op.WhitespaceSplit(), op.Digits(individual_digits=True))),
    ),
}


@pytest.mark.parametrize("name", sorted(PRE_TOKENIZERS))
def test_each_pre_tokenizer_gives_hfs_words_and_offsets(name: str) -> None:
    theirs, ours = PRE_TOKENIZERS[name]
    wrong = []
    for s in STRINGS:
        words = ours.pre_tokenize([Aligned.of(s)])
        expected = theirs.pre_tokenize_str(s)
        mine = [(w.text, w.span(0, len(w))) for w in words]
        # HF's offsets are of the original text in characters here (pre_tokenize_str); a prefix it put in
        # front of the text stands for the first character, as ours does
        if [w for w, _ in mine] != [w for w, _ in expected] or [o for _, o in mine] != [
            tuple(o) for _, o in expected
        ]:
            wrong.append(s)
    assert wrong == []


PIECES = [
    ["▁Hello", "▁wor", "ld", "<0xE4>", "<0xBD>", "<0xA0>", "▁", "<0xFF>", "!"],
    ["hug", "##s", "and", "##s", "!", "don", "'", "t", ".", "[UNK]"],
    ["ĠHi", "Ġth", "ere", "Ã©", "Ġ", "ðŁĺ", "Ģ", "x"],
    ["", "▁", "▁▁a", " ", "  b  "],
]
DECODERS: dict[str, tuple[Any, Any]] = {
    "ByteLevel": (hd.ByteLevel(), od.ByteLevel()),
    "WordPiece": (hd.WordPiece(), od.WordPiece()),
    "WordPiece no cleanup": (hd.WordPiece(cleanup=False), od.WordPiece(cleanup=False)),
    "Metaspace": (hd.Metaspace(), od.Metaspace()),
    "Metaspace never": (hd.Metaspace(prepend_scheme="never"), od.Metaspace(prepend_scheme="never")),
    "ByteFallback": (hd.ByteFallback(), od.ByteFallback()),
    "Fuse": (hd.Fuse(), od.Fuse()),
    "Strip": (hd.Strip(" ", 1, 1), od.Strip(" ", 1, 1)),
    "Replace": (hd.Replace("▁", " "), od.Replace("▁", " ")),
    "Sequence (Llama-2)": (
        hd.Sequence([hd.Replace("▁", " "), hd.ByteFallback(), hd.Fuse(), hd.Strip(" ", 1, 0)]),
        od.Sequence((od.Replace("▁", " "), od.ByteFallback(), od.Fuse(), od.Strip(" ", 1, 0))),
    ),
}


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_each_decoder_gives_hfs_text(name: str) -> None:
    theirs, ours = DECODERS[name]
    lists = PIECES + [s.split(" ") for s in STRINGS if s.strip()]
    wrong = [p for p in lists if _hf_decodes(theirs, p) and ours.decode(p) != theirs.decode(p)]
    assert wrong == []


def _hf_decodes(decoder: Any, pieces: list[str]) -> bool:
    """Whether HF's decoder decodes ``pieces`` at all (its Strip panics on an empty piece, where ours
    gives the empty piece back)."""
    try:
        decoder.decode(pieces)
    except BaseException:
        return False
    return True
