"""The theme: the system setting by default, a choice of System, Light or Dark in the app menu that the
browser keeps across reloads, and a link that names one (``?embed_options=dark_theme``).

Streamlit keeps the menu's choice in localStorage under the path the app was opened at: it holds on
every page reached from there, and after a reload; a page opened straight from another URL starts from
the system setting (or the link's theme).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.support import chromium_page, streamlit_server, wait_idle

APP = '[data-testid="stApp"]'
# What the app is drawn in (Streamlit sets the color-scheme of its root), and the stage's Play button's
# text and background (light text on white was the bug: 1.19:1 in a forced dark theme).
THEME = f"() => getComputedStyle(document.querySelector('{APP}')).colorScheme"
PLAY = """() => { const s = getComputedStyle(document.querySelector('.ms-stage .ms-play'));
  return [s.color, s.backgroundColor]; }"""
CONTRAST = """([fg, bg]) => {
  const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => {
    v = v / 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05); }"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


def drawn(page) -> str:
    wait_idle(page, timeout=60_000)
    return page.evaluate(THEME)


@pytest.mark.parametrize("system", ["light", "dark"])
def test_the_app_follows_the_system_setting_and_the_stage_stays_readable(server: str, system: str) -> None:
    with chromium_page(width=1280, height=800, color_scheme=system) as page:
        page.goto(server + "/train")
        page.locator(".ms-stage .ms-play").wait_for(timeout=60_000)
        assert drawn(page) == system
        colours = page.evaluate(PLAY)
        assert page.evaluate(CONTRAST, colours) >= 4.5, f"Play is {colours[0]} on {colours[1]} in {system}"


def test_a_theme_picked_in_the_menu_is_kept_after_a_reload(server: str) -> None:
    with chromium_page(width=1280, height=800, color_scheme="light") as page:
        page.goto(server + "/")
        page.locator("h1").first.wait_for(timeout=60_000)
        assert drawn(page) == "light"
        page.locator('[data-testid="stMainMenu"]').click()
        page.locator('[data-testid="stMainMenuItem-theme-Dark"]').click()
        page.wait_for_function(f"() => ({THEME})() === 'dark'", timeout=10_000)
        page.reload()
        page.locator("h1").first.wait_for(timeout=60_000)
        assert drawn(page) == "dark"
        page.locator('[data-testid="stSidebarNav"] a', has_text="Train").click()  # and on the other pages
        page.locator(".ms-stage .ms-play").wait_for(timeout=60_000)
        assert drawn(page) == "dark"
        page.locator('[data-testid="stMainMenu"]').click()
        page.locator('[data-testid="stMainMenuItem-theme-System"]').click()
        page.wait_for_function(f"() => ({THEME})() === 'light'", timeout=10_000)


@pytest.mark.parametrize(
    ("option", "system", "theme"), [("dark_theme", "light", "dark"), ("light_theme", "dark", "light")]
)
def test_a_link_can_name_the_theme(server: str, option: str, system: str, theme: str) -> None:
    with chromium_page(width=1280, height=800, color_scheme=system) as page:
        page.goto(server + f"/vocab-lab?embed_options={option}")
        page.locator("h1").first.wait_for(timeout=60_000)
        assert drawn(page) == theme
