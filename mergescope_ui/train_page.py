"""The training page: settings in the sidebar, the step controls and the step view.

``app_pages/train.py`` only calls :func:`render`.  The step controls and view sit in
one ``st.fragment`` so Next/Back rerun only that part; Play re-arms the
fragment's timer with a full rerun.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core import PATTERNS, TIE_BREAK_HELP, TIE_BREAKS

from . import keys
from .blocks import Figure, caption_html, figures_html, heading_html, status_html
from .cards import merge_card_html
from .charts import pair_count_spec, tokens_line_spec
from .engine import start_run
from .html_tables import html_table
from .quiz import QuizResult, choices, grade
from .settings import MAX_MERGES, TrainSettings, changes, parse_special_tokens, text_digest
from .sources import SourceText, choose_source
from .stepper import TrainingRun
from .tables import (
    crosses_word_boundary,
    longest_tokens,
    merges_csv,
    merges_table,
    pair_table,
    tokens_by_step,
)
from .token_html import merged_positions, token_spans_html, window_length
from .url_state import mirror_to_url, seed_from_url

DEFAULT_MERGES = 100
DEFAULT_PATTERN = "gpt2"
SPEEDS = {2.0: "slow (2 s)", 1.0: "1 s", 0.5: "fast (0.5 s)", 0.2: "very fast (0.2 s)"}
PATTERN_LABELS = {
    "none": "none: no split (tokens may span words)",
    "whitespace": "whitespace: runs of space / non-space",
    "gpt2": "GPT-2: words keep a leading space",
    "gpt4": "GPT-4 (cl100k): + digits in 3s",
    "o200k": "GPT-4o (o200k)",
    keys.CUSTOM: "custom regex…",
}
DEFAULT_CUSTOM_REGEX = r"\w+|\s+|[^\w\s]+"
WINDOW_CHARS = 300  # characters shown as tokens unless the whole preview is asked for: about two boxfuls
ACTED = "_acted_this_run"  # plain key: a button callback ran, so Play does not also step


# --- settings -------------------------------------------------------------------


def settings_widgets(messages: DeltaGenerator) -> TrainSettings | None:
    """The training settings (call inside ``st.sidebar``); None after an error in ``messages``."""
    specials_text = st.session_state.get(keys.SPECIAL_TOKENS, "")
    merges = st.number_input(
        "Merges to learn",
        min_value=1,
        max_value=MAX_MERGES,
        value=DEFAULT_MERGES,
        step=10,
        key=keys.MERGES,
        persist_state="session",
        bind="query-params",
        help="Training stops here, or earlier when no pair is left.",
    )
    unknown = seed_from_url(keys.PATTERN, "pattern", PATTERN_LABELS)
    if unknown is not None:
        messages.warning(
            f"The link asks for pre-tokenization {unknown!r}, which is unknown; using {DEFAULT_PATTERN}."
        )
    pattern_name = st.selectbox(
        "Pre-tokenization",
        list(PATTERN_LABELS),
        index=list(PATTERN_LABELS).index(DEFAULT_PATTERN),
        format_func=PATTERN_LABELS.__getitem__,
        key=keys.PATTERN,
        persist_state="session",
        help="How the text is cut into chunks before counting pairs; BPE never merges across chunks.",
    )
    mirror_to_url("pattern", pattern_name, default=DEFAULT_PATTERN)
    if pattern_name == keys.CUSTOM:
        pattern = st.text_input(
            "Custom regex (Python `regex` syntax)",
            value=DEFAULT_CUSTOM_REGEX,
            key=keys.CUSTOM_REGEX,
            persist_state="session",
        )
        if not pattern:
            messages.error("The custom regex is empty: type a pattern, or choose a named pre-tokenization.")
            return None
    else:
        pattern = pattern_name
        source = PATTERNS[pattern_name]
        st.code(
            source if source is not None else "(no split: the whole text is one chunk)",
            language="text",
            wrap_lines=True,
        )
    tie_break = st.selectbox(
        "Tie rule",
        list(TIE_BREAKS),
        key=keys.TIE_BREAK,
        persist_state="session",
        bind="query-params",
        help="Which pair wins when several have the same count.",
    )
    st.caption(TIE_BREAK_HELP[tie_break])
    st.text_area(
        "Special tokens (one a line)",
        key=keys.SPECIAL_TOKENS,
        height=80,
        persist_state="session",
        placeholder="<|endoftext|>",
        help="Cut out of the text before counting; never merged.",
    )
    min_frequency = st.number_input(
        "Minimum pair frequency",
        min_value=1,
        value=1,
        step=1,
        key=keys.MIN_FREQUENCY,
        persist_state="session",
        bind="query-params",
        help="Stop when the most frequent pair occurs fewer times than this.",
    )
    try:
        specials = parse_special_tokens(st.session_state.get(keys.SPECIAL_TOKENS, specials_text))
    except ValueError as exc:
        messages.error(f"Special tokens: {exc}.")
        return None
    settings = TrainSettings(
        merges=int(merges),
        pattern=pattern,
        special_tokens=specials,
        tie_break=tie_break,
        min_frequency=int(min_frequency),
    )
    st.caption(
        f"Vocab size at the end: 256 bytes + {len(specials)} special + {settings.merges:,} merges "
        f"= **{settings.vocab_size:,}**"
    )
    return settings


# --- the run --------------------------------------------------------------------


def ensure_run(source: SourceText, settings: TrainSettings, messages: DeltaGenerator) -> TrainingRun | None:
    """The session's run for this text and these settings, restarting (and saying so) on a change."""
    identity = (text_digest(source.text), settings)
    old: TrainingRun | None = st.session_state.get(keys.RUN)
    if old is not None and old.identity == identity:
        return old
    try:
        with st.spinner("Pre-tokenizing and counting pairs…"):
            run = start_run(source.text, settings, identity=identity)
            same_text = old is not None and old.identity[0] == identity[0]
            target = old.position if same_text and old is not None else 0
            if target:
                bar = messages.progress(0.0, text=f"Retraining up to step {target}…")
                run.jump(target, progress=lambda done, total: bar.progress(min(1.0, done / max(total, 1))))
                bar.empty()
    except ValueError as exc:
        messages.error(f"Cannot train with these settings: {exc}.")
        st.session_state.pop(keys.RUN, None)
        return None
    if old is not None:
        what = changes(old.identity[1], settings) if same_text else ["the text changed"]
        where = f" and replayed to step {run.position} so you can compare" if run.position else ""
        st.session_state[keys.RUN_NOTICE] = (
            f"Training restarted ({'; '.join(what) or 'new text'}): every merge was recomputed{where}."
        )
    st.session_state[keys.RUN] = run
    st.session_state[keys.PLAYING] = False
    st.session_state[keys.QUIZ_LOG] = {}
    return run


