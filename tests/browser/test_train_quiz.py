"""The quiz on the Train page in a real browser (issue #40: 2, 3, 4, 7 and 11).

The stage asks before it tells: during a question the guess takes the ranked counts' place (a teacher
may keep them in sight with "Counts as a hint"); Next judges the guess in the page and reveals the step
with its counts and the verdict; the server keeps every answer the stage reports, however quick the
rounds.  Number keys choose a guess, the arrows only step.  Skipped with the reason when chromium or
playwright is missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.support import open_app, streamlit_server, wait_idle
from tests.browser.test_accessibility import AXE
from tests.browser.test_train import CLASSIC, _browser, _card, _choice, _guess, _open

QUICK = 10_000  # ms: a step drawn in the browser comes well within this
ROUNDS = 30
# What the stage holds (its own state; the fit walk reads it too): the answers the server listed in the
# last window it sent, and the ones judged in the page.
ANSWERS = """() => { const s = document.querySelector('.ms-stage').__ms;
  return {listed: s.data.answers.length, judged: s.answers.size}; }"""
BARS = ".ms-stage .ms-pairscol .ms-bar"
# axe-core on the stage alone (the page's own findings are test_accessibility.py's): serious and critical.
STAGE_AXE = """async () => {
  const result = await axe.run(document.querySelector('.ms-stage'), {resultTypes: ["violations"]});
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({id: v.id, nodes: v.nodes.map((n) => n.target.join(" "))}));
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


def stage_violations(page) -> list[dict]:
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(STAGE_AXE)


def _status(page) -> str:
    return page.locator(".ms-stage .ms-status").inner_text()


def test_quick_rounds_are_all_counted_each_with_a_verdict(server: str) -> None:
    """Thirty rounds as fast as the keys go (a number, →, →), no waiting for the server: a verdict
    at every reveal, the score counts all thirty, and the server keeps all thirty."""
    with _browser(width=1280, height=720) as page:
        page.emulate_media(reduced_motion="reduce")
        _open(page, server, "corpus=lighthouse_story&pattern=none&quiz=true&presenter=true")
        _guess(page).wait_for()
        for n in range(1, ROUNDS + 1):
            page.locator(".ms-stage .ms-guessbox").wait_for(timeout=QUICK)  # the question (a window away)
            assert page.locator(BARS).count() == 0, f"round {n}: the counts show during the question"
            page.keyboard.press(str(1 + n % 3))
            page.keyboard.press("ArrowRight")
            assert page.locator(".ms-stage").get_attribute("data-pos") == str(n)
            verdict = page.locator(".ms-stage .ms-status .ms-verdict").inner_text()
            assert re.match(r"^(🎉 Right!|⚖️ Tied:|🤔 Not this time:)", verdict), (n, verdict)
            assert f" of {n} right" in _status(page), (n, _status(page))
            assert page.locator(BARS).count() > 0, f"round {n}: the counts come with the reveal"
            page.keyboard.press("ArrowRight")  # the next question
        page.wait_for_function(f"() => ({ANSWERS})().listed === {ROUNDS}", timeout=30_000)
        assert page.evaluate(ANSWERS) == {"listed": ROUNDS, "judged": ROUNDS}
        wait_idle(page)


def test_the_counts_come_with_the_answer_unless_given_as_a_hint(server: str) -> None:
    with _browser() as page:  # the sidebar open beside the stage
        _open(page, server, CLASSIC + "&quiz=true")
        page.get_by_text("Your guess for merge 1:").wait_for()
        assert page.locator(BARS).count() == 0, "step 0's counts rank merge 1's pair first"
        _choice(page, "e + s").click()  # merge 1 is s + t (9 times)
        page.get_by_role("button", name="Next ▶").click()
        _card(page, 1).wait_for(timeout=QUICK)
        chosen = page.locator(".ms-stage .ms-pairscol .ms-bar.ms-chosen")  # the answer, with its count
        assert re.sub(r"\s+", " ", chosen.inner_text()).startswith("s + t 9"), chosen.inner_text()
        page.get_by_role("button", name="Next ▶").click()
        page.get_by_text("Your guess for merge 2:").wait_for(timeout=QUICK)
        assert page.locator(BARS).count() == 0
        # The teacher turns the hint on: the counts stay in sight beside the question.
        page.locator('[data-testid="stSidebar"]').get_by_text("Counts as a hint").click()
        page.locator(BARS).first.wait_for(timeout=QUICK)
        assert page.locator(".ms-stage .ms-guessbox").is_visible()
        wait_idle(page)


def test_the_quiz_takes_no_room_above_the_stage(server: str) -> None:
    """The guess sits in the chart's place: the stage starts where it does without the quiz."""
    tops = []
    for quiz in ("false", "true"):
        with _browser(width=1280, height=720) as page:
            _open(page, server, CLASSIC + f"&presenter=true&quiz={quiz}")
            wait_idle(page)
            tops.append(page.locator(".ms-stage").evaluate("e => Math.round(e.getBoundingClientRect().top)"))
    assert tops[0] == tops[1], tops


