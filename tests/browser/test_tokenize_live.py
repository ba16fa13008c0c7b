"""The Tokenize page follows each key in the browser: the spans change in the same event as the key
(no server round trip), with the server's ids; a tokenizer the browser cannot encode falls back to
the server, and the page looks the same."""

from __future__ import annotations

import re

from bpe_core import train
from mergescope_ui.shared.inputs.corpora import find_corpus, load_index, load_text
from tests.browser import tokenize_page
from tests.browser.support import chromium_page, streamlit_server, wait_idle
from tests.browser.tokenize_page import open_tokens
from tests.ui.tokenize.fake_caches import no_caches

server = tokenize_page.server  # the module's server, its caches empty
SPANS = tokenize_page.SPANS
TEXT = "It's 2024: the keeper's lamp\r\n  机器学习 👋🏽\t\tdone!!  \n\nok"
IDS = """() => Array.from(document.querySelectorAll(".ms-click-host .ms-t"),
    (s) => Number(s.title.split(" ")[1]))"""


def quick_ids(text: str) -> list[int]:
    corpus = next(c.id for c in load_index() if "lighthouse" in c.id)
    return train(load_text(find_corpus(corpus)), vocab_size=500, pattern="gpt2").encode(text)


def test_the_spans_follow_a_key_at_once_with_the_servers_ids(server) -> None:
    with chromium_page(width=1280, height=720) as pg:
        open_tokens(pg, server + "/tokenize")
        box = pg.locator(".ms-box-area")
        box.fill(TEXT)  # one input event; the server hears of it 300 ms later at the earliest
        live = pg.evaluate(IDS)
        text = box.input_value()  # a text box keeps line ends as \n
        assert text == TEXT.replace("\r\n", "\n") and live == quick_ids(text)
        box.press("End")
        box.press("x")
        assert pg.evaluate(IDS) == quick_ids(text + "x")
        counts = pg.locator(".ms-click-host .ms-counts dd").all_inner_texts()  # with the tokens, at once
        assert counts[:3] == [
            f"{len(text) + 1:,}",
            f"{len(text.encode()) + 1:,}",
            f"{len(quick_ids(text + 'x')):,}",
        ]
        pg.wait_for_timeout(600)
        wait_idle(pg)
        assert pg.evaluate(IDS) == quick_ids(text + "x")  # the server's run changed nothing
        metric = pg.locator(".ms-click-host .ms-counts [data-count='tokens']").inner_text()
        assert metric.strip() == f"{len(quick_ids(text + 'x')):,}"
        first = pg.locator(f'{SPANS}[data-i="3"]')
        first.click()
        pg.get_by_text(re.compile(r"made by merge|a single byte")).first.wait_for(timeout=30_000)


def test_without_browser_encoding_the_server_draws_the_same_spans(tmp_path) -> None:
    env = no_caches(tmp_path) | {"MERGESCOPE_BROWSER_ENCODE": "off"}
    with streamlit_server(env=env) as url, chromium_page(width=1280, height=720) as pg:
        open_tokens(pg, url + "/tokenize")
        box = pg.locator(".ms-box-area")
        box.fill(TEXT)
        text = box.input_value()
        assert pg.evaluate(IDS) != quick_ids(text)  # nothing yet: the server has not heard
        pg.wait_for_function(
            "(n) => document.querySelectorAll('.ms-click-host .ms-t').length === n",
            arg=len(quick_ids(text)),
            timeout=30_000,
        )
        wait_idle(pg)
        assert pg.evaluate(IDS) == quick_ids(text)
