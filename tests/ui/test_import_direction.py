"""Imports go one way: pages/ -> mergescope_ui.<page> -> mergescope_ui.shared -> bpe_core.

Read from the source (no import runs): a page package never imports another
one, ``shared`` imports no page package, a page file uses its own package
only, and the engine imports neither the UI nor Streamlit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_graph import find_cycle, import_graph, imports_of, module_files

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "mergescope_ui"
PAGE_PACKAGES = sorted(p.name for p in UI.iterdir() if (p / "__init__.py").is_file() and p.name != "shared")


def page_packages_in(names: set[str]) -> set[str]:
    """The page packages among imported module names."""
    return {
        n.split(".")[1] for n in names if n.startswith("mergescope_ui.") and n.split(".")[1] in PAGE_PACKAGES
    }


def _modules(folder: Path, prefix: str) -> list[tuple[str, Path, bool]]:
    return [
        (name, path, path.name == "__init__.py") for name, path in module_files(folder.parent, prefix).items()
    ]


def _imports(path: Path, module: str, is_package: bool) -> set[str]:
    return imports_of(path.read_text(encoding="utf-8"), module, is_package=is_package)


def test_there_are_page_packages_and_shared() -> None:
    assert PAGE_PACKAGES == ["classroom", "lab", "schemes", "tokenize", "train"]
    assert (UI / "shared" / "__init__.py").is_file()


UI_MODULES = _modules(UI, "mergescope_ui")


@pytest.mark.parametrize(("module", "path", "is_package"), UI_MODULES, ids=[m for m, _, _ in UI_MODULES])
def test_ui_modules_import_down_only(module: str, path: Path, is_package: bool) -> None:
    names = _imports(path, module, is_package)
    assert not {n for n in names if n.split(".")[0] in {"app", "pages"}}, f"{module} imports a page file"
    parts = module.split(".")
    own = parts[1] if len(parts) > 1 and parts[1] in PAGE_PACKAGES else None
    others = page_packages_in(names) - {own}
    if len(parts) > 1 and parts[1] == "shared":
        assert not others, (
            f"{module} (shared) imports the page package(s) {sorted(others)}; move it to shared"
        )
    elif own is not None:
        assert not others, f"{module} imports the page package(s) {sorted(others)}; share it through shared"


PAGE_FILES = sorted(
    (ROOT / "pages").rglob("*.py")
)  # the pages in pages/views/, and the files that run app.py


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_page_files_use_their_own_package_only(path: Path) -> None:
    names = _imports(path, ".".join(path.relative_to(ROOT).with_suffix("").parts), False)
    # A page file is named as its package, or as its URL ending in it (vocab-lab.py -> lab), or as its
    # package plus _page where the package's name is a standard module's (tokenize_page.py -> tokenize).
    own = {path.stem, path.stem.rsplit("-", 1)[-1], path.stem.removesuffix("_page")}
    found = page_packages_in(names)
    assert len(found) <= 1 and found <= own, f"{path.relative_to(ROOT)} imports another page's package"
    assert not {n for n in names if n == "bpe_core" or n.startswith("bpe_core.")}, "pages reach the engine"


def test_the_engine_imports_neither_the_ui_nor_streamlit() -> None:
    for module, path, is_package in _modules(ROOT / "bpe_core", "bpe_core"):
        roots = {n.split(".")[0] for n in _imports(path, module, is_package)}
        assert not roots & {"mergescope_ui", "streamlit", "app", "pages"}, module


def test_a_page_package_importing_another_is_caught() -> None:
    names = imports_of("from mergescope_ui.train.keys import RUN", "mergescope_ui.tokenize.picker")
    assert page_packages_in(names) - {"tokenize"} == {"train"}
    relative = imports_of("from ..lab import keys", "mergescope_ui.shared.cache")
    assert page_packages_in(relative) == {"lab"}


SHARED_FOLDERS = ("stage", "html", "inputs", "workers", "rooms")
"""The folders of ``shared`` by concern, lowest first: each may import the ones before it and the modules
directly in ``shared`` (keys, digest, settings...), never one after it."""


def test_no_import_circle_anywhere_in_the_ui() -> None:
    assert find_cycle(import_graph(ROOT, "mergescope_ui")) is None


def test_a_circle_in_the_ui_is_caught(tmp_path: Path) -> None:
    for name, text in {
        "ui/__init__.py": "",
        "ui/shared/__init__.py": "",
        "ui/shared/a.py": "from .b import x",
        "ui/shared/b.py": "from . import a",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert find_cycle(import_graph(tmp_path, "ui")) == ["ui.shared.a", "ui.shared.b", "ui.shared.a"]


def shared_folder_of(name: str) -> str | None:
    """The folder of ``shared`` a module is in; None: directly in ``shared``, or not."""
    parts = name.split(".")
    inside = len(parts) > 2 and parts[:2] == ["mergescope_ui", "shared"] and parts[2] in SHARED_FOLDERS
    return parts[2] if inside else None


def test_shared_is_folders_by_concern_and_a_few_modules() -> None:
    folders = sorted(p.name for p in (UI / "shared").iterdir() if (p / "__init__.py").is_file())
    assert folders == sorted(SHARED_FOLDERS)
    modules = sorted(p.stem for p in (UI / "shared").glob("*.py"))
    assert len(modules) <= 12, (
        f"{len(modules)} modules directly in shared: put them in its folders ({modules})"
    )
    for folder in SHARED_FOLDERS:
        doc = (UI / "shared" / folder / "__init__.py").read_text(encoding="utf-8")
        assert doc.startswith('"""') and "import" in doc.split('"""')[1], (
            f"shared/{folder} says not what it may import"
        )


SHARED_MODULES = [m for m in UI_MODULES if shared_folder_of(m[0]) is not None]


@pytest.mark.parametrize(
    ("module", "path", "is_package"), SHARED_MODULES, ids=[m for m, _, _ in SHARED_MODULES]
)
def test_shared_folders_import_down_only(module: str, path: Path, is_package: bool) -> None:
    own = shared_folder_of(module)
    assert own is not None
    allowed = set(SHARED_FOLDERS[: SHARED_FOLDERS.index(own) + 1])
    for name in _imports(path, module, is_package):
        folder = shared_folder_of(name)
        if folder is not None:
            assert folder in allowed, f"{module} imports {name}: shared/{folder} comes after shared/{own}"


def pure_modules() -> list[tuple[str, Path, bool]]:
    """The UI modules that say "no Streamlit" in their docstring, or that have a ``<name>_view.py`` beside."""
    out = []
    for module, path, is_package in UI_MODULES:
        text = path.read_text(encoding="utf-8")
        if "no Streamlit" in text.split('"""')[1] or path.with_name(path.stem + "_view.py").is_file():
            out.append((module, path, is_package))
    return out


PURE = pure_modules()


@pytest.mark.parametrize(("module", "path", "is_package"), PURE, ids=[m for m, _, _ in PURE])
def test_pure_modules_import_no_streamlit(module: str, path: Path, is_package: bool) -> None:
    roots = {n.split(".")[0] for n in _imports(path, module, is_package)}
    assert "streamlit" not in roots, f"{module} is pure (docs/architecture.md, Words): draw in a *_view.py"
