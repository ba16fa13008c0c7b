"""The doctests of the Train page's pure modules (they use real engine steps)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MY_MODULES = ["train.cards", "train.charts", "train.quiz", "train.tables"]


@pytest.mark.parametrize("name", MY_MODULES)
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(f"mergescope_ui.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
