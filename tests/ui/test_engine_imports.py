"""The UI reaches the engine only through its public modules (docs/architecture.md, "The layers").

Read from the source (no import runs), as ``test_import_direction.py`` reads it: every import of
``bpe_core`` in ``mergescope_ui/``, ``pages/`` and ``app.py``, at module level or inside a function,
names one of :data:`PUBLIC`. A deep import (``bpe_core.training.wordpiece``) would tie a page to the
file where the engine keeps a name; the public modules say what the engine offers, and the engine may
move its files behind them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.test_layers import FACADES
from tests.import_graph import imports_of, module_files

ROOT = Path(__file__).resolve().parents[2]

PUBLIC = frozenset(
    {
        *FACADES,  # bpe_core, and one module per scheme (bpe, wordpiece, unigram) and hub
        "bpe_core.byte_level",  # bytes shown as text
        "bpe_core.pretokenizer",  # the layers' packages: each __init__ exports what its folder offers
        "bpe_core.formats",
        "bpe_core.analysis",
        "bpe_core.pipeline",
    }
)
ENGINE = module_files(ROOT, "bpe_core")


def engine_imports(source: str, module: str, *, is_package: bool = False) -> set[str]:
    """The engine modules ``source`` (the text of ``module``) imports; ``from bpe_core import train``
    counts as ``bpe_core``, ``from bpe_core import wordpiece`` as ``bpe_core.wordpiece``."""
    names = imports_of(source, module, is_package=is_package, known=ENGINE)
    return {n for n in names if n == "bpe_core" or n.startswith("bpe_core.")}


def ui_files() -> list[tuple[str, Path, bool]]:
    """Every module of the UI, the page files and app.py: (dotted name, file, is a package)."""
    out = [
        (name, path, path.name == "__init__.py") for name, path in module_files(ROOT, "mergescope_ui").items()
    ]
    for path in sorted((ROOT / "pages").rglob("*.py")) + [ROOT / "app.py"]:
        out.append((".".join(path.relative_to(ROOT).with_suffix("").parts), path, False))
    return out


UI_FILES = ui_files()


@pytest.mark.parametrize(("module", "path", "is_package"), UI_FILES, ids=[m for m, _, _ in UI_FILES])
def test_the_ui_imports_public_engine_modules_only(module: str, path: Path, is_package: bool) -> None:
    deep = engine_imports(path.read_text(encoding="utf-8"), module, is_package=is_package) - PUBLIC
    assert not deep, (
        f"{module} imports {sorted(deep)}; import the name from one of {sorted(PUBLIC)} (export it there "
        "if it is missing)"
    )


def test_the_public_modules_exist() -> None:
    assert not PUBLIC - set(ENGINE), "a public module is missing"


def test_a_deep_import_is_caught() -> None:
    source = (
        "from bpe_core import train\nfrom bpe_core.wordpiece import words\n"
        "def later():\n    from bpe_core.training.wordpiece import WordPieceTrainer\n"
        "import bpe_core.tokenizer.bpe\nfrom bpe_core.training import unigram\n"
    )
    assert engine_imports(source, "mergescope_ui.train.run") - PUBLIC == {
        "bpe_core.training.wordpiece",
        "bpe_core.tokenizer.bpe",
        "bpe_core.training.unigram",
    }
