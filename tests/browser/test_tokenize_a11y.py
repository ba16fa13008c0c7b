"""The Tokenize page for keyboards, screen readers and phones (issue 27), in a real browser.

- The token view is a list in Chromium's accessibility tree, each token an item named by its text,
  id and byte count (read from the aria snapshot, not from the DOM's tooltips).
- Picking a token with the keyboard keeps the focus on it while its details open (and when the next
  one is picked); the byte ribbon takes the focus; Tab reaches the text box, the tokens and the tabs.
- At 390x844 the tokens start within the first screen and nothing scrolls sideways (screenshots in
  ``artifacts/tokenize_phone*.png``).
- The note over 100 KB gives two different sizes; a ``\\r`` from a link survives typing.

Expected ids come from the engine.  Skips, saying why, without chromium or playwright.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from bpe_core import Tokenizer, train
from mergescope_ui.shared.inputs.corpora import find_corpus, load_index, load_text
from mergescope_ui.tokenize.clickable_tokens import token_name
from mergescope_ui.tokenize.live_text import EXAMPLES
from tests.browser import tokenize_page
from tests.browser.layout import STICKING_OUT
from tests.browser.support import (
    ARTIFACTS,
    chromium_page,
    full_screenshot,
    wait_idle,
)
from tests.browser.tokenize_page import open_tokens

HOST = ".ms-click-host"
server = tokenize_page.server  # the module's server, its caches empty
SPANS = f"{HOST} .ms-t"
IDS = """() => Array.from(document.querySelectorAll(".ms-click-host .ms-t"),
    (s) => Number(s.title.split(" ")[1]))"""
# An element's boxes (an inline one cut by line ends has one per line) and its text's lines.
LINES = """(e) => {
  const range = document.createRange();
  range.selectNodeContents(e);
  return [e.getClientRects().length, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
}"""
# What has the focus: a token's position, the ribbon, or the element's tag and class.
FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return "body";
  if (e.matches(".ms-click-host .ms-t[data-i]")) return "token " + e.dataset.i;
  return e.tagName.toLowerCase() + "." + String(e.className).split(" ")[0];
}"""


def quick_tokenizer() -> Tokenizer:
    """The page's default tokenizer: quick-trained on the lighthouse corpus, 500 tokens, GPT-2 split."""
    corpus = next(c.id for c in load_index() if "lighthouse" in c.id)
    return train(load_text(find_corpus(corpus)), vocab_size=500, pattern="gpt2")


def _items(pg) -> list[str]:
    """The names of the token list's items, from Chromium's accessibility tree (the aria snapshot)."""
    snapshot = pg.locator(HOST).aria_snapshot()
    assert re.search(r'^\s*- list "Tokens"', snapshot, re.M), snapshot[:500]
    names = []
    for line in snapshot.splitlines():
        m = re.match(r'\s*- listitem "((?:[^"\\]|\\.)*)"', line)
        if m:
            names.append(m.group(1).replace('\\"', '"').replace("\\\\", "\\"))
    return names


def test_the_tokens_are_a_list_named_by_text_id_and_bytes(server) -> None:
    tok = quick_tokenizer()
    with chromium_page(width=1280, height=800) as pg:
        open_tokens(pg, server + "/tokenize")
        text = EXAMPLES["English"]
        assert _items(pg) == [token_name(i, tok.vocab[i]) for i in tok.encode(text)]
        box = pg.locator(".ms-box-area")
        box.press("End")
        box.press_sequentially(' <"é">', delay=10)  # drawn in the browser, at each key
        want = [token_name(i, tok.vocab[i]) for i in tok.encode(text + ' <"é">')]
        assert _items(pg) == want
        pg.wait_for_timeout(500)
        wait_idle(pg)
        assert _items(pg) == want


def test_picking_a_token_by_keyboard_keeps_the_focus_on_it(server) -> None:
    with chromium_page(width=1280, height=800) as pg:
        open_tokens(pg, server + "/tokenize")
        pg.locator(f"{SPANS}[tabindex='0']").focus()
        for _ in range(3):
            pg.keyboard.press("ArrowRight")
        assert pg.evaluate(FOCUSED) == "token 3"
        pg.keyboard.press("Enter")
        pg.get_by_text(re.compile(r"made by merge|a single byte")).first.wait_for(timeout=30_000)
        wait_idle(pg)
        pg.wait_for_timeout(300)
        assert pg.get_by_role("tab", name="🔎 Details").get_attribute("aria-selected") == "true"
        assert pg.evaluate(FOCUSED) == "token 3"
        # the next pick, with the details open: focus stays on it too
        pg.keyboard.press("ArrowRight")
        pg.keyboard.press(" ")
        pg.locator(f"{SPANS}.ms-picked[data-i='4']").wait_for(timeout=10_000)
        wait_idle(pg)
        pg.wait_for_timeout(300)
        assert pg.evaluate(FOCUSED) == "token 4"
        # Tab leaves the list (one tab stop for all the tokens); Shift+Tab comes back to the picked one
        pg.keyboard.press("Tab")
        assert not pg.evaluate(FOCUSED).startswith("token")
        pg.wait_for_timeout(1200)  # the focus is not pulled back to the token
        assert not pg.evaluate(FOCUSED).startswith("token")
        pg.keyboard.press("Shift+Tab")
        assert pg.evaluate(FOCUSED) == "token 4"


def test_the_byte_ribbon_takes_the_focus_and_tab_reaches_every_part(server) -> None:
    with chromium_page(width=1280, height=800) as pg:
        open_tokens(pg, server + "/tokenize")
        pg.get_by_role("tab", name="🧬 Byte ribbon").click()
        ribbon = pg.locator(".ms-ribbon")
        ribbon.wait_for(timeout=30_000)
        wait_idle(pg)
        assert ribbon.get_attribute("tabindex") == "0"
        assert ribbon.get_attribute("role") == "region" and ribbon.get_attribute("aria-label")
        # Tab from the page's start: the text box, the tokens (once), the tabs and the ribbon
        pg.evaluate("() => document.activeElement && document.activeElement.blur()")
        seen: list[str] = []
        for _ in range(150):  # round the page once: from the tab to the tab again
            pg.keyboard.press("Tab")
            seen.append(pg.evaluate(FOCUSED))
            if seen.count("div.ms-ribbon") == 2:
                break
        assert seen.count("div.ms-ribbon") == 2, seen
        once = seen[seen.index("div.ms-ribbon") + 1 :]
        tokens = [n for n, s in enumerate(once) if s.startswith("token ")]
        assert len(tokens) == 1, once  # one tab stop for all the tokens
        assert "textarea.ms-box-area" in once[: tokens[0]], once
        assert "body" not in once[1:], once  # no part drops the focus


def test_on_a_phone_the_tokens_start_on_the_first_screen(server) -> None:
    with chromium_page(width=390, height=844, mobile=True) as pg:
        open_tokens(pg, server + "/tokenize")
        top = pg.locator(SPANS).first.bounding_box()
        wide = pg.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
            " document.querySelector('[data-testid=\"stMain\"]').scrollWidth]"
        )
        sticking = pg.evaluate(STICKING_OUT, None)
        name = "tokenize_phone"
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / f"{name}_first_screen.png"))
        full_screenshot(pg, name)  # (the viewport grows to the page: measure before it)
        assert top is not None
        assert top["y"] + top["height"] <= 844, f"the first token ends at {top['y'] + top['height']:.0f} px"
        counts = pg.locator(f"{HOST} .ms-counts").bounding_box()
        assert counts is not None and counts["height"] < 140, counts  # the five counts in two rows at most
        assert wide[0] <= wide[1] and wide[2] <= wide[1], wide  # no sideways scroll
        assert sticking == [], sticking


