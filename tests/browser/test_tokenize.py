"""The Tokenize page in a real browser (Debian chromium through playwright).

Typing updates the count without Ctrl+Enter (and loses no keystroke), a click on a token opens its
details, a fake tiktoken cache (the project's own files under tiktoken's names) is listed and used
(fetching one: ``test_tokenize_fetch.py``), a text over 100 KB waits for Ctrl+Enter and says so, the
presenter-mode tab row shows every label whole, and no script from the text runs.  Expected numbers
come from the engine.  Screenshots go to ``artifacts/`` (git-ignored).  Skips, saying why, without
chromium or playwright.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from urllib.parse import quote_plus

import pytest

from bpe_core import Tokenizer, train
from bpe_core.byte_level import readable as screen_label
from mergescope_ui.shared.inputs.corpora import find_corpus, load_index, load_text
from mergescope_ui.tokenize.tab_views import TAB_NAMES
from tests.browser.layout import STICKING_OUT
from tests.browser.support import (
    PASTE,
    chromium_page,
    full_screenshot,
    streamlit_server,
    wait_idle,
)
from tests.ui.tokenize.fake_caches import build_fake_caches, no_caches
from tests.ui.tokenize.fake_caches import trained as cached_tokenizer

TEXT = 'Hi <script>window.__pwned=1</script> & "q" 👨‍👩‍👧 机器学习 café'
SPANS = ".ms-click-host .ms-t"


def cid(word: str) -> str:
    """The id of the built-in corpus whose id contains ``word``."""
    return next(c.id for c in load_index() if word in c.id)


def quick(word: str, vocab: int) -> Tokenizer:
    return train(load_text(find_corpus(cid(word))), vocab_size=vocab, pattern="gpt2")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(env=no_caches(tmp_path_factory.mktemp("no-caches"))) as url:
        yield url


@pytest.fixture(scope="module")
def cached_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that finds the fake tiktoken and Hugging Face caches."""
    with streamlit_server(env=build_fake_caches(tmp_path_factory.mktemp("caches"))) as url:
        yield url


def _errors(pg) -> list[str]:
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    # "Failed to load resource" console lines are the HTTP errors, checked (with their URL) below.
    pg.on(
        "console",
        lambda m: (
            errors.append(m.text) if m.type == "error" and "Failed to load resource" not in m.text else None
        ),
    )
    pg.on(
        "response",
        lambda r: (
            errors.append(f"HTTP {r.status} {r.url}") if r.status >= 400 and not _base_probe(r.url) else None
        ),
    )
    return errors


@pytest.fixture()
def page():
    with chromium_page(width=1400, height=900) as pg:
        pg.errors = _errors(pg)  # type: ignore[attr-defined]
        yield pg


def _base_probe(url: str) -> bool:
    """Streamlit's frontend, opened at /page, first probes /page/_stcore/{health,host-config} (404)
    to find its base path."""
    path = url.split("://", 1)[-1].split("/", 1)[-1].split("?")[0]
    return path.count("/") >= 2 and path.endswith(("/_stcore/health", "/_stcore/host-config"))


def _open(pg, url: str) -> None:
    pg.goto(url)
    pg.get_by_text("Tokenize: paste text").first.wait_for(timeout=60_000)
    wait_idle(pg, timeout=60_000)
    pg.locator(SPANS).first.wait_for(timeout=60_000)


def _tokens(pg) -> str:
    """The Tokens figure of the main view."""
    return pg.locator(".ms-click-host .ms-counts [data-count='tokens']").inner_text().strip()


def _wait_tokens(pg, want: int, *, timeout: float) -> float:
    """Seconds until the Tokens figure reads ``want`` (fails after ``timeout`` seconds)."""
    start = time.monotonic()
    while _tokens(pg) != f"{want:,}":
        if time.monotonic() - start > timeout:
            raise AssertionError(f"Tokens still {_tokens(pg)!r}, not {want:,}, after {timeout} s")
        pg.wait_for_timeout(20)
    return time.monotonic() - start


