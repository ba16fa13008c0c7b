"""The fit walk's server and page, one of each per test file (see :mod:`tests.browser.fit.walk`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.fit.walk import Server, fit_page, fit_server


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with fit_server() as running:
        yield running


@pytest.fixture(scope="module")
def page(server: Server) -> Iterator[object]:
    with fit_page() as pg:
        yield pg
