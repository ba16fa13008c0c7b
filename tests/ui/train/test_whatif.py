"""The Train page's "What if?" sections under AppTest: each of the three changes, the comparison in step
with the real history, back in one click, the link, and the merge-order lesson.

The tests move the real run with its own API (``run.jump``) and rerun, not with the page's step
buttons, so they hold whatever stepper the page draws.
"""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bpe_core.analysis.side_by_side import align, compare_cuts
from bpe_core.tokenizer.merge_order import reordered, reversed_order
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.workers.cache import corpus_text
from mergescope_ui.train import keys
from mergescope_ui.train.whatif import keys as whatif_keys

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"
SENNRICH = {keys.SOURCE: "low_lower_newest_widest", keys.PATTERN: "whitespace", keys.TIE_BREAK: "lowest-id"}
L_O, O_W, N_E = (108, 111), (111, 119), (110, 101)


def _train(query: dict[str, str] | None = None, **state) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(TRAIN).run()
    assert not at.exception, at.exception
    return at


def _run(at: AppTest):
    return at.session_state[shared_keys.RUN]


def _go(at: AppTest, step: int) -> AppTest:
    """Show merge ``step`` of the real history, as the page's stepper would."""
    _run(at).jump(step)
    at.run()
    assert not at.exception, at.exception
    return at


def _open_whatif(at: AppTest) -> AppTest:
    at.session_state[whatif_keys.ENTRY] = True
    at.run()
    assert not at.exception, at.exception
    return at


def _branch(at: AppTest):
    return at.session_state[whatif_keys.BRANCH] if whatif_keys.BRANCH in at.session_state else None  # noqa: SIM401 (no .get)


def _html(at: AppTest) -> str:
    return "\n".join(h.value for h in at.html)


def test_breaking_the_tie_the_other_way_at_merge_3() -> None:
    at = _open_whatif(_go(_train(**SENNRICH), 3))
    assert [r.value for r in at.radio if r.key != "scheme"] == [
        "tie"
    ]  # merge 3 tied (l, o) with (o, w): the tie is offered first
    assert at.selectbox(key=whatif_keys.TIE_PAIR).options == ["o + w  (7×)"]
    at.button(key=whatif_keys.START).click().run()
    assert not at.exception, at.exception
    branch = _branch(at)
    assert branch is not None and branch.what_if.to_param() == "3.tie.111-119"
    assert [s.token for s in branch.run.records] == [b"es", b"est", b"ow"]
    assert branch.run.records[2].forced and branch.run.records[2].rule_pair == L_O
    assert at.query_params[whatif_keys.URL_PARAM] == "3.tie.111-119"
    page = _html(at)
    assert "at merge 3 the tie was broken the other way: o + w instead of l + o" in page
    assert "Real history · " in page and "What if · " in page
    assert '<tr class="ms-part"><td class="ms-num">3</td><td>lo</td><td>ow</td><td>≠</td></tr>' in page


def test_blocking_the_pair_and_stepping_both_histories_together() -> None:
    at = _open_whatif(_go(_train(**SENNRICH), 3))
    at.radio(key=whatif_keys.KIND).set_value("block").run()
    at.button(key=whatif_keys.START).click().run()
    branch = _branch(at)
    assert branch.what_if.to_param() == "3.block.108-111" and branch.run.trainer.options.block == (L_O,)
    _go(at, 5)  # the real history moves on: the what-if follows, step for step
    assert branch.run.position == 5 and [s.token for s in branch.run.records[2:]] == [b"ow", b"low", b"ew"]
    page = _html(at)
    assert '<td class="ms-num">3</td><td>lo</td><td>ow</td><td>≠</td>' in page
    assert '<tr class="ms-same"><td class="ms-num">4</td><td>low</td><td>low</td><td>=</td></tr>' in page
    real_side = next(h.value for h in at.html if "Real history · " in h.value)
    alt_side = next(h.value for h in at.html if "What if · " in h.value)
    for side, only in ((real_side, "lo"), (alt_side, "ow")):  # under each text, the token only it has
        assert re.search(
            rf'1 token only here:</span><span class="ms-t [^"]*" title="[^"]*">{only}</span></div>', side
        )
    _go(at, 2)  # back before the branch point: one history again
    assert "the two histories are still one: they part at merge 3" in _html(at)