def test_typing_updates_the_count_within_a_second_without_ctrl_enter(server, page):
    _open(page, f"{server}/tokenize?tok=quick:{cid('lighthouse')}:400:gpt2&t=The+keeper")
    tok = quick("lighthouse", 400)
    box = page.get_by_role("textbox", name="Text to tokenize")
    box.click()
    page.keyboard.press("End")
    added = " lit the lamp at dusk, and the ships came home"
    box.press_sequentially(added, delay=25)  # no Ctrl+Enter, no click elsewhere
    # The spans and the counts follow each key in the browser (issue 23).
    want = len(tok.encode("The keeper" + added))
    start = time.monotonic()
    page.wait_for_function(f"document.querySelectorAll('{SPANS}').length === {want}", timeout=1_000)
    seconds = time.monotonic() - start
    _wait_tokens(page, want, timeout=5.0)
    assert box.input_value() == "The keeper" + added
    # keep typing across several updates (each pause longer than the debounce): nothing typed is lost
    more = " 机器学习 and 👋🏽 emoji"
    for part in more.split(" ")[1:]:
        box.press_sequentially(" " + part, delay=20)
        page.wait_for_timeout(380)  # an update starts while the next part is typed
    final = "The keeper" + added + more
    _wait_tokens(page, len(tok.encode(final)), timeout=5.0)
    wait_idle(page)
    assert box.input_value() == final
    # a short text typed with no paste cut: the box never turns to "press Ctrl+Enter" (orange border)
    assert page.locator(".ms-box.ms-box-manual").count() == 0
    texts = [t.replace("␣", " ") for t in page.locator(SPANS).all_text_contents()]
    assert texts == [screen_label(tok.vocab[i]).replace("␣", " ") for i in tok.encode(final)]
    print(f"spans updated {seconds:.2f} s after the last key")
    full_screenshot(page, "tokenize_typed")
    assert not page.errors, page.errors


def test_pasted_html_is_shown_as_tokens_never_run(server, page):
    _open(page, f"{server}/tokenize?tok=quick:{cid('lighthouse')}:400:gpt2")
    box = page.get_by_role("textbox", name="Text to tokenize")
    box.fill(TEXT)  # a paste
    _wait_tokens(page, len(quick("lighthouse", 400).encode(TEXT)), timeout=5.0)
    spans = page.locator(SPANS)
    joined = "".join(spans.all_text_contents())
    assert "<script>" in joined.replace("␣", " ")
    assert page.evaluate("() => window.__pwned") is None
    title = spans.first.get_attribute("title")
    assert title and title.startswith("id ") and "byte" in title
    counts = page.locator(".ms-click-host .ms-counts > div").all_text_contents()
    assert any(f"{len(TEXT):,}" in m and "Characters" in m for m in counts), counts
    assert any(f"{len(TEXT.encode()):,}" in m and "Bytes" in m for m in counts), counts
    full_screenshot(page, "tokenize")
    page.get_by_role("tab", name="🧬 Byte ribbon").click()
    page.locator(".ms-ribbon .ms-split").first.wait_for(timeout=30_000)
    full_screenshot(page, "tokenize_ribbon")
    assert not page.errors, page.errors


def test_clicking_a_token_opens_its_details(server, page):
    text = "the lighthouse keeper climbed the stairs"
    _open(page, f"{server}/tokenize?tok=quick:{cid('lighthouse')}:500:gpt2&t={text.replace(' ', '+')}")
    tok = quick("lighthouse", 500)
    ids = tok.encode(text)
    position = max(range(len(ids)), key=lambda i: (tok.merge_step_of(ids[i]) or 0, -i))  # a late merge
    page.locator(f'{SPANS}[data-i="{position}"]').click()
    step, token = tok.merge_step_of(ids[position]), tok.vocab[ids[position]]
    page.get_by_text(f"id {ids[position]} · {len(token)} bytes · made by merge {step}").wait_for(
        timeout=10_000
    )
    wait_idle(page)
    assert page.get_by_role("tab", name="🔎 Details").get_attribute("aria-selected") == "true"
    assert "ms-picked" in (page.locator(f'{SPANS}[data-i="{position}"]').get_attribute("class") or "")
    tree = page.locator(".ms-tree").first
    leaves = tree.locator('.ms-step:text-is("byte")').count()
    assert leaves == len(token)  # the genealogy goes down to its bytes
    assert token.hex(" ").upper() in (tree.locator(".ms-t").first.get_attribute("title") or "")
    full_screenshot(page, "tokenize_clicked_details")
    # from the keyboard: the arrow key moves to the next token, Enter picks it
    page.locator(f'{SPANS}[data-i="{position}"]').focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.locator(f'{SPANS}.ms-picked[data-i="{position - 1}"]').wait_for(timeout=10_000)
    assert not page.errors, page.errors


