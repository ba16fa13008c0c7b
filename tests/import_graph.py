"""The import graph of a package, read from its source: every ``import``, at module level or in a function.

Used by the tests that keep the layers one way (``tests/engine/test_layers.py``,
``tests/ui/test_import_direction.py``).

>>> sorted(imports_of("from . import keys\\nfrom ..shared import cache", "mergescope_ui.train.run"))
['mergescope_ui.shared', 'mergescope_ui.shared.cache', 'mergescope_ui.train', 'mergescope_ui.train.keys']
>>> sorted(imports_of("from . import keys", "ui.train.run", known={"ui.train.keys"}))
['ui.train.keys']
"""

from __future__ import annotations

import ast
from collections.abc import Collection
from pathlib import Path


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> file for every ``.py`` file of ``root/package`` (``__init__``: the package)."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports_of(
    source: str, module: str, *, is_package: bool = False, known: Collection[str] = ()
) -> set[str]:
    """Every module ``source`` (the text of ``module``) imports, relative imports made absolute.

    ``from a import b`` counts ``a`` and ``a.b`` (``b`` may be a module); when ``known``
    lists the modules that exist, it counts only ``a.b`` if that is one of them, else ``a``.
    """
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source_name = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{source_name}.{alias.name}"
                if not known:
                    found.update((source_name, sub))
                else:
                    found.add(sub if sub in known else source_name)
    return found


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of ``package`` it imports (itself left out)."""
    files = module_files(root, package)
    graph = {}
    for name, path in files.items():
        names = imports_of(
            path.read_text(encoding="utf-8"), name, is_package=path.name == "__init__.py", known=files
        )
        graph[name] = {n for n in names if n in files and n != name}
    return graph


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