def test_the_note_over_100_kb_gives_two_different_sizes(server) -> None:
    with chromium_page(width=1280, height=800) as pg:
        open_tokens(pg, server + "/tokenize")
        pg.locator(".ms-box-area").fill("abcd " * 20_080)  # 100,400 bytes: "100 KB" both, rounded
        note = pg.locator(".ms-box-note").inner_text()
        sizes = re.findall(r"([\d,.]+) (KB|bytes)", note)
        assert len(sizes) == 2 and sizes[0] != sizes[1], note
        assert "100,400" in note, note


def test_a_carriage_return_from_a_link_survives_typing(server) -> None:
    tok = quick_tokenizer()
    text = "one\r\ntwo\rthree"
    with chromium_page(width=1280, height=800) as pg:
        open_tokens(pg, server + "/tokenize?t=" + quote(text))
        assert pg.evaluate(IDS) == tok.encode(text)
        box = pg.locator(".ms-box-area")
        box.press("End")
        box.press("x")
        assert pg.evaluate(IDS) == tok.encode(text + "x")  # the browser's ids, at the key
        pg.wait_for_timeout(500)
        wait_idle(pg)
        assert pg.evaluate(IDS) == tok.encode(text + "x")  # and the server's, after its run
        box.press("Home")
        box.press("Control+Home")
        box.press("y")
        pg.wait_for_timeout(500)
        wait_idle(pg)
        assert pg.evaluate(IDS) == tok.encode("y" + text + "x")
        chars = pg.locator(f"{HOST} .ms-counts [data-count='characters']").inner_text()
        assert chars.strip() == f"{len('y' + text + 'x'):,}"


def test_the_details_show_a_long_token_as_one_box(server) -> None:
    """A 42-byte Chinese token wraps in the details panel: as one box over several lines, not as
    pieces that each look like a token of their own."""
    text = "机器学习是人工智能的一个分支 the keeper"
    tok = train(load_text(find_corpus("machine_learning_zh")), vocab_size=1200, pattern="gpt2")
    ids = tok.encode(text)
    position = max(range(len(ids)), key=lambda i: len(tok.vocab[ids[i]]))
    assert len(tok.vocab[ids[position]]) > 24, "the test needs a long token"
    with chromium_page(width=390, height=844, mobile=True) as pg:
        open_tokens(pg, f"{server}/tokenize?tok=quick:machine_learning_zh:1200:gpt2&t={quote(text)}")
        pg.locator(f"{SPANS}[data-i='{position}']").click()
        big = pg.locator(".ms-tokens.ms-big .ms-t")
        big.wait_for(timeout=30_000)
        wait_idle(pg)
        full_screenshot(pg, "tokenize_phone_long_token_details")
        boxes, lines = big.evaluate(LINES)
        assert lines > 1, lines  # its text does wrap here (else the test shows nothing)
        assert boxes == 1, f"the token is drawn as {boxes} separate boxes"
        pieces = pg.locator(".ms-tree .ms-t").evaluate_all("(es) => es.map((e) => e.getClientRects().length)")
        assert pieces and max(pieces) == 1, pieces
