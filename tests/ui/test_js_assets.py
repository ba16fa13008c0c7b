"""The app's JavaScript lives in asset files, never in Python strings, and puts no markup in the page.

Each Streamlit component reads its JavaScript and CSS from the assets folder beside its module
(``Path(__file__)``), once at import; ``.ci/run`` type-checks every one of those files with ``tsc``
(``.ci/node/tsconfig.json``).  Read from the source: no JavaScript runs here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "mergescope_ui"
PYTHON = sorted([*UI.rglob("*.py"), ROOT / "app.py", *(ROOT / "pages").rglob("*.py")])
SCRIPTS = sorted(UI.rglob("*.js"))
# What would put a string into the page as markup (or run it): the JavaScript builds elements instead.
MARKUP_SINKS = ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "createContextualFragment")


def test_the_app_has_javascript_assets() -> None:
    assert len(SCRIPTS) >= 6, SCRIPTS


def test_no_python_module_holds_javascript() -> None:
    """A component's JavaScript is a file beside its module: ``tsc`` checks it there, not in a string."""
    found = [p.relative_to(ROOT) for p in PYTHON if "export default" in p.read_text(encoding="utf-8")]
    assert found == []


def test_no_script_puts_markup_in_the_page() -> None:
    for path in SCRIPTS:
        code = path.read_text(encoding="utf-8")
        assert [s for s in MARKUP_SINKS if s in code] == [], path.relative_to(ROOT)


def test_the_type_checker_covers_every_script() -> None:
    """``.ci/node/tsconfig.json`` takes every ``mergescope_ui/**/*.js``, strictly, and ``.ci/run`` runs it."""
    text = (ROOT / ".ci" / "node" / "tsconfig.json").read_text(encoding="utf-8")
    config = json.loads(re.sub(r"^\s*//.*$", "", text, flags=re.M))
    options = config["compilerOptions"]
    assert options["checkJs"] and options["noEmit"] and options["strict"]
    assert "../../mergescope_ui/**/*.js" in config["include"]
    assert "tsc -p .ci/node/tsconfig.json" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "typescript" in json.loads((ROOT / ".ci" / "node" / "package.json").read_text())["dependencies"]
