"""The Train page with WordPiece and Unigram chosen, end to end under AppTest (the stage's events sent by
hand, as in test_page.py): the numbers shown are the engine's, the stage steps, the quiz asks each
scheme's question, the link carries the scheme, and the Viterbi lattice draws the clicked word."""

from __future__ import annotations

import html
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bpe_core.tokenizer.unigram_lattice import lattice
from bpe_core.training.unigram import unigram_steps
from bpe_core.training.wordpiece import wordpiece_steps
from mergescope_ui.train import keys
from tests.ui.train.stage_driver import assert_losses_shown, send, stage_data, view
from tests.ui.train.train_page import open_train

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"
HUG = (ROOT / "corpora" / "hug_pug_pun.txt").read_text(encoding="utf-8")
KIND = (ROOT / "corpora" / "kind_kindness_unkind.txt").read_text(encoding="utf-8")


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def test_wordpiece_steps_show_the_engines_scores_and_bpes_pick() -> None:
    at = open_train(**{keys.SCHEME: "wordpiece", keys.SOURCE: "hug_pug_pun", keys.WP_MERGES: 5})
    run = at.session_state[keys.SCHEME_RUN].run
    engine = list(wordpiece_steps(HUG, vocab_size=run.trainer.options.vocab_size))
    assert len(engine) == 5
    assert stage_data(at)["max_steps"] == 5 and view(at, 0)["heading"] == "Step 0: every word as characters"
    for k, step in enumerate(engine, start=1):
        send(at, position=k)
        assert run.position == k
        card = _text(view(at)["card"])
        assert f"score = {step.count} / ({step.left_count} × {step.right_count})" in card
        assert f"Merge {k}" in card and step.token in card
    send(at, position=1)
    first = view(at)
    assert "BPE would merge ##u + ##g: it occurs 20 times" in _text(first["card"])
    assert 'class="ms-bar ms-bpe"' in first["pairs"] and 'class="ms-bar ms-chosen"' in first["pairs"]
    assert at.query_params["scheme"] == "wordpiece" and at.query_params["step"] == "1"
    send(at, jump=50)  # past the end: where training stopped
    data = stage_data(at)
    assert run.finished and data["position"] == run.pulled == 5 and data["finished"]


def test_unigram_rounds_show_the_engines_losses_and_the_lattice_of_a_clicked_word() -> None:
    at = open_train(**{keys.SCHEME: "unigram", keys.SOURCE: "kind_kindness_unkind", keys.UG_VOCAB: 50})
    run = at.session_state[keys.SCHEME_RUN].run
    engine = list(unigram_steps(KIND, vocab_size=50, seed_size=20_000, top_k=20))
    assert view(at, 0)["heading"] == "Round 0: the seed vocabulary"
    assert "236 substrings" not in view(at, 0)["card"] and "237" in _text(view(at, 0)["card"])
    for k, rnd in enumerate(engine, start=1):
        send(at, position=k)
        assert run.position == k and run.records[k - 1] == rnd
        shown = view(at)
        card = _text(shown["card"])
        assert_losses_shown(card, rnd.loss_before, rnd.loss_after)
        assert shown["heading"] == f"Round {k}: {rnd.vocab_size_before} → {rnd.vocab_size} pieces"
        numbers = re.findall(r'<span class="ms-bar-n">([^<]*)</span>', shown["pairs"])
        assert len(numbers) >= min(len(rnd.pruned), 6) and all(n == "0" or n[0] == "+" for n in numbers)
    assert at.query_params["scheme"] == "unigram" and at.query_params["ug_vocab"] == "50"
    # the lattice: the words offered are first the ones the last round cut anew; click one
    (pills,) = at.get("button_group")
    offered = [o.content for o in pills.proto.options]
    changed = at.session_state[keys.SCHEME_RUN].views.changed_words(run.position)
    assert offered[: len(changed)] == changed[: len(offered)] and len(offered) == 12
    at.session_state[keys.LATTICE_WORD] = offered[0]
    at.run()
    drawn = [h.value for h in at.html if h.value.startswith('<div class="ms-lat"')]
    assert len(drawn) == 1
    lat = lattice(offered[0], run.scores[run.position], max_piece_length=run.trainer.longest)
    assert drawn[0].count('class="ms-lat-e') == len(lat.edges)
    assert drawn[0].count('class="ms-lat-e ms-lat-best"') == len(lat.best.pieces)
    assert f"{' | '.join(lat.best.pieces)} ◀ best (Viterbi)" in _text(drawn[0])
    at.text_input(key=keys.LATTICE_TYPED).set_value("kindness").run()  # typed: a ▁ goes in front
    drawn = [h.value for h in at.html if h.value.startswith('<div class="ms-lat"')]
    assert "▁kind | ness ◀ best (Viterbi)" in _text(drawn[0])