def test_picking_any_pair_from_the_table() -> None:
    at = _open_whatif(_go(_train(**SENNRICH), 3))
    at.radio(key=whatif_keys.KIND).set_value("pick").run()
    pick = at.selectbox(key=whatif_keys.PICK_PAIR)
    assert "n + e  (6×)" in pick.options and "l + o  (7×)" not in pick.options  # not the winner itself
    pick.set_value(N_E).run()
    at.button(key=whatif_keys.START).click().run()
    branch = _branch(at)
    assert branch.what_if.to_param() == "3.pick.110-101"
    assert branch.run.records[2].token == b"ne" and branch.run.records[2].count == 6
    assert "at merge 3, n + e was merged instead of l + o" in _html(at)


def test_the_quiz_is_not_given_away_at_step_zero() -> None:
    at = _open_whatif(_train(**SENNRICH, **{keys.QUIZ: True}))
    assert not [e for e in at.expander if "What if?" in e.label]
    _go(at, 1)
    assert [e for e in at.expander if "What if? Change merge 1" in e.label]


def test_back_to_the_real_history_in_one_click() -> None:
    at = _open_whatif(_go(_train(**SENNRICH), 3))
    at.button(key=whatif_keys.START).click().run()
    assert _branch(at) is not None
    at.button(key=whatif_keys.BACK_TO_REAL).click().run()
    assert not at.exception
    assert _branch(at) is None and whatif_keys.URL_PARAM not in at.query_params
    assert "What if · " not in _html(at) and _run(at).position == 3


def test_the_link_carries_the_branch() -> None:
    query = {"corpus": "low_lower_newest_widest", "pattern": "whitespace", "tie_break": "lowest-id"}
    at = _train(query | {whatif_keys.URL_PARAM: "3.block.108-111"})
    branch = _branch(at)
    assert branch is not None and branch.what_if.to_param() == "3.block.108-111"
    assert _run(at).position == 3 and branch.run.records[2].token == b"ow"  # shown where they part
    assert "from merge 3 on, l + o is never merged" in _html(at)


def test_a_link_with_a_what_if_this_run_cannot_make_says_so() -> None:
    query = {"corpus": "low_lower_newest_widest", "pattern": "whitespace", "tie_break": "lowest-id"}
    at = _train(query | {whatif_keys.URL_PARAM: "3.tie.97-98"})
    assert _branch(at) is None and whatif_keys.URL_PARAM not in at.query_params
    said = md_escape("(97, 98) is not a pair that tied with l + o")  # the message is Markdown, escaped
    assert any(said in w.value for w in at.warning)
    nasty = _train({whatif_keys.URL_PARAM: "[x](https://evil.example)"})
    (warning,) = [w.value for w in nasty.warning if "what-if" in w.value]
    assert "\\[x\\]\\(https\\:\u2060//evil\\.example\\)" in warning and "[x](https" not in warning


def test_a_new_run_drops_the_branch() -> None:
    at = _open_whatif(_go(_train(**SENNRICH), 3))
    at.button(key=whatif_keys.START).click().run()
    at.selectbox(key=keys.TIE_BREAK).set_value("lexicographic").run()
    assert not at.exception
    assert _branch(at) is None and whatif_keys.URL_PARAM not in at.query_params
    assert any("The what-if was dropped" in i.value for i in at.info)


def test_pasted_markup_stays_text_in_both_histories() -> None:
    nasty = "<b>x</b> <b>x</b> <img src=x onerror=alert(1)> <b>x</b>"
    at = _open_whatif(
        _go(_train(**{keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: nasty, keys.PATTERN: "none"}), 2)
    )
    at.radio(key=whatif_keys.KIND).set_value("block").run()
    at.button(key=whatif_keys.START).click().run()
    _go(at, 4)
    page = _html(at)
    assert "What if · " in page and "<img src=x" not in page and "<b>x" not in page and "&lt;" in page


def test_training_both_to_the_end_compares_the_final_vocabularies() -> None:
    at = _open_whatif(_go(_train(**SENNRICH, **{keys.MERGES: 12}), 3))
    at.radio(key=whatif_keys.KIND).set_value("block").run()
    at.button(key=whatif_keys.START).click().run()
    assert "what if, at end" not in _html(at)
    at.button(key=whatif_keys.TO_END).click().run()
    assert not at.exception
    branch = _branch(at)
    assert _run(at).finished and branch.run.finished and _run(at).position == 3
    page = _html(at)
    merges = (len(_run(at).trainer.merges), len(branch.run.trainer.merges))
    assert "what if, at end" in page
    assert f"<td>merges</td><td>3</td><td>3</td><td>{merges[0]}</td><td>{merges[1]}</td>" in page
    heldout = corpus_text("lighthouse_story")  # the default held-out text
    real_end = len(_run(at).trainer.tokenizer().encode(heldout))
    alt_end = len(branch.run.trainer.tokenizer().encode(heldout))
    assert (
        f"<td>held-out</td><td>—</td><td>—</td><td>{real_end:,} · " in page and f"<td>{alt_end:,} · " in page
    )


