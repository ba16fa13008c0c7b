"""What Compare schemes draws: the sentence cut four ways, then the table, what is lost, and the chart."""

from __future__ import annotations

import html
from pathlib import Path

import streamlit as st

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.html.schemes import SCHEME_CSS, cuts_html, lost_html
from mergescope_ui.shared.html.styles import style
from mergescope_ui.shared.html.tables import html_table

from . import keys
from .chart import curve_chart
from .compute import NAMES, Comparison, LostLine, SchemeResult
from .inputs import SchemesInputs
from .table import METRICS, TEXTS, curve_frame, scheme_table

CUTS_CSS = style(Path(__file__).with_name("assets") / "cuts.css")  # read once


def cuts(inputs: SchemesInputs, result: Comparison, *, cached: bool) -> None:
    """The sentence as each scheme cuts it, one row a scheme, with what its round trip loses."""
    st.subheader("The same sentence, cut four ways")
    st.html("".join([CUTS_CSS, SCHEME_CSS, *map(_cut_row, result.schemes)]))
    st.caption(
        f"Trained on {len(inputs.text):,} characters of {md_escape(inputs.name)} (held out: the last "
        f"{len(inputs.held_out):,}), "
        + ("from the cache" if cached else f"in {result.seconds:.1f} s")
        + ". Hover a token for its id and the text it covers; "
        "`##` starts a WordPiece piece inside a word, `▁` is Unigram's space, ␣ a space in a BPE token, "
        "and a dark red dashed token is the unknown token."
    )


def _cut_row(s: SchemeResult) -> str:
    name = html.escape(NAMES.get(s.row.model, s.row.model))
    if s.row.error is not None:
        why = html.escape(s.row.error)
        return (
            f'<div class="ms-scheme-row"><div class="ms-scheme-name">{name}</div>'
            f'<div class="ms-scheme-lost">Cannot train at this size: {why}.</div></div>'
        )
    count = f"{len(s.cuts)} token" + ("" if len(s.cuts) == 1 else "s")
    lost = ""
    if s.sentence_lost is not None:
        lost = f'<div class="ms-scheme-lost">Comes back as: {lost_html(s.sentence_lost.decoded, [])}</div>'
    return (
        f'<div class="ms-scheme-row"><div class="ms-scheme-name">{name}'
        f"<small>{count} · vocab {s.row.vocab_size:,}</small></div>"
        f"{cuts_html(s.cuts, css=False)}{lost}</div>"
    )


def tabs(inputs: SchemesInputs, result: Comparison) -> None:
    """The table, what is lost, and the chart across vocab sizes."""
    table_tab, lost_tab, chart_tab = st.tabs(["📋 Table", "🕳 What is lost", "📈 Across vocab sizes"])
    with table_tab:
        _table(inputs, result)
    with lost_tab:
        _lost(result)
    with chart_tab:
        _chart(result)


def _table(inputs: SchemesInputs, result: Comparison) -> None:
    # A static table (escaped) rather than st.dataframe: its thirteen columns then fit a projector's
    # width, headers wrapping (words only between words), where the canvas grid hid half of them behind
    # a scroll bar.
    frame = scheme_table([s.row for s in result.schemes])
    if not frame["note"].any():
        frame = frame.drop(columns="note")
    shown = frame.astype(object).where(frame.notna(), "—")
    table = html_table(shown, clip={"note": 200})
    region = 'tabindex="0" role="region" aria-label="The schemes side by side"'  # it may scroll sideways
    st.html(f'<div class="ms-schemes-table" {region}>{table}</div>')
    st.caption(
        f"Each scheme trained to {inputs.vocab_size:,} ids; “vocab reached” is where it stopped. OOV: the "
        "share of tokens that are the unknown token. Round trip: the share of non-empty lines that "
        "decode(encode(line)) gives back exactly; “spacing lost” counts places whose white space came "
        "back otherwise, “chars changed” the characters normalization changed."
    )


def _lost(result: Comparison) -> None:
    st.caption(
        "For each scheme, the first line of each text that does not come back: the line with what became "
        "the unknown token marked, then what decode(encode(line)) gives back (␣ a space, ↵ a newline)."
    )
    for s in result.schemes:
        name = NAMES.get(s.row.model, s.row.model)
        st.markdown(f"**{md_escape(name)}**")
        if s.row.error is not None:
            st.write("Did not train at this size.")
            continue
        lost = [(t, line) for t, line in zip(TEXTS, (s.text_lost, s.held_out_lost), strict=True) if line]
        for text, line in lost:
            st.html(_lost_block(text, line))
        if not lost:
            st.write("Every line of both texts comes back exactly.")


def _lost_block(text: str, line: LostLine) -> str:
    what = []
    if line.unknown:
        chars = sum(end - start for start, end in line.unknown)
        what.append(f"{_many(chars, 'character')} became the unknown token")
    if line.spacing:
        what.append(f"white space came back otherwise in {_many(line.spacing, 'place')}")
    if line.changed:
        what.append(f"normalization changed {_many(line.changed, 'character')}")
    summary = html.escape("; ".join(what) or "the text came back otherwise")
    return (
        f'<div class="ms-lost-block"><small>{html.escape(text)} text: {summary}</small>'
        f"{lost_html(line.line, line.unknown)}"
        f"<small>comes back as</small>{lost_html(line.decoded, [])}</div>"
    )


def _many(n: int, thing: str) -> str:
    return f"{n} {thing}{'s' if n != 1 else ''}"


def _chart(result: Comparison) -> None:
    data = curve_frame(result.curve)
    if data.empty:
        st.info("No scheme trained at these sizes.")
        return
    left, right = st.columns([3, 1])
    metric = left.radio(
        "Measure",
        list(METRICS),
        format_func=METRICS.__getitem__,
        key=keys.METRIC,
        horizontal=True,
        persist_state="session",
    )
    text = right.radio(
        "Text", list(TEXTS), index=1, key=keys.CHART_TEXT, horizontal=True, persist_state="session"
    )
    large = bool(st.session_state.get(shared_keys.PRESENTER, False))
    st.altair_chart(curve_chart(data, metric=metric, text=text, large=large), width="stretch")
    st.caption(
        "Each line is one scheme, with its own marker and dash; its name is at its last point. The x axis is "
        "the size asked: a scheme may stop short of it (hover a point for the size reached)."
    )
