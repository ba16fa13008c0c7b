"""Link parameters with bad values (issue #29): each is ignored with a note that names it and says why,
and a long value is quoted only as a short, cut prefix (a 30 KB value once put 90 KB on the page)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mergescope_ui.shared.html.safe_text import displayed

ROOT = Path(__file__).resolve().parents[2]
HUGE = 30_000
SHORT = 600  # the most characters a note about one huge value may take


def page(path: str, params: dict[str, str], *, through_app: bool = False) -> AppTest:
    at = AppTest.from_file(str(ROOT / ("app.py" if through_app else path)), default_timeout=120)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    if through_app:
        at.switch_page(path).run()
    assert not at.exception, at.exception
    return at


def notes(at: AppTest) -> list[str]:
    return [displayed(w.value) for w in at.warning]


def test_tokenize_quotes_a_huge_tok_and_cmp_by_a_cut_prefix() -> None:
    at = page("pages/views/tokenize_page.py", {"tok": "q" * HUGE, "cmp": ",".join(["x" * 50] * 600)})
    said = notes(at)
    tok = [n for n in said if "ignored tok=" in n]
    assert len(tok) == 1 and f"{HUGE:,} characters" in tok[0] and len(tok[0]) < SHORT, tok
    cmp = [n for n in said if "cmp" in n]
    assert len(cmp) == 4 and "597 more cmp entries" in cmp[-1], cmp
    assert sum(map(len, said)) < 5 * SHORT


def test_the_lab_quotes_huge_values_by_a_cut_prefix() -> None:
    params = {"vocab": "9" * HUGE, "pattern": "p" * HUGE, "heldout": "h" * HUGE, "corpus": "c," * HUGE}
    said = notes(page("pages/views/vocab-lab.py", params, through_app=True))
    for name in ("vocab", "pattern", "heldout"):
        mine = [n for n in said if f"ignored {name} " in n]
        assert len(mine) == 1 and f"{HUGE:,} characters" in mine[0] and len(mine[0]) < SHORT, mine
    assert sum(map(len, said)) < 8 * SHORT, [len(n) for n in said]


def test_the_train_page_quotes_a_huge_whatif_by_a_cut_prefix() -> None:
    said = notes(page("pages/views/train.py", {"whatif": "w" * HUGE}))
    mine = [n for n in said if "what-if" in n]
    assert len(mine) == 1 and f"{HUGE:,} characters" in mine[0] and len(mine[0]) < SHORT, said


@pytest.mark.parametrize(
    "param, bad, why, used",
    [
        ("merges", "abc", "give a whole number from 1 to", "using 100"),
        ("merges", "0", "give a whole number from 1 to", "using 100"),
        ("merges", "9" * HUGE, "give a whole number from 1 to", "using 100"),
        ("merges", "1e400", "give a whole number from 1 to", "using 100"),
        ("min_frequency", "9" * 400, "give a whole number from 1 to", "using 1"),
        ("min_frequency", "0", "give a whole number from 1 to", "using 1"),
        ("min_frequency", "two", "give a whole number from 1 to", "using 1"),
        ("tie_break", "coin-flip", "use one of lexicographic, lowest-id", "using lexicographic"),
        ("quiz", "maybe", "use true or false", "using false"),
    ],
    ids=lambda v: v[:12] if isinstance(v, str) else v,
)
def test_a_bad_training_setting_in_a_link_is_named(param: str, bad: str, why: str, used: str) -> None:
    said = notes(page("pages/views/train.py", {param: bad}))
    mine = [n for n in said if f"link's {param}=" in n]
    assert len(mine) == 1, said
    assert "was ignored" in mine[0] and why in mine[0] and used in mine[0] and len(mine[0]) < SHORT


@pytest.mark.parametrize(
    "param, good", [("merges", "50"), ("min_frequency", "3"), ("tie_break", "hf"), ("quiz", "true")]
)
def test_a_good_training_setting_in_a_link_is_taken_silently(param: str, good: str) -> None:
    at = page("pages/views/train.py", {param: good})
    assert not [n for n in notes(at) if "link's" in n]
    assert str(at.session_state[param]).lower() == good
