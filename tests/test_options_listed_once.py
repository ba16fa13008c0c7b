"""The training options are listed in few places: the options record and the two public entry points.

Every other function or record takes a :class:`bpe_core.TrainOptions` instead of re-listing
``vocab_size, pattern, special_tokens, tie_break, min_frequency`` (read from the source).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = {"vocab_size", "pattern", "special_tokens", "tie_break", "min_frequency"}
SOURCES = ["bpe_core", "mergescope_ui", "pages", "app.py", "bench"]


def listing_all_options(source: str, where: str) -> list[str]:
    """The functions and classes in ``source`` that take (or declare) every one of :data:`OPTIONS`.

    >>> listing_all_options("def f(*, vocab_size, pattern, special_tokens, tie_break, min_frequency): 0", "m")
    ['m:f']
    >>> listing_all_options("class R:\\n    vocab_size: int\\n    pattern: str", "m")
    []
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            names = {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]}
        elif isinstance(node, ast.ClassDef):
            names = {
                s.target.id
                for s in node.body
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
            }
        else:
            continue
        if names >= OPTIONS:
            found.append(f"{where}:{node.name}")
    return found


def test_at_most_three_definitions_list_every_training_option() -> None:
    files = [
        p for s in SOURCES for p in ([ROOT / s] if s.endswith(".py") else sorted((ROOT / s).rglob("*.py")))
    ]
    found = [
        hit
        for p in files
        for hit in listing_all_options(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))
    ]
    assert len(found) <= 3, found
    assert "bpe_core/training/options.py:TrainOptions" in found
