"""Each test starts with no stage views shared from another test's runs (``producer.SHARED``)."""

from __future__ import annotations

import pytest

from mergescope_ui.shared.stage import producer


@pytest.fixture(autouse=True)
def fresh_shared_views(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(producer, "SHARED", producer.SharedViews())
