"""``pyproject.toml``'s ``[project]`` (``pip install .`` installs bpe_core) pins what requirements pin."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pins(name: str) -> dict[str, str]:
    """The ``name==version`` lines of a requirements file, by lower-case name."""
    lines = (line.split("#")[0].strip() for line in (ROOT / name).read_text(encoding="utf-8").splitlines())
    return {line.split("==")[0].lower(): line for line in lines if "==" in line}


def test_the_engine_package_pins_what_the_requirements_pin() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["dependencies"] == [pins("requirements.txt")["regex"]], "the engine needs regex alone"
    assert sorted(project["optional-dependencies"]["dask"]) == sorted(pins("requirements-dask.txt").values())
    assert project["optional-dependencies"]["fast"] == [pins("requirements.txt")["numpy"]], "the app has it"


def test_the_package_holds_the_engine_only() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["setuptools"]["packages"]["find"]["include"] == ["bpe_core", "bpe_core.*"]