# --- callbacks (run before the rerun, so one click = one step) ------------------------


def _run() -> TrainingRun:
    return st.session_state[keys.RUN]


def _on_next() -> None:
    run = _run()
    guess = st.session_state.get(keys.QUIZ_GUESS)
    upcoming = run.peek()
    if st.session_state.get(keys.QUIZ) and guess and upcoming is not None:
        st.session_state.setdefault(keys.QUIZ_LOG, {})[upcoming.index] = grade(guess, upcoming)
    run.forward()
    st.session_state[keys.QUIZ_GUESS] = None
    st.session_state[ACTED] = True


def _on_back() -> None:
    _run().back()
    st.session_state[ACTED] = True


def _on_reset() -> None:
    _run().reset()
    st.session_state[keys.PLAYING] = False
    st.session_state[ACTED] = True


def _on_play() -> None:
    st.session_state[keys.PLAYING] = not st.session_state.get(keys.PLAYING, False)
    st.session_state[ACTED] = True


def _on_jump() -> None:
    st.session_state[keys.JUMP_PENDING] = int(st.session_state.get(keys.JUMP_TO, 0))
    st.session_state[keys.PLAYING] = False
    st.session_state[ACTED] = True


# --- the page -------------------------------------------------------------------------


def render() -> None:
    """The whole training page."""
    st.title("🔬 Train: watch BPE learn, merge by merge")
    messages = st.container()
    with st.sidebar:
        st.header("Text")
        source = choose_source(messages)
        st.header("Training")
        settings = settings_widgets(messages)
        st.header("Classroom")
        st.toggle(
            "Quiz: guess the next merge",
            key=keys.QUIZ,
            persist_state="session",
            bind="query-params",
            help="Before Next reveals it, pick the pair you think will merge.",
        )
    if source is None or settings is None:
        return
    run = ensure_run(source, settings, messages)
    if run is None:
        return
    notice = st.session_state.pop(keys.RUN_NOTICE, None)
    if notice:
        messages.info(notice, icon="🔄")
    trainer = run.trainer
    preview = trainer.preview_text
    head = st.container()
    # Speed and jump sit outside the step fragment: at every Next the fragment redraws each of its
    # widgets (~8 ms for these two), and a new speed now re-arms Play's timer at once.
    view, speed_col, jump_col = st.columns([3.6, 1.5, 1.3], vertical_alignment="bottom")
    speed_col.selectbox(
        "Speed (per step)",
        list(SPEEDS),
        index=1,
        format_func=SPEEDS.__getitem__,
        key=keys.PLAY_SPEED,
        persist_state="session",
    )
    jump_col.number_input(
        "Jump to step",
        min_value=0,
        max_value=settings.merges,
        value=0,
        step=1,
        key=keys.JUMP_TO,
        on_change=_on_jump,
        help="Type a step number and press Enter; far jumps show progress",
    )
    whole = len(preview) > WINDOW_CHARS and view.toggle(
        f"Show all {len(preview):,} characters of the preview",
        key=keys.WHOLE_PREVIEW,
        persist_state="session",
        help=f"Off: the first {WINDOW_CHARS} characters, about two boxfuls, so each step draws quickly. "
        "On: more text to scroll through, at about twice the drawing work per step.",
    )
    shown = len(preview) if whole else min(len(preview), WINDOW_CHARS)
    head.caption(
        f"**{source.name}** · {trainer.corpus_bytes:,} bytes · {trainer.initial_tokens:,} tokens before any merge"
        f" · the sequences below show the first {shown:,} characters"
        + (" (the whole text)" if shown >= len(source.text) else f" of {len(source.text):,}")
    )
    playing = bool(st.session_state.get(keys.PLAYING, False)) and not run.at_end
    speed = st.session_state.get(keys.PLAY_SPEED, 1.0)
    large = bool(st.session_state.get(keys.PRESENTER, False))
    st.fragment(_panel, run_every=speed if playing else None)(
        armed=playing, large=large, window_bytes=len(preview[:shown].encode("utf-8"))
    )


