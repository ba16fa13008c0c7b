"""Each test starts with no stage views shared from another test's runs (:data:`stage_data.SHARED`)."""

from __future__ import annotations

import pytest

from mergescope_ui.train import stage_data


@pytest.fixture(autouse=True)
def fresh_shared_views(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage_data, "SHARED", stage_data.SharedViews())