def test_a_typed_word_gets_its_lattice_and_markup_stays_text() -> None:
    at = open_train(**{keys.SCHEME: "unigram", keys.SOURCE: "hug_pug_pun", keys.UG_VOCAB: 12})
    at.text_input(key=keys.LATTICE_TYPED).set_value("<b>hugs").run()
    assert not at.exception
    drawn = [h.value for h in at.html if h.value.startswith('<div class="ms-lat"')]
    assert len(drawn) == 1 and "<b>" not in drawn[0] and ">&lt;</div>" in drawn[0]  # < stays text
    assert "cannot be cut" in drawn[0]
    at.text_input(key=keys.LATTICE_TYPED).set_value("x" * 64).run()
    assert not at.exception and any("at most 64" in w.value for w in at.warning)  # ▁ + 64 characters


def test_the_quiz_asks_each_schemes_question_and_grades_it() -> None:
    at = open_train(**{keys.SCHEME: "wordpiece", keys.SOURCE: "hug_pug_pun", keys.QUIZ: True})
    question = stage_data(at)["questions"][0]
    assert "Your guess for merge 1" in question["text"]
    assert "##g + ##s" in [c["label"] for c in question["choices"]]
    send(at, position=1, answers=[{"step": 1, "guess": "##u + ##g"}])
    (result,) = at.session_state[keys.QUIZ_LOG].values()
    assert result.outcome == "wrong" and "BPE's pick" in result.message
    at = open_train(
        **{keys.SCHEME: "unigram", keys.SOURCE: "hug_pug_pun", keys.UG_VOCAB: 12, keys.QUIZ: True}
    )
    run = at.session_state[keys.SCHEME_RUN].run
    question = stage_data(at)["questions"][0]
    assert "pruned in round 1" in question["text"]
    first = run.records[0].pruned[0].piece
    assert {c["label"]: c["outcome"] for c in question["choices"]}[first] == "right"
    send(at, position=1, answers=[{"step": 1, "guess": first}])
    (result,) = at.session_state[keys.QUIZ_LOG].values()
    assert result.outcome == "right" and run.position == 1


def test_bad_sizes_and_texts_get_a_message_not_a_traceback() -> None:
    at = open_train(**{keys.SCHEME: "unigram", keys.SOURCE: "hug_pug_pun", keys.UG_VOCAB: 3})
    assert any("ask for at least 10" in e.value for e in at.error), [e.value for e in at.error]
    at = open_train(**{keys.SCHEME: "wordpiece", keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: "   \n "})
    assert not at.exception and at.error and keys.SCHEME_RUN not in at.session_state
    assert not [el for el in at.get("bidi_component") if el.proto.component_name == "mergescope_stage"]


def test_the_link_opens_the_scheme_at_its_step() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update({"scheme": "wordpiece", "corpus": "hug_pug_pun", "wp_merges": "4", "step": "3"})
    at.run()
    at.switch_page(TRAIN).run()
    assert not at.exception
    run = at.session_state[keys.SCHEME_RUN].run
    assert run.identity.settings.steps == 4 and run.position == 3 and stage_data(at)["position"] == 3


def test_unigram_speaks_of_rounds_pieces_and_words_not_merges() -> None:
    """Every sentence the page and the stage show for Unigram is Unigram's (pruned, kept, loss), none of
    BPE's merges and pairs; WordPiece and BPE keep theirs."""
    at = open_train(**{keys.SCHEME: "unigram", keys.SOURCE: "hug_pug_pun", keys.UG_VOCAB: 12})
    send(at, position=1)
    data = stage_data(at)
    words = [*data["wording"].values(), *data["titles"].values(), at.toggle(key=keys.QUIZ).label]
    words += [
        at.toggle(key=keys.ANIMATE).label,
        at.toggle(key=keys.QUIZ).help,
        at.toggle(key=keys.ANIMATE).help,
    ]
    for v in data["views"]:
        words += [v["heading"], v["status"], v["before_caption"], v["after_caption"], v["figures"]]
        words += [_text(v["card"]), _text(v["pairs"])]
    assert not [w for w in words if re.search(r"\bmerg|\bpairs?\b", w, re.I)], words
    assert data["wording"]["places_tab"] == "Words cut anew" and data["wording"]["places_noun"] == "words"
    assert data["wording"]["step_noun"] == "round"  # the jump box reads "Jump to round"
    assert at.toggle(key=keys.QUIZ).label == "Quiz: guess the next piece pruned"
    at = open_train(**{keys.SCHEME: "wordpiece", keys.SOURCE: "hug_pug_pun"})
    wording = stage_data(at)["wording"]
    assert wording["places_tab"] == "Where it merged" and wording["places_noun"] == "words"
    assert wording["step_noun"] == "step"
    assert stage_data(at)["titles"] is None
    assert at.toggle(key=keys.QUIZ).label == "Quiz: guess the next merge"