def test_a_text_over_100_kb_waits_for_ctrl_enter_and_says_so(server, page):
    _open(page, f"{server}/tokenize?tok=bytes:gpt2")
    big = "abc " * 30_000  # 120 KB
    box = page.get_by_role("textbox", name="Text to tokenize")
    before = _tokens(page)
    box.fill(big)
    page.get_by_text("the tokens update when you press Ctrl+Enter").wait_for(timeout=5_000)
    page.wait_for_timeout(1_000)
    assert _tokens(page) == before  # not sent while over the limit
    box.press("Control+Enter")
    _wait_tokens(page, len(big.encode()), timeout=20.0)
    assert not page.errors, page.errors


def test_a_fake_tiktoken_cache_is_listed_and_tokenizes_hello_world(cached_server, page):
    _open(page, f"{cached_server}/tokenize")
    page.get_by_text("OpenAI and Hugging Face").click()
    wait_idle(page)
    page.get_by_role("combobox", name="Tokenizer").click()
    listed = page.get_by_role("option").all_inner_texts()
    assert "cl100k_base (tiktoken cache)" in listed and "mergescope/lighthouse (Hugging Face cache)" in listed
    page.get_by_role("option", name="cl100k_base (tiktoken cache)").click()
    wait_idle(page)
    box = page.get_by_role("textbox", name="Text to tokenize")
    box.fill("Hello world")
    want = cached_tokenizer().encode("Hello world")
    _wait_tokens(page, len(want), timeout=10.0)
    wait_idle(page)
    titles = [page.locator(SPANS).nth(i).get_attribute("title") for i in range(len(want))]
    assert [t.split(" ·")[0] for t in titles] == [f"id {i}" for i in want]
    page.get_by_text("cl100k_base (tiktoken cache)").first.wait_for()
    full_screenshot(page, "tokenize_tiktoken_cache")
    assert not page.errors, page.errors


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1920, 1080)])
def test_presenter_mode_tab_row_shows_every_label_whole(server, width: int, height: int):
    with chromium_page(width=width, height=height) as pg:
        errors = _errors(pg)
        _open(pg, f"{server}/tokenize?presenter=true")
        assert pg.locator(SPANS).first.is_visible()
        top = pg.locator(SPANS).first.bounding_box()
        assert top is not None and top["y"] < height, "on a projector the tokens start on the first screen"
        pg.get_by_text("🔧 Tokenizer and examples").click()  # the examples and the picker fold away
        pg.get_by_role("button", name="Emoji & ZWJ").click()
        pg.wait_for_function(
            "() => document.querySelector('.ms-box-area').value.startsWith('Family')", timeout=30_000
        )
        wait_idle(pg)
        size = pg.evaluate(
            "() => parseFloat(getComputedStyle(document.querySelector('.ms-tokens')).fontSize)"
        )
        assert size >= 28, f"token font {size}px is small for a projector"
        boxes = pg.evaluate(
            """() => {
              const list = document.querySelector('.st-key-tokenize_tabs [role="tablist"]');
              const l = list.getBoundingClientRect();
              return {list: [l.left, l.right, list.scrollWidth, list.clientWidth],
                      tabs: [...list.querySelectorAll('[role="tab"]')].map(b => {
                        const r = b.getBoundingClientRect();
                        return [b.innerText, r.left, r.right, b.scrollWidth, b.clientWidth]; })};
            }"""
        )
        left, right, scroll_width, client_width = boxes["list"]
        assert scroll_width <= client_width + 1, "the tab row scrolls: some tabs are out of sight"
        assert len(boxes["tabs"]) == len(TAB_NAMES)
        for label, tab_left, tab_right, tab_scroll, tab_client in boxes["tabs"]:
            assert left - 1 <= tab_left and tab_right <= right + 1, f"tab {label!r} sticks out of the row"
            assert tab_scroll <= tab_client + 1, f"tab {label!r} is cut"
        full_screenshot(pg, f"tokenize_presenter_{width}")
        pg.get_by_role("tab", name="🧬 Byte ribbon").click()
        pg.locator(".ms-ribbon").first.wait_for(timeout=30_000)
        full_screenshot(pg, f"tokenize_presenter_ribbon_{width}")
        assert not errors, errors