def _outlined(box: str) -> list[int]:
    """The ids of the outlined tokens (the places cut differently) of a token box, in order."""
    return [int(i) for i in re.findall(r'class="ms-t [^"]*ms-new" title="id (\d+)', box)]


def _places(trained, other, text: str) -> tuple[list[list[int]], list[list[int]]]:
    """The engine's places cut differently: the ids each side has there, place by place."""
    left, right = trained.encode(text), other.encode(text)
    places: tuple[list[list[int]], list[list[int]]] = ([], [])
    i = j = 0
    for stretch in align([trained.vocab[t] for t in left], [other.vocab[t] for t in right]):
        if not stretch.same:
            places[0].append(left[i : i + len(stretch.left)])
            places[1].append(right[j : j + len(stretch.right)])
        i, j = i + len(stretch.left), j + len(stretch.right)
    return places


def _shown_places(at: AppTest, places, differing: int) -> tuple[int, int]:
    """The places the page says it shows, checked against the engine's: each box outlines those
    places' tokens in order (then, at most, the start of the next place, cut by the window's end)."""
    shown = re.search(rf"Places? (\d+)(?:–(\d+))? of {differing} cut differently \(outlined\)", _html(at))
    assert shown, "the line says which places cut differently it shows"
    first, last = int(shown[1]), int(shown[2] or shown[1])
    boxes = [
        next(h.value for h in at.html if name in h.value) for name in ("Training order · ", "Reversed · ")
    ]
    for box, side in zip(boxes, places):
        outlined = _outlined(box)
        whole = [t for place in side[first - 1 : last] for t in place]
        assert outlined[: len(whole)] == whole, (first, last, outlined, side[first - 1 : last + 1])
        rest = outlined[len(whole) :]
        assert rest == (side[last][: len(rest)] if last < len(side) else [])
    return first, last


def test_the_merge_order_lesson_shows_abc_and_reorders_this_runs_merges() -> None:
    at = _go(_train(**{keys.SOURCE: "lighthouse_story", keys.PATTERN: "none"}), 40)
    at.session_state[whatif_keys.ORDER_ENTRY] = True
    at.run()
    page = _html(at)
    assert "The classic example: abc" in page and "both decode to abc" in page
    assert "Reversed · " in page and "both decode back to the text ✓" in page
    # The figures are the engine's: the training text's start under the 40 merges, and reversed.
    trained = _run(at).trainer.tokenizer().with_merges(40)
    other = reordered(trained, reversed_order(40))
    text = _run(at).trainer.preview_text[:200]
    cuts = compare_cuts(trained, other, text)
    assert cuts.differing > 3 and cuts.left_tokens < cuts.right_tokens
    assert (
        f"Training order · {cuts.left_tokens:,} tokens" in page
        and f"Reversed · {cuts.right_tokens:,} tokens" in page
    )
    # The window opens a little before the first place cut differently and outlines the places it
    # says it shows, as the engine cuts them; "Later" moves it on to the next ones, "Earlier" back.
    places = _places(trained, other, text)
    assert len(places[0]) == cuts.differing
    first, last = _shown_places(at, places, cuts.differing)
    assert first == 1 and last < cuts.differing
    assert at.button(key=whatif_keys.ORDER_EARLIER).disabled
    at.button(key=whatif_keys.ORDER_LATER).click().run()
    later = _shown_places(at, places, cuts.differing)
    assert later[0] <= last + 1 <= later[1] and not at.button(key=whatif_keys.ORDER_EARLIER).disabled
    at.button(key=whatif_keys.ORDER_EARLIER).click().run()
    assert _shown_places(at, places, cuts.differing)[0] < later[0]
    reversed_cut = next(h.value for h in at.html if "Reversed · " in h.value)
    at.radio(key=whatif_keys.ORDER_HOW).set_value("shuffle").run()
    assert any("Shuffled (seed 0) · " in h.value for h in at.html)
    at.radio(key=whatif_keys.ORDER_HOW).set_value("swap").run()
    at.number_input(key=whatif_keys.ORDER_SWAP_A).set_value(1).run()
    at.number_input(key=whatif_keys.ORDER_SWAP_B).set_value(2).run()
    assert not at.exception
    assert any("1 ⇄ 2 · " in h.value for h in at.html)
    at.text_area(key=whatif_keys.ORDER_TEXT).set_value("the the the").run()
    assert not at.exception and reversed_cut not in _html(at)
