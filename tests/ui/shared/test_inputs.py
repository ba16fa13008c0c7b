"""Corpora, uploads, settings and labels: the inputs the pages share."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

from bpe_core import TrainOptions
from bpe_core.byte_level import readable as label
from mergescope_ui.shared.inputs.corpora import CORPORA_DIR, find_corpus, load_index, load_text
from mergescope_ui.shared.inputs.upload import MEGABYTE, decode_upload
from mergescope_ui.shared.settings import changes, parse_special_tokens


def test_every_corpus_is_small_utf8_with_a_one_line_description() -> None:
    corpora = load_index()
    assert len(corpora) >= 8
    for corpus in corpora:
        raw = corpus.file.read_bytes()
        raw.decode("utf-8")  # raises if not UTF-8
        assert 0 < len(raw) < 20_000, corpus.id
        assert "\n" not in corpus.description and corpus.description.strip()
        assert load_text(corpus) == raw.decode("utf-8")


def test_the_lesson_corpora_hold_what_their_descriptions_promise() -> None:
    assert load_text(find_corpus("aaabdaaabac")) == "aaabdaaabac"
    assert load_text(find_corpus("cat_in_the_hat")) == "the cat in the hat"
    zh = load_text(find_corpus("machine_learning_zh"))
    assert zh.count("机器") >= 10 and zh.count("学习") >= 10
    mixed = load_text(find_corpus("mixed_scripts"))
    assert "\u200d" in mixed and "\t" in mixed and "\u00a0" in mixed
    story = load_text(find_corpus("lighthouse_story"))
    assert 2_000 < len(story.encode()) < 10_000
    compile(load_text(find_corpus("word_counter_py")), "word_counter.py", "exec")


def test_bad_index_files_are_named_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="missing"):
        load_index(tmp_path)
    (tmp_path / "index.toml").write_text(
        '[[corpus]]\nid = "x"\nfile = "x.txt"\ntitle = "X"\n', encoding="utf-8"
    )
    with pytest.raises(ValueError, match="lacks description"):
        load_index(tmp_path)
    (tmp_path / "index.toml").write_text(
        '[[corpus]]\nid = "x"\nfile = "nope.txt"\ntitle = "X"\ndescription = "d"\n', encoding="utf-8"
    )
    with pytest.raises(ValueError, match="does not exist"):
        load_index(tmp_path)
    with pytest.raises(ValueError, match="choose one of"):
        find_corpus("no-such-corpus")


@pytest.mark.parametrize(
    ("raw", "byte", "offset"),
    [(b"caf\xe9", "0xE9", 3), (b"ok \xff\xfe", "0xFF", 3), ("机器".encode()[:4], "0xE5", 3)],
)
def test_invalid_utf8_names_the_byte_and_offset(raw: bytes, byte: str, offset: int) -> None:
    with pytest.raises(ValueError) as info:
        decode_upload(raw)
    message = str(info.value)
    assert f"byte {byte} at offset {offset}" in message
    assert "decode anyway" in message


def test_lossy_decoding_counts_only_what_it_replaced() -> None:
    raw = "already � here ".encode() + b"\xff\xfe bad " + b"\xc3"
    decoded = decode_upload(raw, lossy=True)
    assert decoded.lossy and decoded.replaced == decoded.text.count("\ufffd") - 1
    assert decode_upload(b"fine", lossy=True).replaced == 0


def test_bom_dropped_and_size_cap_explained() -> None:
    assert decode_upload(b"\xef\xbb\xbfhi").text == "hi"
    with pytest.raises(ValueError, match=r"2,000,000 bytes, over the 1 MB limit \(1,000,000 bytes\)"):
        decode_upload(b"a" * (2 * MEGABYTE), max_bytes=MEGABYTE)


def test_settings_vocab_size_changes_and_special_tokens() -> None:
    base = TrainOptions(vocab_size=306)
    assert base.max_merges == 50
    with_specials = TrainOptions(vocab_size=308, special_tokens=parse_special_tokens("<a>\n\n  <b>  \n"))
    assert with_specials.special_tokens == ("<a>", "<b>") and with_specials.max_merges == 50
    assert changes(base, base) == []
    assert changes(base, base.replace(vocab_size=316)) == ["merges 50 → 60"]
    assert changes(base, base.replace(tie_break="hf", min_frequency=2)) == [
        "tie rule lexicographic → hf",
        "minimum frequency 1 → 2",
    ]
    with pytest.raises(ValueError, match="listed twice"):
        parse_special_tokens("<a>\n<a>")


@pytest.mark.parametrize(
    ("token", "shown"), [(b" a", "\N{OPEN BOX}a"), (b"\r\n", "↤↵"), (b"\t", "⇥"), ("学".encode()[:1], "<E5>")]
)
def test_screen_labels_avoid_glyphs_fonts_lack(token: bytes, shown: str) -> None:
    assert label(token) == shown
    assert "\N{SYMBOL FOR SPACE}" not in label(token)


MY_MODULES = [
    "shared.inputs.corpora",
    "shared.html.tables",
    "shared.settings",
    "shared.training_run",
    "shared.html.tokens",
    "shared.inputs.upload",
]


@pytest.mark.parametrize("name", MY_MODULES)
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(f"mergescope_ui.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert CORPORA_DIR.is_dir()


def test_legacy_encodings_get_a_hint() -> None:
    with pytest.raises(ValueError, match=r"Windows-1252 / Latin-1"):
        decode_upload("crème brûlée".encode("cp1252"))
    with pytest.raises(ValueError, match=r"UTF-16"):
        decode_upload("hello".encode("utf-16"))
    with pytest.raises(ValueError) as info:
        decode_upload(b"\x81\x8d")  # undefined in cp1252: no guess
    assert "reads as" not in str(info.value)