def _panel(*, armed: bool, large: bool, window_bytes: int) -> None:
    """Controls and the current step; reruns alone on Next/Back/Jump and on Play's timer."""
    run: TrainingRun | None = st.session_state.get(keys.RUN)
    if run is None:
        return
    acted = st.session_state.pop(ACTED, False)
    playing = bool(st.session_state.get(keys.PLAYING, False))
    if playing != armed:  # Play/Pause was pressed: re-arm the timer with a full rerun
        st.rerun(scope="app")
    try:
        if playing and not acted and not run.forward():
            st.session_state[keys.PLAYING] = False
            st.rerun(scope="app")
        run.peek()  # prefetch the next merge: Next is then instant, and the end is known before Next is pressed
        pending = st.session_state.pop(keys.JUMP_PENDING, None)
        if pending is not None:
            _controls(run, playing=playing)
            bar = st.progress(0.0, text=f"Training up to step {pending}…")
            run.jump(
                pending,
                progress=lambda done, total: bar.progress(
                    min(1.0, done / max(total, 1)), text=f"Training… {done:,} of {total:,}"
                ),
            )
            bar.empty()
        if run.at_end and playing:
            st.session_state[keys.PLAYING] = False
            st.rerun(scope="app")
        show_step = _step_view(run, large=large, window_bytes=window_bytes)  # builds; sends nothing yet
        if pending is None:
            _controls(run, playing=playing)
        status = _status(run)
        if status and st.session_state.get(keys.QUIZ):
            st.html(status)  # above the quiz
            status = ""
        _quiz(run)
        show_step(status)
    except ValueError as exc:
        st.error(f"The engine stopped with an error: {exc}.")


def _controls(run: TrainingRun, *, playing: bool) -> None:
    # One horizontal container, not st.columns: five blocks fewer for the browser to redraw at every Next.
    # The buttons' size comes from theme.BASE_CSS (.st-key-<key>), in rem so presenter mode scales it.
    row = st.container(horizontal=True, gap="medium", vertical_alignment="bottom")
    row.button(
        "◀ Back",
        key="back",
        on_click=_on_back,
        disabled=run.position == 0,
        width="content",
        shortcut="Left",
        help="Previous merge (nothing retrains)",
    )
    row.button(
        "Next ▶",
        key="next",
        on_click=_on_next,
        disabled=run.at_end,
        type="primary",
        width="content",
        shortcut="Right",
        help="Reveal the next merge",
    )
    row.button(
        "Pause" if playing else "Play",
        key="play",
        on_click=_on_play,
        icon=":material/pause:" if playing else ":material/play_arrow:",
        disabled=run.at_end and not playing,
        width="content",
        shortcut="P",
        help="Step automatically at the chosen speed",
    )
    row.button(
        "Reset",
        key="reset",
        on_click=_on_reset,
        width="content",
        icon=":material/first_page:",
        help="Back to step 0; the merges learned so far are kept for replay",
    )


