"""axe-core in the real browser: no serious or critical violation on any page or tab, light and dark.

Every page, and every tab of the Tokenize page, the lab and Compare schemes, is checked in the
default view and in presenter mode, in the light and in the dark theme.  The dark theme comes from the
system setting in the default view (``prefers-color-scheme: dark``, which the app follows) and from the
link in presenter mode (``?embed_options=dark_theme`` over a light system setting).  The live room's
student page (``/room``) is checked as its join form and as a joined student sees a teacher's room.
axe-core comes from its npm package, which ``.ci/run`` installs into ``.ci/node``
(``npm ci --prefix .ci/node``); without it
the test is skipped, except in CI (``CI=true``), where it fails.  Only ``serious`` and
``critical`` count.  The violations
found are written to ``artifacts/axe.json``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator

import pytest

from tests.browser.support import ARTIFACTS, ROOT, chromium_page, missing_browser, streamlit_server, wait_idle

REASON = missing_browser()
AXE = ROOT / ".ci" / "node" / "node_modules" / "axe-core" / "axe.min.js"
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"browser tests need chromium: {REASON}"),
    pytest.mark.skipif(
        not AXE.is_file() and os.environ.get("CI") != "true",  # in CI a missing axe-core fails instead
        reason="axe-core is not installed: npm ci --prefix .ci/node (.ci/run does it)",
    ),
]
PAGES = {  # URL -> a heading that says the page is drawn
    "/": "MergeScope",
    "/train": "Train: watch BPE learn",
    "/tokenize": "Tokenize: paste text",
    "/vocab-lab": "Vocab-size lab",
    "/schemes": "Compare schemes",
}
# Violations known and left to the code that owns them, by the element's selector: the test fails when one is
# no longer found, so the entry goes as soon as it is fixed.
KNOWN: dict[str, str] = {}  # selector -> why it is still allowed (none now)
# The theme the app is drawn in, from the color-scheme Streamlit gives its root.
THEME_OF_THE_APP = """() => getComputedStyle(document.querySelector('[data-testid="stApp"]')).colorScheme"""
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(
      (n) => n.target.join(" ") + " | " + (n.failureSummary || "").split("\\n")[1])}));
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


def severe_violations(page) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now (axe injected once per page)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN_AXE)


def views(page, path: str) -> Iterator[str]:
    """Open ``path``, then click through its tabs: yields a name for each view once it is drawn."""
    wait_idle(page, timeout=120_000)
    if path == "/vocab-lab":
        page.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=120_000)
    yield path
    tabs = page.locator('[data-testid="stMain"]').get_by_role("tab")
    names = [t.strip() for t in tabs.all_inner_texts()]
    for n, name in enumerate(names[1:], start=1):
        tabs.nth(n).click()
        wait_idle(page, timeout=120_000)
        page.wait_for_timeout(300)
        yield f"{path} tab {name}"


def query(*, presenter: bool, theme: str) -> str:
    """The query string that opens a page in presenter mode and, there, in ``theme`` by the link.

    >>> query(presenter=True, theme="dark"), query(presenter=False, theme="dark")
    ('?presenter=true&embed_options=dark_theme', '')
    """
    return "?presenter=true" + ("&embed_options=dark_theme" if theme == "dark" else "") if presenter else ""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("presenter", [False, True], ids=["default", "presenter"])
def test_no_serious_or_critical_axe_violation_on_any_page_or_tab(
    server: str, presenter: bool, theme: str
) -> None:
    found: dict[str, list[dict]] = {}
    known: set[str] = set()
    system = theme if not presenter else "light"  # presenter mode gets its theme from the link
    with chromium_page(width=1400, height=900, color_scheme=system) as page:
        for path, heading in PAGES.items():
            page.goto(server + path + query(presenter=presenter, theme=theme))
            page.get_by_role("heading", name=heading).first.wait_for(timeout=60_000)
            applied = page.evaluate(THEME_OF_THE_APP)
            assert applied == theme, f"{path} is drawn in the {applied} theme, not {theme}"
            for view in views(page, path):
                for violation in severe_violations(page):
                    nodes = [n for n in violation["nodes"] if n.split(" | ")[0] not in KNOWN]
                    known.update(n.split(" | ")[0] for n in violation["nodes"])
                    if nodes:
                        found.setdefault(view, []).append({**violation, "nodes": nodes})
    ARTIFACTS.mkdir(exist_ok=True)
    mode = ("presenter" if presenter else "default") + "_" + theme
    (ARTIFACTS / f"axe_{mode}.json").write_text(
        json.dumps(found, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    summary = {view: {v["id"]: len(v["nodes"]) for v in vs} for view, vs in found.items()}
    nodes = sum(len(v["nodes"]) for vs in found.values() for v in vs)
    assert not found, f"axe-core, {mode}: {nodes} elements fail " + json.dumps(summary, ensure_ascii=False)
    assert set(KNOWN) <= known, f"fixed: take {sorted(set(KNOWN) - known)} out of KNOWN"


def _found(page, view: str) -> dict[str, list[dict]]:
    """The serious and critical violations on ``page`` now, under ``view`` (none: an empty dict)."""
    violations = severe_violations(page)
    return {view: violations} if violations else {}


def test_no_serious_or_critical_axe_violation_on_the_room_page(server: str) -> None:
    """A student's side of a live room: the join form, the room joined, a question (teacher: Train)."""
    found: dict[str, list[dict]] = {}
    with chromium_page(width=1400, height=900) as teacher:
        teacher.goto(server + "/train?corpus=low_lower_newest_widest&pattern=none")
        teacher.locator(".ms-stage .ms-card").first.wait_for(timeout=120_000)
        wait_idle(teacher, timeout=120_000)
        teacher.get_by_role("button", name="📡 Open a live room").click()
        code_box = teacher.get_by_label("Room code")
        code_box.wait_for(timeout=60_000)
        code = code_box.inner_text().strip()
        student = teacher.context.new_page()  # a tab of its own: a session of its own
        student.set_viewport_size({"width": 390, "height": 844})
        student.goto(server + "/room")
        student.get_by_role("heading", name=re.compile("Live room")).first.wait_for(timeout=60_000)
        wait_idle(student, timeout=120_000)
        found |= _found(student, "/room join form")
        student.get_by_label("Room code").fill(code)
        student.get_by_label("Your name").fill("Ada")
        student.get_by_role("button", name="Join the room").click()
        student.locator(".ms-stage .ms-stepline").first.wait_for(timeout=60_000)
        wait_idle(student, timeout=60_000)
        found |= _found(student, "/room joined")
        teacher.get_by_role("button", name=re.compile("Ask: which pair merges next")).click()
        student.locator(".st-key-room_question button").first.wait_for(timeout=60_000)
        found |= _found(student, "/room question")
    ARTIFACTS.mkdir(exist_ok=True)
    report = json.dumps(found, indent=1, ensure_ascii=False)
    (ARTIFACTS / "axe_room.json").write_text(report, encoding="utf-8")
    summary = {view: {v["id"]: v["nodes"] for v in vs} for view, vs in found.items()}
    assert not found, "axe-core, the room page: " + json.dumps(summary, ensure_ascii=False)
