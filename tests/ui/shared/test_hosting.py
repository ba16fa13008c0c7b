"""Every MERGESCOPE_* setting is read in one module, listed once, and in the README with its default."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mergescope_ui.shared import hosting

ROOT = Path(__file__).resolve().parents[3]
SOURCES = sorted(
    [*(ROOT / "mergescope_ui").rglob("*.py"), *(ROOT / "bpe_core").rglob("*.py"), ROOT / "app.py"]
)


def reads_environment(source: str) -> bool:
    """Whether ``source`` reads the environment (``os.environ``, ``os.getenv``, ``environ`` imported)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv"):
            return True
        names = (
            {a.name for a in node.names}
            if isinstance(node, ast.ImportFrom) and node.module == "os"
            else set()
        )
        if names & {"environ", "getenv"}:
            return True
    return False


def test_the_check_sees_each_way_of_reading_the_environment() -> None:
    assert reads_environment("import os\nx = os.environ.get('A')")
    assert reads_environment("import os\nx = os.getenv('A')")
    assert reads_environment("from os import environ")
    assert not reads_environment("import os\nx = os.path.join('a', 'b')")


def test_only_the_hosting_module_reads_mergescope_settings() -> None:
    readers = [
        p.relative_to(ROOT).as_posix()
        for p in SOURCES
        if "MERGESCOPE_" in (text := p.read_text(encoding="utf-8")) and reads_environment(text)
    ]
    assert readers == ["mergescope_ui/shared/hosting.py"]


def test_every_setting_named_in_the_code_is_listed() -> None:
    named = {n for p in SOURCES for n in re.findall(r"MERGESCOPE_[A-Z_]+", p.read_text(encoding="utf-8"))}
    assert named - hosting.NAMES == set(), "add these to SETTINGS in shared/hosting.py"
    assert len(hosting.NAMES) == len(hosting.SETTINGS), "a setting is listed twice"


def test_the_readme_lists_each_setting_with_its_default() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for s in hosting.SETTINGS:
        assert f"| `{s.name}` | `{s.default}` |" in readme, f"README's settings table lacks {s.name}"


def test_each_default_reads_as_its_kind() -> None:
    assert hosting.positive_int("MERGESCOPE_SESSION_WORKERS", {}) == 4
    assert hosting.seconds("MERGESCOPE_WORKER_IDLE_SECONDS", {}) == 600.0
    assert hosting.positive_int("MERGESCOPE_IN_PROCESS_CHARS", {}) == 200_000
    assert not hosting.switched_off("MERGESCOPE_BROWSER_ENCODE", {})


@pytest.mark.parametrize("value", ["0", "-3", "two", "1.5"])
def test_a_bad_number_is_one_line_that_names_it(value: str) -> None:
    with pytest.raises(ValueError, match=r"MERGESCOPE_JOB_SLOTS=.* unset it or give e.g. 2"):
        hosting.positive_int("MERGESCOPE_JOB_SLOTS", {"MERGESCOPE_JOB_SLOTS": value})


def test_an_unknown_name_is_refused() -> None:
    with pytest.raises(ValueError, match="no MergeScope setting"):
        hosting.raw("MERGESCOPE_NOPE", {})
