"""bpe_core reads top to bottom: a layer imports only from the layers before it, and nothing in a circle.

The graph is built from the source (every ``import`` statement, at module level
or inside a function), not from what happens to be loaded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_graph import find_cycle, import_graph

ROOT = Path(__file__).resolve().parents[2]

# In reading order; a module may import from its own layer and the ones before it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("bpe_core.primitives", "bpe_core.byte_level"),
    ("bpe_core.pretokenizer",),
    ("bpe_core.tokenizer",),
    ("bpe_core.pipeline",),
    ("bpe_core.training",),
    ("bpe_core.formats",),
    ("bpe_core.analysis",),
    ("bpe_core.cli", "bpe_core.__main__"),
)
# Above the layers: the package's __init__, one module per scheme (its model, trainer, records and files
# named in one place) and the tokenizers from outside. Each exports from the layers; no layer imports one.
FACADES: tuple[str, ...] = (
    "bpe_core",
    "bpe_core.bpe",
    "bpe_core.wordpiece",
    "bpe_core.unigram",
    "bpe_core.hub",
)


def layer_of(module: str) -> int | None:
    for level, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return level
    return None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a later layer (or of a facade) from an earlier one, as 'a -> b'."""
    bad = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            if target in FACADES:
                bad.append(f"{module} -> {target} (a facade)")
                continue
            if module in FACADES:
                continue
            mine, theirs = layer_of(module), layer_of(target)
            if mine is None or theirs is None or theirs > mine:
                bad.append(f"{module} (layer {mine}) -> {target} (layer {theirs})")
    return bad


GRAPH = import_graph(ROOT, "bpe_core")


def test_every_module_is_in_a_layer() -> None:
    assert [m for m in GRAPH if m not in FACADES and layer_of(m) is None] == []


def test_the_facades_are_there() -> None:
    assert set(FACADES) <= set(GRAPH)


def test_no_layer_imports_a_later_one() -> None:
    assert upward_imports(GRAPH) == []


def test_no_import_cycle() -> None:
    assert find_cycle(GRAPH) is None


def test_the_primitives_import_nothing_from_the_package() -> None:
    assert GRAPH["bpe_core.primitives"] == set()


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    """A package whose tokenizer imports training inside a function, which imports the tokenizer back."""
    pkg = tmp_path / "bpe_core"
    (pkg / "training").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .tokenizer import Tokenizer\n")
    (pkg / "primitives.py").write_text("")
    (pkg / "tokenizer.py").write_text("def save():\n    from .training.run import go\n")
    (pkg / "training" / "__init__.py").write_text("")
    (pkg / "training" / "run.py").write_text("from ..tokenizer import save\nfrom .. import primitives\n")
    return tmp_path


def test_the_checks_catch_a_cycle_and_an_upward_import(toy: Path) -> None:
    graph = import_graph(toy, "bpe_core")
    assert graph["bpe_core.training.run"] == {"bpe_core.tokenizer", "bpe_core.primitives"}
    assert find_cycle(graph) == ["bpe_core.tokenizer", "bpe_core.training.run", "bpe_core.tokenizer"]
    assert upward_imports(graph) == ["bpe_core.tokenizer (layer 2) -> bpe_core.training.run (layer 4)"]


def test_a_layer_importing_a_scheme_facade_is_caught() -> None:
    graph = {"bpe_core.wordpiece": {"bpe_core.training.run"}, "bpe_core.training.run": {"bpe_core.wordpiece"}}
    assert upward_imports(graph) == ["bpe_core.training.run -> bpe_core.wordpiece (a facade)"]
