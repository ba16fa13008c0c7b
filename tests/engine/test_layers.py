"""bpe_core reads top to bottom: a layer imports only from the layers before it, and nothing in a circle.

The graph is built from the source (every ``import`` statement, at module level
or inside a function), not from what happens to be loaded.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# In reading order; a module may import from its own layer and the ones before it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("bpe_core.primitives", "bpe_core.byte_level"),
    ("bpe_core.pretokenizer",),
    ("bpe_core.tokenizer",),
    ("bpe_core.training",),
    ("bpe_core.formats",),
    ("bpe_core.analysis",),
    ("bpe_core.cli", "bpe_core.__main__"),
)
FACADE = "bpe_core"  # the package's __init__: exports from every layer, imported by none of them


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of ``package`` it imports, anywhere in its source."""
    modules = {module_name(p, root): p for p in (root / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        here = name.split(".") if is_package else name.split(".")[:-1]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                source = ".".join(base + ([node.module] if node.module else []))
                # "from x import y": y is a submodule, or a name defined in x
                found = [
                    f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names
                ]
            else:
                continue
            targets.update(t for t in found if t in modules)
        targets.discard(name)
        graph[name] = targets
    return graph


def layer_of(module: str) -> int | None:
    for level, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return level
    return None


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a later layer (or of the facade) from an earlier one, as 'a -> b'."""
    bad = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            if target == FACADE:
                bad.append(f"{module} -> {target} (the facade)")
                continue
            if module == FACADE:
                continue
            mine, theirs = layer_of(module), layer_of(target)
            if mine is None or theirs is None or theirs > mine:
                bad.append(f"{module} (layer {mine}) -> {target} (layer {theirs})")
    return bad


GRAPH = import_graph(ROOT, "bpe_core")


def test_every_module_is_in_a_layer() -> None:
    assert [m for m in GRAPH if m != FACADE and layer_of(m) is None] == []


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
    assert upward_imports(graph) == ["bpe_core.tokenizer (layer 2) -> bpe_core.training.run (layer 3)"]
