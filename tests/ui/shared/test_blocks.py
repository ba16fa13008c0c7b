"""Headings, captions, the status line and the figures row built as HTML for the training page."""

from __future__ import annotations

from mergescope_ui.shared.html.blocks import (
    BLOCK_CSS,
    Figure,
    caption_html,
    figures_html,
    heading_html,
)
from mergescope_ui.shared.html.theme import page_css

NASTY = "<img src=x onerror=alert(1)> & \"q\" 'r'"


def test_every_text_is_escaped() -> None:
    for markup in (
        heading_html(NASTY),
        caption_html(NASTY),
        figures_html([Figure(NASTY, NASTY, delta=NASTY)]),
    ):
        assert "<img" not in markup and "&lt;img" in markup
        assert "&amp;" in markup and "&quot;q&quot;" in markup and "&#x27;r&#x27;" in markup


def test_figures_row_has_one_cell_per_figure_and_colors_the_change() -> None:
    markup = figures_html(
        [
            Figure("Vocab size", "257", delta="1"),
            Figure("Corpus tokens", "3,366", delta="-75", good=True),
            Figure("Errors", "3", delta="2", good=False),
            Figure("Merges", "1 / 100"),
        ]
    )
    assert markup.count('class="ms-figure"') == 4
    assert '<div class="ms-delta ms-good">↑ 1</div>' in markup
    assert '<div class="ms-delta ms-good">↓ -75</div>' in markup  # fewer tokens is good: green, arrow down
    assert '<div class="ms-delta ms-bad">↑ 2</div>' in markup
    assert markup.count("ms-delta") == 3  # no change shown for a figure without a delta


def test_page_css_styles_the_blocks_in_both_modes() -> None:
    assert BLOCK_CSS in page_css(presenter=False)
    presenter = page_css(presenter=True)
    assert BLOCK_CSS in presenter and ".ms-figure .ms-value{font-size:2.4rem" in presenter