def test_no_local_tokenizers_offers_to_fetch_one(server, page):
    _open(page, f"{server}/tokenize")
    page.get_by_text("OpenAI and Hugging Face").click()
    page.get_by_text("o200k_base is not on this machine yet").wait_for(timeout=10_000)
    assert page.get_by_role("button", name="Fetch o200k_base").count() == 1  # not clicked: no network here
    assert not page.errors, page.errors


def _settled(pg) -> list[str]:
    """What sticks out of the page, once the tab row's sliding underline has come to rest."""
    wait_idle(pg)
    pg.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    return pg.evaluate(STICKING_OUT)


def test_a_long_cjk_token_stays_on_a_projector_screen(server):
    """A 14-character Chinese token (42 bytes) at 1280x720 in presenter mode: its details, the byte
    ribbon and the Compare tab keep everything inside the page, and the bars are readable."""
    text = "机器学习是人工智能的一个分支 👨‍👩‍👧 the keeper"
    tok = train(load_text(find_corpus("machine_learning_zh")), vocab_size=1200, pattern="gpt2")
    ids = tok.encode(text)
    position = max(range(len(ids)), key=lambda i: len(tok.vocab[ids[i]]))
    assert len(tok.vocab[ids[position]]) > 24, "the test needs a token longer than a ribbon line"
    with chromium_page(width=1280, height=720) as pg:
        errors = _errors(pg)
        _open(
            pg,
            f"{server}/tokenize?presenter=true&tok=quick:machine_learning_zh:1200:gpt2&t={quote_plus(text)}",
        )
        pg.locator(f'{SPANS}[data-i="{position}"]').click()
        pg.get_by_text(f"id {ids[position]} · {len(tok.vocab[ids[position]])} bytes").wait_for(timeout=10_000)
        assert _settled(pg) == []
        tree = pg.locator(".ms-tree").first
        assert tree.locator('.ms-step:text-is("byte")').count() == len(tok.vocab[ids[position]])  # all there
        height = tree.bounding_box()["height"]
        assert height < 2 * 720, f"the genealogy takes {height:.0f} px: its deep merges should fold"
        fold = tree.locator("details.ms-fold").first
        fold.locator("summary").first.click()
        assert fold.get_attribute("open") is not None
        full_screenshot(pg, "tokenize_long_token_details_1280")
        pg.get_by_role("tab", name="🧬 Byte ribbon").click()
        pg.locator(".ms-ribbon .ms-cont-r").first.wait_for(timeout=30_000)
        assert _settled(pg) == []
        full_screenshot(pg, "tokenize_long_token_ribbon_1280")
        pg.get_by_role("tab", name="⚖️ Compare").click()
        chart = pg.locator('[data-testid="stVegaLiteChart"]').first
        chart.wait_for(timeout=30_000)
        wait_idle(pg)
        bars = [b.bounding_box() for b in chart.locator('[aria-roledescription="bar"]').all()]
        assert len(bars) == 2 and all(b is not None and b["height"] >= 24 for b in bars), f"squeezed: {bars}"
        full_screenshot(pg, "tokenize_long_token_compare_1280")
        assert not errors, errors


def test_a_million_character_paste_is_cut_at_once_and_the_box_says_so(server, page):
    """Chromium takes about 90 s to insert a million pasted characters; the box takes 100,000, at once."""
    _open(page, f"{server}/tokenize?tok=bytes:gpt2")
    box = page.get_by_role("textbox", name="Text to tokenize")
    box.fill("")
    started = time.perf_counter()
    box.evaluate(PASTE, "ab " * 333_333 + "😀")
    page.get_by_text("Your paste was cut at 100,000 characters", exact=False).wait_for(timeout=10_000)
    assert time.perf_counter() - started < 10
    assert box.evaluate("b => b.value.length") == 100_000
    _wait_tokens(page, 100_000, timeout=20.0)
    assert not page.errors, page.errors
