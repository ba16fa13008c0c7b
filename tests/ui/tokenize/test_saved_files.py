"""Saved files reload as the same tokenizer on the Tokenize page, and the download says what needs
encoding.json (issue #29)."""

from __future__ import annotations

import io
import json
import tempfile
import zipfile
from pathlib import Path

from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core import Tokenizer, train
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.tokenize import keys
from mergescope_ui.tokenize.file_bundle import README_TXT, tokenizer_bundle
from mergescope_ui.tokenize.tab_views import TAB_NAMES
from tests.engine.formats.support import CORPUS, EOT

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "pages" / "views" / "tokenize_page.py")
TEXT = "Größe 2024 it's   自然语言 " + EOT + " The quick brown fox"


def _tok(pattern: str) -> Tokenizer:
    return train(CORPUS, vocab_size=330, pattern=pattern, special_tokens=[EOT])


def _saved(tok: Tokenizer) -> dict[str, bytes]:
    with tempfile.TemporaryDirectory() as d:
        return {p.name: p.read_bytes() for p in bpe_core.save_tokenizer(tok, d)}


def _upload(names: list[str], files: dict[str, bytes]) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.TEXT] = TEXT
    at.session_state[keys.KIND] = "upload"
    at.run()
    at.file_uploader(key=keys.FILES).set_value(
        [(n, files[n], "application/octet-stream") for n in names]
    ).run()
    assert not at.exception
    return at


def _tokens(at: AppTest) -> int:
    """The main view's token count (sent with its tokens)."""
    (count,) = [
        json.loads(el.proto.json)["tokens"]
        for el in at.get("bidi_component")
        if el.proto.component_name == "mergescope_clickable_tokens"
    ]
    return int(count)


def test_an_upload_with_encoding_json_is_the_same_tokenizer() -> None:
    tok = _tok("gpt4")
    files = _saved(tok)
    for names in (["vocab.json", "merges.txt", "encoding.json"], ["tokenizer.tiktoken", "encoding.json"]):
        at = _upload(names, files)
        assert _tokens(at) == len(tok.encode(TEXT)), names
        assert not any("not recorded" in c.value for c in at.caption), names


def test_an_upload_without_it_says_what_was_assumed() -> None:
    tok = _tok("gpt4")
    files = _saved(tok)
    at = _upload(["vocab.json", "merges.txt"], files)
    notes = [c.value for c in at.caption if "not recorded" in c.value]
    assert len(notes) == 1 and md_escape("gpt2 is assumed") in notes[0] and "/tmp" not in notes[0], notes
    at = _upload(["tokenizer.tiktoken"], files)
    notes = [c.value for c in at.caption if "not recorded" in c.value]
    assert len(notes) == 2 and "special tokens" in notes[1], notes


def test_the_download_says_which_files_need_encoding_json() -> None:
    bundle = tokenizer_bundle(_tok("o200k"))
    assert len(bundle.notes) == 3 and bundle.notes[2].startswith("tokenizer.model (minbpe) left out")
    assert bundle.notes[0].startswith("vocab.json + merges.txt do not record the split pattern (o200k)")
    assert bundle.notes[1].startswith(
        "tokenizer.tiktoken records neither the split pattern (o200k) nor the 1 special token"
    )
    with zipfile.ZipFile(io.BytesIO(bundle.zip_bytes())) as z:
        readme = z.read(README_TXT).decode()
        assert "encoding.json" in z.namelist()
    assert all(f"Note: {n}" in readme for n in bundle.notes)
    plain = tokenizer_bundle(train("the cat in the hat", vocab_size=262, pattern="gpt2"))
    assert len(plain.notes) == 1 and plain.notes[0].startswith("tokenizer.tiktoken records neither")


def test_the_page_shows_the_download_notes() -> None:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.TEXT] = TEXT
    at.session_state[keys.TABS] = next(t for t in TAB_NAMES if "Files" in t)
    at.run()
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert any(md_escape("encoding.json beside") in c for c in captions), captions


def test_the_labs_reference_upload_says_what_was_assumed() -> None:
    from mergescope_ui.lab import keys as lab_keys
    from mergescope_ui.lab.compute import clear_caches

    files = _saved(train("a small reference tokenizer trained on other text " * 30, vocab_size=300))
    clear_caches()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("pages/views/vocab-lab.py").run()
    pair = [(n, files[n], "application/octet-stream") for n in ("vocab.json", "merges.txt")]
    at.file_uploader(key=lab_keys.REF_UPLOAD).set_value(pair).run()
    assert not at.exception
    said = [w.value for w in at.warning if "not recorded" in w.value]
    assert len(said) == 1 and md_escape("gpt2 is assumed") in said[0], [w.value for w in at.warning]
    with_config = [*pair, ("encoding.json", files["encoding.json"], "application/json")]
    at.file_uploader(key=lab_keys.REF_UPLOAD).set_value(with_config).run()
    assert not at.exception and not [w.value for w in at.warning if "not recorded" in w.value]