def _status(run: TrainingRun) -> str:
    """The step line: shown here at the start and the end, else returned as HTML to lead the figures."""
    settings: TrainSettings = run.identity[1]
    if run.at_end:
        st.success(
            f"Training finished after {run.pulled:,} merge{'s' if run.pulled != 1 else ''}: "
            f"{run.stop_reason}.",
            icon="🏁",
        )
    elif run.position == 0:
        st.info(
            "Step 0: the text as raw bytes, one token per byte. Press **Next ▶** (or the → key) "
            "to make the first merge.",
            icon="👉",
        )
    else:
        return status_html(f"Step {run.position:,}", f"of up to {settings.merges:,} merges")
    return ""


def _quiz(run: TrainingRun) -> None:
    if not st.session_state.get(keys.QUIZ):
        return
    log: dict[int, QuizResult] = st.session_state.setdefault(keys.QUIZ_LOG, {})
    result = log.get(run.position)
    if result is not None:
        show = {"right": st.success, "tied": st.warning, "wrong": st.error}[result.outcome]
        show(result.message + ".", icon={"right": "🎉", "tied": "⚖️", "wrong": "🤔"}[result.outcome])
    if log:
        right = sum(r.outcome == "right" for r in log.values())
        st.caption(f"Quiz score: {right} right out of {len(log)} guesses")
    upcoming = run.peek()
    if upcoming is None:
        return
    st.radio(
        f"🤔 Your guess for merge {upcoming.index}: which pair will merge?",
        choices(upcoming),
        index=None,
        horizontal=True,
        key=keys.QUIZ_GUESS,
    )


def _step_view(run: TrainingRun, *, large: bool, window_bytes: int) -> Callable[[str], None]:
    """Build the step's HTML, tables and chart specs; return the function that puts them on the page.

    Building first and then sending every element back to back matters in the browser: elements
    that trickle in while the script still works each set off a redraw of the page (~10 ms each
    in a Chrome trace), where a burst is drawn in one go.
    """
    # Headings, captions and figures go out as HTML next to the content they introduce: every
    # separate element (a metric is three Markdown blocks) is more work for the browser at each step.
    trainer = run.trainer
    step = run.current
    settings: TrainSettings = run.identity[1]
    special_ids = frozenset(trainer.special_tokens.values())
    tokens_now = step.tokens_after if step else trainer.initial_tokens
    figures = figures_html(
        [
            Figure("Vocab size", f"{256 + len(special_ids) + run.position:,}", delta="1" if step else None),
            Figure(
                "Corpus tokens", f"{tokens_now:,}", delta=f"{-step.replaced:,}" if step else None, good=True
            ),
            Figure("Bytes per token", f"{trainer.corpus_bytes / max(tokens_now, 1):.3f}"),
            Figure("Merges", f"{run.position:,} / {settings.merges:,}"),
        ]
    )
    left_parts: list[tuple[str, object]] = []  # ("html", markup) or ("chart", spec), in page order
    right_parts: list[tuple[str, object]] = []
    if step is None:
        left_parts.append(
            (
                "html",
                heading_html("No merge yet") + "<p>Every token is one byte. BPE counts "
                "adjacent pairs and merges the most frequent one.</p>",
            )
        )
        upcoming = run.peek()
        if upcoming is not None and not st.session_state.get(keys.QUIZ):
            left_parts.append(("html", heading_html("Pair counts now")))
            table = pair_table(upcoming).assign(status="other", chosen=False, tied=False)
            left_parts.append(("chart", pair_count_spec(table, large=large)))
    else:
        left_parts.append(
            (
                "html",
                merge_card_html(step, special_ids=special_ids, css=False)
                + heading_html(f"Pair counts before merge {step.index}"),
            )
        )
        table = pair_table(step)
        left_parts.append(("chart", pair_count_spec(table, large=large)))
        # Plain HTML, not st.dataframe: a small static table redraws far faster at every step.
        left_parts.append(
            (
                "html",
                html_table(
                    table[["rank", "pair", "count", "status", "left_id", "right_id"]],
                    row_classes=[f"ms-{s}" for s in table["status"]],
                    wrap=True,
                ),
            )
        )

    # Only the window's tokens go to the browser (their spans are most of its work at each step).
    vocab = trainer.vocab
    after = run.sequence()
    shown_after = max(1, window_length(after, vocab, window_bytes))
    if step is None:
        right_parts.append(
            (
                "html",
                heading_html("The sequence (raw bytes)")
                + token_spans_html(after, vocab, special_ids=special_ids, css=False, max_tokens=shown_after),
            )
        )
    else:
        before = run.sequence(run.position - 1)
        shown_before = max(1, window_length(before, vocab, window_bytes))
        try:
            old_pos, new_pos = merged_positions(before, after, pair=step.pair, new_id=step.new_id)
        except ValueError:
            old_pos, new_pos = [], [i for i, t in enumerate(after) if t == step.new_id]
        new_here = sum(p < shown_after for p in new_pos)
        right_parts.append(
            (
                "html",
                heading_html(f"After merge {step.index}")
                + caption_html(
                    f"{min(shown_after, len(after)):,} of {len(after):,} tokens in the "
                    f"preview; the {new_here:,} new tokens among them are outlined"
                )
                + token_spans_html(
                    after,
                    vocab,
                    emphasize=new_pos,
                    special_ids=special_ids,
                    css=False,
                    max_tokens=shown_after,
                ),
            )
        )
        right_parts.append(
            (
                "html",
                heading_html(f"Before merge {step.index}")
                + caption_html(
                    f"{min(shown_before, len(before)):,} of {len(before):,} tokens; "
                    "the pairs that merge are outlined"
                )
                + token_spans_html(
                    before,
                    vocab,
                    emphasize=old_pos,
                    special_ids=special_ids,
                    css=False,
                    max_tokens=shown_before,
                )
                + heading_html("Corpus tokens by step"),
            )
        )
        series = tokens_by_step(trainer.initial_tokens, run.records[: run.position])
        right_parts.append(("chart", tokens_line_spec(series, current_step=run.position, large=large)))
    merges = _merges_so_far(run, large=large) if step is not None else None

    def show(lead: str = "") -> None:
        st.html(lead + figures)
        left, right = st.columns([1.05, 1], gap="large")
        for column, parts in ((left, left_parts), (right, right_parts)):
            for kind, content in parts:
                if kind == "chart":
                    column.vega_lite_chart(content, width="stretch")
                else:
                    column.html(content)
        if merges is not None:
            merges()

    return show


