"""The upload cap in a real browser (issue #29): one number, and a refusal a person reads.

Streamlit 1.67's uploader counts an MB as 10**6 bytes in the browser (on Linux and macOS), so the cap is
10 MB = 10,000,000 bytes on every page: a file of exactly that size goes through, one byte more is
refused, and the reason the browser gives ("File must be 10.0MB or smaller.") is shown as text under
the file, not only as an icon on its chip with the reason kept for screen readers.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mergescope_ui.shared.inputs.upload import DEFAULT_MAX_BYTES
from tests.browser.support import chromium_page, open_app, streamlit_server

PAGES = [  # (path and query, heading, name of the file to upload)
    ("train?corpus=__upload__", "Train: watch BPE learn", "big.txt"),
    ("vocab-lab", "Vocab-size lab", "big.txt"),
    ("tokenize", "Tokenize", "merges.txt"),
]
CHIP = '[data-testid="stFileChip"]'


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


@contextmanager
def _page() -> Iterator[Any]:
    with chromium_page(width=1400, height=1000) as page:
        yield page


def _file(folder: Path, name: str, size: int) -> Path:
    path = folder / name
    line = b"the cat sat on the mat\n"
    path.write_bytes((line * (size // len(line) + 1))[:size])
    return path


def _upload(page: Any, path: Path) -> None:
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(path))
    page.locator(CHIP).first.wait_for(timeout=30_000)


def test_the_cap_is_one_number() -> None:
    assert DEFAULT_MAX_BYTES == 10_000_000
    config = (Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text(encoding="utf-8")
    assert "maxUploadSize = 10\n" in config


@pytest.mark.parametrize("where, heading, name", PAGES, ids=[p[0].split("?")[0] for p in PAGES])
def test_one_byte_over_the_cap_is_refused_in_words(
    server: str, tmp_path: Path, where: str, heading: str, name: str
) -> None:
    with _page() as page:
        open_app(page, f"{server}/{where}", heading=heading)
        if where == "tokenize":
            page.get_by_text("Load tokenizer files").first.click()
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.wait_for(state="attached")
        _upload(page, _file(tmp_path, name, DEFAULT_MAX_BYTES + 1))
        chip = page.locator(CHIP).first
        assert chip.get_attribute("aria-invalid") == "true"
        reason = chip.locator('[role="alert"]')
        assert reason.inner_text().strip() == "Error: File must be 10.0MB or smaller."
        box = reason.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] >= 12, box  # shown, not clipped
        assert reason.is_visible()
        page.screenshot(path=str(tmp_path / "refused.png"))


def test_a_file_of_exactly_the_cap_goes_through(server: str, tmp_path: Path) -> None:
    with _page() as page:
        open_app(page, f"{server}/tokenize", heading="Tokenize")
        page.get_by_text("Load tokenizer files").first.click()
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.wait_for(state="attached")
        _upload(page, _file(tmp_path, "merges.txt", DEFAULT_MAX_BYTES))
        assert page.locator(CHIP).first.get_attribute("aria-invalid") != "true"
        # the server got it: the loader answers (the text holds neither a vocabulary nor merges)
        page.get_by_text("holds neither BERT").first.wait_for(timeout=60_000)
