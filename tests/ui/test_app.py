"""app.py under AppTest: every page in the navigation runs, the landing page, presenter mode."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mergescope_ui.shared import keys as shared_keys

ROOT = Path(__file__).resolve().parents[2]
PAGE_FILES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages" / "views").glob("*.py"))
# The files in pages/ itself, named as the URLs a visitor may open first (see mergescope_ui/shared/entry.py).
DOORS = sorted((ROOT / "pages").glob("*.py"))


def _app() -> AppTest:
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()


@pytest.mark.parametrize("page", PAGE_FILES)
def test_every_page_runs_without_exception(page: str) -> None:
    at = _app()
    assert not at.exception
    at.switch_page(page).run()
    assert not at.exception, at.exception


def test_landing_page_explains_and_links_to_training() -> None:
    at = _app()
    assert at.title[0].value.endswith("MergeScope")
    text = " ".join(m.value for m in at.markdown)
    assert "most frequent pair" in text and "Presenter mode" in text
    assert len(at.html) >= 1


def test_presenter_mode_injects_large_font_css() -> None:
    at = _app()
    large = "html{font-size:calc(var(--ms-text-scale,1) * clamp("  # presenter text follows the window
    assert not any(large in h.value for h in at.html)
    at.toggle(key=shared_keys.PRESENTER).set_value(True).run()
    assert any(large in h.value for h in at.html)


def _navigation() -> list[dict[str, object]]:
    """The keyword arguments of each ``st.Page(...)`` in app.py, with the file as ``page``."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    pages = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Page":
            args = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords}
            pages.append({"page": ast.literal_eval(node.args[0]), **args})
    return pages


def test_every_page_has_a_proper_title_in_the_navigation():
    pages = _navigation()
    assert sorted(p["page"] for p in pages) == PAGE_FILES, "list each file of pages/views/ once in app.py"
    for p in pages:
        assert p.get("title") and p.get("icon") and (p.get("url_path") or p.get("default")), (
            f"give {p['page']} a title, icon and URL"
        )
    assert [p["url_path"] for p in pages] == ["", "train", "tokenize", "vocab-lab", "schemes", "room"]
    assert [p["title"] for p in pages] == [
        "Welcome",
        "Train",
        "Tokenize",
        "Vocab-size lab",
        "Compare schemes",
        "Live room",
    ]


def test_every_url_a_visitor_may_open_first_has_a_file_in_pages_that_runs_the_app() -> None:
    """Without pages/train.py a fresh server's first request for /train gets Streamlit's "Page not found"."""
    urls = [p["url_path"] for p in _navigation() if p["url_path"]] + ["home"]  # home: the alias of "/"
    assert sorted(path.stem for path in DOORS) == sorted(urls)
    for path in DOORS:
        body = ast.parse(path.read_text(encoding="utf-8")).body
        code = [ast.unparse(node) for node in body[1:]]  # after the docstring
        assert code == ["from mergescope_ui.shared.entry import run_app", "run_app()"], path.name