RECENT_MERGES = 12


def _merges_so_far(run: TrainingRun, *, large: bool) -> Callable[[], None]:
    """Build the merges-so-far section; return the function that puts it on the page."""
    steps = run.records[: run.position]
    longest = longest_tokens(steps, n=10).rename(columns={"crosses_words": "🚩"})
    crossing = sum(crosses_word_boundary(s.token) for s in steps)
    note = (
        f"🚩 {crossing} token(s) cross a word boundary; try pre-tokenization GPT-2 to prevent them."
        if crossing
        else "No token crosses a word boundary so far."
    )
    longest_html = heading_html("Longest tokens so far") + html_table(longest, wrap=True) + caption_html(note)
    heading = heading_html(f"Merges so far ({len(steps):,})")
    show_all = bool(st.session_state.get(keys.ALL_MERGES))
    if show_all:
        table = merges_table(steps)
        both = ""
    else:
        recent = merges_table(steps[: -RECENT_MERGES - 1 : -1]).rename(columns={"crosses_words": "🚩"})
        recent_html = (
            heading
            + caption_html(
                f"The latest {len(recent)} merges, newest first; the CSV below has all {len(steps):,}."
            )
            + html_table(recent, wrap=True)
        )
        # Both tables side by side in one HTML block (a CSS grid, see blocks.BLOCK_CSS): one element to
        # redraw at every Next where st.columns made five.
        both = f'<hr class="ms-rule"><div class="ms-split"><div>{recent_html}</div><div>{longest_html}</div></div>'

    def show() -> None:
        if show_all:
            st.html('<hr class="ms-rule">' + heading)
            row = 46 if large else 35
            st.dataframe(
                table,
                hide_index=True,
                height=min(row * (len(table) + 1) + 3, 9 * row),
                width="stretch",
                row_height=row,
                column_config={
                    "crosses_words": st.column_config.CheckboxColumn(
                        "crosses words",
                        help=(
                            "The token runs past the end of a word (like 'e␣'): a word-splitting pre-tokenizer "
                            "prevents it"
                        ),
                    )
                },
            )
        else:
            st.html(both)
        st.toggle(
            "Show every merge (sortable table)",
            key=keys.ALL_MERGES,
            help="Off: the latest merges as a light table, quicker to redraw at every step.",
        )
        # A callable: the CSV is built when the button is clicked, not at every step (a file sent with
        # each step also made the browser fetch its new URL to check it, at every Next).
        st.download_button(
            "⬇ Merges as CSV",
            lambda: merges_csv(steps),
            file_name=f"merges_{len(steps)}.csv",
            mime="text/csv",
            key="download_merges",
            on_click="ignore",
        )
        if show_all:
            st.html(longest_html)

    return show
