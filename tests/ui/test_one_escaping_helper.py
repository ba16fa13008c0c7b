"""Every value formatted into a Markdown-rendering message goes through ``md_escape`` (read from the source).

``st.warning``, ``st.error``, ``st.info``, ``st.success``, ``st.caption``,
``st.markdown``, ``st.write``, ``st.toast`` and the headers render Markdown, so a
value from a user, a file or a URL formatted into their text must reach them
through :func:`mergescope_ui.shared.html.safe_text.md_escape` (the one helper).  This
test reads every such call in the UI and fails on a ``{value}`` that is not an
``md_escape(...)`` call, a number (a format spec such as ``:,`` or ``len(...)``)
or a constant, unless :data:`SAFE` lists it with the reason it is safe.
``tests/ui/test_markup.py`` and ``tests/browser/test_markup.py`` send real
payloads through the pages; this catches a new message before anyone sends one.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SINKS = {"warning", "error", "info", "success", "caption", "markdown", "write", "toast"}
SINKS |= {"title", "header", "subheader", "exception"}
SAFE = {
    # file -> expressions shown unescaped, each for a reason
    # md_escape'd above; an engine STOP_* text
    "mergescope_ui/lab/compute_view.py": {"names", "run.stop_reason"},
    "mergescope_ui/lab/speed.py": {  # durations the page measured
        "human_duration(est.textbook_seconds)",
        "human_duration(est.fast_seconds)",
    },
    "mergescope_ui/tokenize/tokenizer_picker.py": {
        "names",  # md_escape'd just above
        "'\\n'.join((f'- **{md_escape(u.name)}** ({md_escape(u.source)}): {md_escape(u.reason)}' "
        "for u in local.unusable))",  # each part md_escape'd
    },
    # the page's own wording for each scheme (mergescope_ui/tokenize/schemes.py's HOOKS)
    "mergescope_ui/tokenize/main_view.py": {"pieces.marks"},
    "mergescope_ui/tokenize/details.py": {"hooks.name", "pieces.how_cut"},
    "mergescope_ui/tokenize/tab_views.py": {"hooks.no_files"},
    "mergescope_ui/train/whatif/section.py": {"k"},  # a step number
    "mergescope_ui/train/whatif/session.py": {"message"},  # built with md_escape where it is stored
    "mergescope_ui/shared/inputs/text_source.py": {
        "titles[default]",  # a built-in corpus's title
        "', '.join((c.id for c in corpora))",  # the built-in corpora's ids
        "corpus.description",  # a built-in corpus's description
        "box.missing",  # the calling page's own words
    },
    "mergescope_ui/shared/inputs/upload_widgets.py": {"instead"},  # the calling page's own words
    "pages/views/welcome.py": {"corpus.title", "corpus.description"},  # the built-in corpora
    "mergescope_ui/lab/link.py": {  # the lab's own sentence, naming only kinds of text it knows (OWN_TEXTS)
        "own_text_note(link.own, opened=True)",
        "own_text_note(own, opened=False)",
    },
    "mergescope_ui/classroom/follow.py": {"asked.number", "IDLE_SECONDS // 60"},  # numbers
    "mergescope_ui/shared/rooms/host.py": {  # numbers, and plural endings of the page's own
        "IDLE_SECONDS // 60",
        "'s' * (asked != 1)",
        "'s' * (summary.students != 1)",
    },
}


def _is_escape(node: ast.expr) -> bool:
    if not isinstance(node, ast.Call):
        return False
    return getattr(node.func, "id", getattr(node.func, "attr", "")) == "md_escape"


def _is_number_or_constant(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name) and node.id.isupper():
        return True
    if isinstance(node, ast.Subscript):  # TIE_BREAK_HELP[tie_break]
        return _is_number_or_constant(node.value)
    if isinstance(node, ast.IfExp):  # SHORT_TITLE if ... else TITLE
        return _is_number_or_constant(node.body) and _is_number_or_constant(node.orelse)
    return isinstance(node, ast.Call) and getattr(node.func, "id", "") == "len"


def unescaped(source: str) -> list[tuple[int, str]]:
    """The ``(line, expression)`` of each value formatted unescaped into a Markdown-rendering call.

    >>> unescaped('st.error(f"Cannot load {name}: {md_escape(exc)} ({n:,} bytes)")')
    [(1, 'name')]
    >>> unescaped("messages.warning(text)"), unescaped("st.info(md_escape(text))")
    ([(1, 'text')], [])
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
            continue
        if node.func.attr not in SINKS:
            continue
        first = node.args[0]
        if isinstance(first, ast.JoinedStr):
            for part in first.values:
                if not isinstance(part, ast.FormattedValue) or part.format_spec is not None:
                    continue
                if not (_is_escape(part.value) or _is_number_or_constant(part.value)):
                    found.append((part.lineno, ast.unparse(part.value)))
        elif not (_is_escape(first) or _is_number_or_constant(first) or isinstance(first, ast.BinOp)):
            found.append((first.lineno, ast.unparse(first)))
    return found


def test_every_message_formats_outside_values_through_md_escape():
    files = [*sorted((ROOT / "mergescope_ui").rglob("*.py")), *sorted((ROOT / "pages").rglob("*.py"))]
    files.append(ROOT / "app.py")
    bad = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        for line, expr in unescaped(path.read_text(encoding="utf-8")):
            if expr not in SAFE.get(rel, set()):
                bad.append(f"{rel}:{line}: {{{expr}}}")
    assert not bad, (
        "a value reaches a Markdown-rendering message unescaped: wrap it in md_escape(...) "
        "(mergescope_ui.shared.html.safe_text), or list it in SAFE with the reason it is safe:\n"
        + "\n".join(bad)
    )
