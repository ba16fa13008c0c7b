"""The Tokenize page in a browser with no tokenizer caches: a server for a test module, and opening it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.support import streamlit_server, wait_idle
from tests.ui.tokenize.fake_caches import no_caches

SPANS = ".ms-click-host .ms-t"  # the tokens the page shows, one span each


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose tiktoken and hub caches are empty (import it into a test module to use it)."""
    with streamlit_server(env=no_caches(tmp_path_factory.mktemp("no-caches"))) as url:
        yield url


def open_tokens(pg, url: str) -> None:
    """Open ``url`` and wait until its tokens show and the script is idle."""
    pg.goto(url)
    wait_idle(pg, timeout=60_000)
    pg.locator(SPANS).first.wait_for(timeout=60_000)
    wait_idle(pg, timeout=60_000)
