"""The playground in a real browser (Debian chromium through playwright).

Pastes a text with ``<script>``, emoji and CJK, then checks that the token
spans and counts render, that spans carry a hover tooltip, that no script
from the text ran and that the page logged no JavaScript error.  Screenshots
go to ``artifacts/`` (git-ignored).  Skips, saying why, without chromium or
playwright.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from mergescope_ui.shared.corpora import load_index

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TEXT = 'Hi <script>window.__pwned=1</script> & "q" 👨‍👩‍👧 机器学习 café'

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install -r requirements-dev.txt)"
)
if not Path(CHROMIUM).exists():
    pytest.skip(
        f"chromium not found at {CHROMIUM} (apt-get install chromium; .ci/run does)", allow_module_level=True
    )


def cid(word: str) -> str:
    """The id of the built-in corpus whose id contains ``word``."""
    return next(c.id for c in load_index() if word in c.id)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--browser.gatherUsageStats",
            "false",
            "--server.fileWatcherType",
            "none",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://localhost:{port}"
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.3)
        else:
            pytest.fail(
                f"streamlit did not start: {proc.stderr.read(2000) if proc.poll() is not None else 'timeout'}"
            )
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture()
def page():
    with tempfile.TemporaryDirectory() as profile, sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            args=ARGS,
            viewport={"width": 1400, "height": 900},
        )
        pg = context.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        # "Failed to load resource" console lines are the HTTP errors, checked (with their URL) below.
        pg.on(
            "console",
            lambda m: (
                errors.append(m.text)
                if m.type == "error" and "Failed to load resource" not in m.text
                else None
            ),
        )
        pg.on(
            "response",
            lambda r: (
                errors.append(f"HTTP {r.status} {r.url}")
                if r.status >= 400 and not _base_probe(r.url)
                else None
            ),
        )
        pg.errors = errors  # type: ignore[attr-defined]
        yield pg
        context.close()


def _base_probe(url: str) -> bool:
    """Streamlit's frontend, opened at /page, first probes /page/_stcore/{health,host-config} (404) to find its base path."""
    path = url.split("://", 1)[-1].split("/", 1)[-1].split("?")[0]
    return path.count("/") >= 2 and path.endswith(("/_stcore/health", "/_stcore/host-config"))


def _settle(pg, *, text: str | None = None) -> None:
    pg.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=60_000)
    pg.wait_for_selector('[data-testid="stSkeleton"]', state="detached", timeout=60_000)
    if text:
        pg.get_by_text(text).first.wait_for(timeout=60_000)


def _screenshot(pg, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    height = pg.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    pg.set_viewport_size({"width": 1400, "height": min(max(900, int(height) + 50), 6000)})
    path = ARTIFACTS / name
    pg.screenshot(path=str(path), full_page=True)
    return path


def test_paste_tokens_counts_tooltip_no_js_errors(server, page):
    page.goto(f"{server}/tokenize?tok=quick:{cid('lighthouse')}:400:gpt2")
    _settle(page, text="Tokenize: paste text")
    box = page.get_by_role("textbox", name="Text to tokenize")
    box.fill(TEXT)
    box.press("Control+Enter")
    page.wait_for_function(
        "t => [...document.querySelectorAll('.ms-tokens .ms-t')].map(s => s.textContent).join('').includes(t)",
        arg="script",
        timeout=60_000,
    )
    _settle(page)
    spans = page.locator(".ms-tokens .ms-t")
    assert spans.count() > 10
    # the text's <script> is shown as text inside spans, never run
    joined = "".join(spans.all_text_contents())
    assert "<script>" in joined.replace("␣", " ")
    assert page.evaluate("() => window.__pwned") is None
    # tooltip on hover: a title with the id and the bytes
    first = spans.first
    title = first.get_attribute("title")
    assert title and title.startswith("id ") and "byte" in title
    first.hover()
    # counts: characters and bytes as the text really has them
    metrics = page.locator('[data-testid="stMetric"]').all_text_contents()
    assert any(f"{len(TEXT):,}" in m and "Characters" in m for m in metrics), metrics
    assert any(f"{len(TEXT.encode()):,}" in m and "Bytes" in m for m in metrics), metrics
    _screenshot(page, "playground.png")
    page.get_by_role("tab", name="🧬 Byte ribbon").click()
    page.locator(".ms-ribbon .ms-split").first.wait_for(timeout=30_000)
    _screenshot(page, "playground_ribbon.png")
    assert not page.errors, page.errors


def test_compare_and_details_render(server, page):
    page.goto(
        f"{server}/tokenize?t=%E6%9C%BA%E5%99%A8%E5%AD%A6%E4%B9%A0+the+lighthouse"
        f"&tok=quick:{cid('machine')}:600:gpt2&cmp=quick:{cid('machine')}:600:gpt2,bytes:gpt2,char:{cid('lighthouse')}"
    )
    _settle(page, text="Tokenize: paste text")
    page.get_by_role("tab", name="⚖️ Compare").click()
    page.get_by_text("characters of").first.wait_for(timeout=30_000)
    _screenshot(page, "playground_compare.png")
    page.get_by_role("tab", name="🔎 Token details").click()
    page.locator(".ms-tree").first.wait_for(timeout=30_000)
    _screenshot(page, "playground_details.png")
    assert not page.errors, page.errors


def test_presenter_mode_example_button(server, page):
    page.goto(f"{server}/tokenize?presenter=true")
    _settle(page, text="Tokenize: paste text")
    page.get_by_role("button", name="Emoji & ZWJ").click()
    page.wait_for_function(
        "() => document.querySelector('textarea').value.startsWith('Family')", timeout=30_000
    )
    _settle(page)
    page.locator(".ms-tokens .ms-t").first.wait_for(timeout=30_000)
    size = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.ms-tokens')).fontSize)")
    assert size >= 28, f"token font {size}px is small for a projector"
    _screenshot(page, "playground_presenter.png")
    page.get_by_role("tab", name="🧬 Byte ribbon").click()
    page.locator(".ms-ribbon").first.wait_for(timeout=30_000)
    _screenshot(page, "playground_presenter_ribbon.png")
    assert not page.errors, page.errors
