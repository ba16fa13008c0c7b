"""Presenter mode's text size for the room (issue #22: 9): a sidebar choice, carried in the link.

Presenter mode scales its text with the window (``mergescope_ui/shared/html/theme.py``); the room's text size
multiplies that.  Checked here: the choice shows only in presenter mode, a link sets it (the widget is
bound to ``?text_size=``, which writes a change back into the URL), and the page's CSS carries its factor.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from mergescope_ui.shared import keys
from mergescope_ui.shared.html.theme import PRESENTER_CSS, TEXT_SIZES, page_css
from tests.browser.support import ROOT


def _open(**params: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def _css(at: AppTest) -> str:
    return " ".join(h.value for h in at.html if "<style>" in h.value)


def test_the_text_size_is_a_presenter_choice_carried_in_the_link() -> None:
    at = _open()
    assert not at.exception
    assert not [s for s in at.selectbox if s.key == keys.TEXT_SIZE], "only in presenter mode"
    at = _open(presenter="true", text_size="XL")
    assert not at.exception
    assert at.selectbox(key=keys.TEXT_SIZE).value == "XL"
    assert f"--ms-text-scale:{TEXT_SIZES['XL']}" in _css(at)
    at.selectbox(key=keys.TEXT_SIZE).set_value("S").run()
    assert f"--ms-text-scale:{TEXT_SIZES['S']}" in _css(at)
    at.selectbox(key=keys.TEXT_SIZE).set_value("M").run()
    assert "--ms-text-scale:" not in _css(at), "the default size needs no factor"


def test_presenter_text_follows_the_window() -> None:
    """22 px at 1280x720 and 33 px at 1920x1080: the root size is a share of the window, not fixed."""
    assert "min(1.72vw, 3.06vh)" in PRESENTER_CSS and "html{font-size:22px;}" not in PRESENTER_CSS
    assert "--ms-text-scale" not in page_css(presenter=False, text_size="XL")
