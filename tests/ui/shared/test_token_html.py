"""The token-span renderer: escaping, markers, emphasis, and where merges happened."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from mergescope_ui.shared.html.tokens import merged_positions, token_span, token_spans_html

NASTY = ["<script>alert(1)</script>", "</span><b>x", "&amp;", '"q"', "'s", "<img src=x onerror=alert(1)>"]


def _body(markup: str) -> str:
    """The markup without the constant <style> block."""
    return markup.split("</style>", 1)[-1]


@pytest.mark.parametrize("text", NASTY)
def test_user_text_is_escaped_in_label_and_title(text: str) -> None:
    token = text.encode()
    span = token_span(300, token)
    # The only tags are the span we made: no user text becomes markup.
    assert re.findall(r"<[^>]*>", span) == [re.match(r"<span [^>]*>", span).group(0), "</span>"]
    label = re.search(r">(.*)</span>$", span).group(1)
    assert html.unescape(label) == text.replace(" ", "\N{OPEN BOX}")  # spaces are made visible
    title = re.search(r'title="([^"]*)"', span).group(1)
    assert token.hex(" ").upper() in html.unescape(title)
    assert text.replace(" ", "\N{OPEN BOX}") in html.unescape(title)


def test_whole_sequence_has_one_span_per_token_and_no_raw_user_markup() -> None:
    vocab = {i: bytes([i]) for i in range(256)}
    text = "".join(NASTY)
    ids = list(text.encode())
    markup = _body(token_spans_html(ids, vocab))
    assert markup.count('<span class="ms-t') == len(ids)
    assert "<script" not in markup and "<img" not in markup and "<b>" not in markup


def test_whitespace_markers_and_line_breaks() -> None:
    vocab = {32: b" ", 9: b"\t", 10: b"\n", 97: b"a"}
    markup = _body(token_spans_html([97, 32, 9, 10, 97], vocab))
    labels = re.findall(r'<span class="ms-t[^"]*" title="[^"]*">([^<]*)</span>', markup)
    assert labels == ["a", "\N{OPEN BOX}", "⇥", "↵", "a"]
    assert "↵</span><br>" in markup


def test_partial_utf8_tokens_show_their_bytes() -> None:
    ji = "机".encode()  # E6 9C BA
    vocab = {300: ji[:2], 301: ji[2:]}
    markup = _body(token_spans_html([300, 301], vocab))
    assert "&lt;E6&gt;&lt;9C&gt;" in markup and "&lt;BA&gt;" in markup
    assert markup.count("ms-partial") == 2
    assert "\ufffd" not in markup


def test_emphasis_marks_exactly_the_given_positions() -> None:
    vocab = {97: b"a", 256: b"aa"}
    markup = _body(token_spans_html([256, 97, 256], vocab, emphasize=[0, 2]))
    classes = re.findall(r'<span class="(ms-t[^"]*)"', markup)
    assert ["ms-new" in c for c in classes] == [True, False, True]


def test_long_sequences_are_cut_with_a_note() -> None:
    vocab = {97: b"a"}
    markup = token_spans_html([97] * 30, vocab, max_tokens=10)
    assert markup.count('<span class="ms-t') == 10
    assert "20 more tokens" in markup


def test_unknown_id_and_bad_limit_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="not in the vocab"):
        token_spans_html([999], {97: b"a"})
    with pytest.raises(ValueError, match="max_tokens"):
        token_spans_html([97], {97: b"a"}, max_tokens=0)


def test_special_tokens_are_shown_whole_and_escaped() -> None:
    vocab = {256: b"<|eot|>", 97: b"a"}
    markup = _body(token_spans_html([97, 256], vocab, special_ids={256}))
    assert "ms-special" in markup and "&lt;|eot|&gt;" in markup


@settings(max_examples=40, deadline=None)
@given(
    text=st.text(alphabet="ab \n机器学习", min_size=1, max_size=60), pattern=st.sampled_from(["none", "gpt2"])
)
def test_merged_positions_follow_every_engine_step(text: str, pattern: str) -> None:
    trainer = bpe_core.train_steps(text, vocab_size=280, pattern=pattern)
    before = trainer.initial_sequence
    for step in trainer:
        old, new = merged_positions(before, step.sequence, pair=step.pair, new_id=step.new_id)
        assert len(old) == 2 * len(new)
        assert len(step.sequence) == len(before) - len(new)
        assert [step.sequence[j] for j in new] == [step.new_id] * len(new)
        assert all((before[i], before[i + 1]) == step.pair for i in old[::2])
        before = step.sequence


def test_merged_positions_rejects_unrelated_sequences() -> None:
    with pytest.raises(ValueError, match="one merge"):
        merged_positions([1, 2, 3], [1, 3], pair=(1, 2), new_id=9)


def test_window_length_covers_the_limit_and_keeps_the_crossing_token_whole() -> None:
    from mergescope_ui.shared.html.tokens import window_length

    vocab = {104: b"h", 300: b"ey", 33: b"!", 301: "机".encode()}
    ids = [104, 300, 33, 301, 104]  # h ey ! 机 h: bytes 1, 3, 4, 7, 8
    assert [window_length(ids, vocab, n) for n in (0, 1, 2, 3, 4, 5, 7, 8, 99)] == [0, 1, 2, 2, 3, 4, 4, 5, 5]
    assert window_length([], vocab, 10) == 0