def test_number_keys_choose_and_the_arrows_never_change_a_guess(server: str) -> None:
    with _browser() as page:
        _open(page, server, CLASSIC + "&quiz=true")
        page.get_by_text("Your guess for merge 1:").wait_for()
        page.keyboard.press("ArrowRight")  # no guess: the answer is named, nothing counted
        _card(page, 1).wait_for(timeout=QUICK)
        assert _status(page).startswith("No guess this time: the answer was s + t.")
        page.keyboard.press("ArrowRight")
        page.get_by_text("Your guess for merge 2:").wait_for(timeout=QUICK)
        choices = _guess(page).locator(".ms-choice")
        page.keyboard.press("3")
        pressed = "els => els.map(e => e.getAttribute('aria-pressed'))"
        assert choices.evaluate_all(pressed)[:3] == ["false", "false", "true"]
        for key in ("ArrowDown", "ArrowUp", "ArrowDown"):
            page.keyboard.press(key)
            assert choices.evaluate_all(pressed)[:3] == ["false", "false", "true"], key
        page.keyboard.press("ArrowLeft")  # back to step 0, then on to the question again: still chosen
        assert page.locator(".ms-stage").get_attribute("data-pos") == "0"
        page.keyboard.press("ArrowRight")
        page.get_by_text("Your guess for merge 2:").wait_for(timeout=QUICK)
        assert _guess(page).locator(".ms-choice").evaluate_all(pressed)[:3] == ["false", "false", "true"]
        picked = _guess(page).locator(".ms-choice").nth(2).get_attribute("title").rsplit(" (key", 1)[0]
        page.keyboard.press("ArrowRight")
        _card(page, 2).wait_for(timeout=QUICK)
        assert picked in page.locator(".ms-stage .ms-status .ms-verdict").inner_text()
        wait_idle(page)


def test_the_merge_order_section_comes_into_view_as_it_opens(server: str) -> None:
    with _browser(width=1280, height=720) as page:
        _open(page, server, CLASSIC + "&step=4")
        section = page.locator('[data-testid="stExpander"]').filter(has_text="Merge order matters")
        assert section.evaluate("e => e.getBoundingClientRect().top") > 720, "below the stage, out of sight"
        section.get_by_text("Merge order matters").click()
        page.get_by_text("Reversed · ").first.wait_for(timeout=60_000)
        wait_idle(page)
        page.wait_for_function(
            """() => {
              const e = [...document.querySelectorAll('[data-testid="stExpander"]')]
                .find(e => e.textContent.includes('Merge order matters'));
              const header = document.querySelector('[data-testid="stHeader"]').getBoundingClientRect();
              const top = e.getBoundingClientRect().top;
              return top >= header.bottom - 1 && top < innerHeight / 3;  // its heading high on the screen
            }""",
            timeout=QUICK,
        )


@pytest.mark.skipif(not AXE.is_file(), reason="axe-core is not installed: npm ci --prefix .ci/node")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_question_and_the_reveal_pass_axe(server: str, theme: str) -> None:
    """No serious or critical axe-core finding on the stage in either state of the quiz, light and
    dark (the verdict's colours, the chosen choice's, the keys' numbers, the choices' names)."""
    dark = "&embed_options=dark_theme" if theme == "dark" else ""
    with _browser(width=1280, height=720) as page:
        _open(page, server, CLASSIC + "&quiz=true&presenter=true" + dark)
        page.get_by_text("Your guess for merge 1:").wait_for()
        page.keyboard.press("2")
        found = {"question": stage_violations(page)}
        wrong = "() => document.querySelector('.ms-stage').__ms.questions.get(2).choices"
        for pick in ("s + t", "wrong"):  # right, then wrong: both verdicts' colours
            if pick == "wrong":
                page.keyboard.press("ArrowRight")
                page.get_by_text("Your guess for merge 2:").wait_for(timeout=QUICK)
                pick = page.evaluate(wrong + ".find(c => c.outcome === 'wrong').label")
            _choice(page, pick).click()
            page.keyboard.press("ArrowRight")
            page.locator(".ms-stage .ms-status .ms-verdict").wait_for(timeout=QUICK)
            page.wait_for_function("() => document.getAnimations().length === 0")
            found[f"reveal after {pick}"] = stage_violations(page)
        assert page.locator(".ms-stage .ms-verdict.ms-wrong").count() == 1
        assert not any(found.values()), found
        wait_idle(page)


def _open_scheme(page, url: str) -> None:
    open_app(page, url, heading="Train: watch")  # each scheme's page names its scheme
    page.locator(".ms-stage .ms-card").wait_for()


def test_wordpiece_and_unigram_ask_their_own_question_in_the_stage(server: str) -> None:
    with _browser(width=1280, height=720) as page:
        _open_scheme(page, f"{server}/train?scheme=wordpiece&corpus=hug_pug_pun&quiz=true&presenter=true")
        page.get_by_text("Your guess for merge 1:").wait_for()
        assert page.locator(BARS).count() == 0, "the scores would give the answer away"
        _choice(page, "##u + ##g").click()  # the most frequent pair: BPE's pick, not WordPiece's
        page.keyboard.press("ArrowRight")
        verdict = page.locator(".ms-stage .ms-status .ms-verdict").inner_text()
        assert verdict.startswith("🤔 Not this time: ##u + ##g is the most frequent pair (BPE's pick)"), (
            verdict
        )
        assert page.locator(BARS).count() > 0
        query = "scheme=unigram&corpus=kind_kindness_unkind&ug_vocab=50&quiz=true&presenter=true"
        _open_scheme(page, f"{server}/train?{query}")
        page.get_by_text(re.compile(r"Which of these pieces is pruned in round 1\?")).wait_for()
        pruned = page.evaluate(
            "() => document.querySelector('.ms-stage').__ms.questions.get(1).choices"
            ".find(c => c.outcome === 'right').label"
        )
        _choice(page, pruned).click()
        page.keyboard.press("ArrowRight")
        verdict = page.locator(".ms-stage .ms-status .ms-verdict").inner_text()
        assert verdict.startswith("🎉 Right! Without") and "Quiz score: 1 of 1 right" in _status(page)
        wait_idle(page)
