"""WordPiece's and Unigram's stage producers against the engine: every number the stage shows is the
engine's, the pieces shown are the engine's cuts, and the window is the contract's records."""

from __future__ import annotations

import html
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.tokenizer.unigram_lattice import lattice
from bpe_core.training.unigram import unigram_steps
from bpe_core.training.wordpiece import wordpiece_steps
from mergescope_ui.shared.stage.contract import RECORDS, wire
from mergescope_ui.shared.stage.markup import TAGS
from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.train.lattice_view import lattice_html
from mergescope_ui.train.scheme_run import SchemeSettings, start_scheme_run
from mergescope_ui.train.unigram_stage import UnigramViews, changed_spans
from mergescope_ui.train.wordpiece_stage import WordPieceViews
from tests.ui.train.stage_driver import LOSSES, assert_losses_shown

CORPORA = Path(__file__).resolve().parents[3] / "corpora"
HUG = (CORPORA / "hug_pug_pun.txt").read_text(encoding="utf-8")
STORY = (CORPORA / "lighthouse_story.txt").read_text(encoding="utf-8")
KIND = (CORPORA / "kind_kindness_unkind.txt").read_text(encoding="utf-8")


def test_tiny_unigram_rounds_read_their_change_and_why_no_cut_changed() -> None:
    """The kind corpus's rounds 3-5 move the loss by under 0.001 and cut no word anew: the card shows
    the change (not "+0.00", not "(-0.00)"), the status says why no cut changed, the bars of pieces in
    no best cut read "0", not "+0.00"."""
    run = start_scheme_run(KIND, SchemeSettings(scheme="unigram", vocab_size=50))
    views = UnigramViews(run, KIND)
    run.jump(99)
    tiny = [r for r in views.rounds if 0 < abs(r.loss_after - r.loss_before) < 0.001]
    assert len(tiny) >= 2
    for rnd in tiny:
        view = views.view(rnd.index)
        card = _text(view.card)
        assert "0.00)" not in card and "+0.00" not in _text(view.pairs)
        assert_losses_shown(card, rnd.loss_before, rnd.loss_after)
        assert view.places is None
        assert f"none of the {len(rnd.pruned)} pieces it pruned was in any word's best cut" in view.status
        delta = LOSSES.search(card).group(3)  # type: ignore[union-attr]
        assert "re-estimating" in view.status and f"probabilities did: {delta} (" in view.status
        zero = [p for p in rnd.pruned[:6] if p.increase == 0]
        numbers = re.findall(r'<span class="ms-bar-n">([^<]*)</span>', view.pairs)
        assert zero and numbers[: len(zero)] == ["0"] * len(zero)


def _ids(spans) -> list[int]:
    return [i for s in spans for i in s.ids]


def _text(html_text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", html_text))


@pytest.mark.parametrize(("text", "steps"), [(HUG, 6), (STORY, 60)], ids=["hug", "story"])
def test_wordpiece_cards_charts_and_places_are_the_engines(text: str, steps: int) -> None:
    run = start_scheme_run(text, SchemeSettings(scheme="wordpiece", steps=steps))
    views = WordPieceViews(run, text)
    run.jump(steps)
    engine = wordpiece_steps(text, vocab_size=run.trainer.options.vocab_size)
    for k, step in enumerate(engine, start=1):
        assert run.records[k - 1] == step
        view = views.view(k)
        card = _text(view.card)
        assert f"score = {step.count:,} / ({step.left_count:,} × {step.right_count:,})" in card, k
        assert f"count({step.left})" in card and f"count({step.right})" in card
        # the chart: ranked by score, the winner first, BPE's pick marked when it is another pair
        rows = re.findall(r'<div class="ms-bar ms-(\w+)" title="([^"]*)"', view.pairs)
        assert rows[0][0] == "chosen" and html.unescape(rows[0][1]).startswith(f"{step.left} + {step.right} ")
        marked = [html.unescape(t).split(" · ")[0] for s, t in rows if s == "bpe"]
        differs = step.bpe_pair is not None and step.bpe_pair != step.pair
        assert marked == ([" + ".join(step.bpe_pair)] if differs else []), k  # type: ignore[arg-type]
        assert ("BPE would merge the same pair" in card) is not differs
        if differs:
            a, b = step.bpe_pair  # type: ignore[misc]
            bpe = step.top_by_count[0]
            assert f"BPE would merge {a} + {b}: it occurs {bpe.count:,} times" in card
            tied = bpe.exact_score == Fraction(step.count, step.left_count * step.right_count)
            assert ("scores as much" in card) is tied and ("but scores only" in card) is not tied
        # the places: each word the merge changed, and their counts add up to the engine's places merged
        words = views.replay.changed[k]
        merged = sum(
            run.trainer.word_counts[views.replay.words[wi]]
            * sum(1 for s in views.merged(views.replay.split_at(wi, k - 1), step) if s.mark == "new")
            for wi in words
        )
        assert merged == step.replaced and view.places is not None and view.places.total == len(words)
    # every word's pieces after the last step are the engine's
    for wi, word in enumerate(views.replay.words):
        assert list(views.replay.split_at(wi, run.pulled)) == run.trainer.split(word)


def test_wordpiece_continuation_pieces_show_their_hashes() -> None:
    run = start_scheme_run(HUG, SchemeSettings(scheme="wordpiece", steps=3))
    views = WordPieceViews(run, HUG)
    run.jump(3)
    window = views.window(position=1, serial=0, settings=StageSettings())
    shown = {html.unescape(label.text) for label in window.labels.values()}
    assert {"##gs", "##u", "h", "p"} <= shown
    head = [views.trainer.vocab[i] for i in _ids(views.view(1).head)]
    assert head[:6] == ["h", "##u", "##g", "p", "##u", "##g"]


def test_the_hug_corpus_is_where_bpe_and_wordpiece_part_at_the_first_step() -> None:
    step = next(wordpiece_steps(HUG, vocab_size=100))
    assert (step.pair, step.count, step.left_count, step.right_count) == (("##g", "##s"), 5, 20, 5)
    bpe = step.top_by_count[0]
    assert step.bpe_pair == ("##u", "##g") == (bpe.left, bpe.right) and bpe.count == 20
    described = (CORPORA / "index.toml").read_text(encoding="utf-8")
    assert "`u g` (20 times)" in described and "score 5 / (20 × 5)" in described


def test_the_kind_corpus_prunes_as_its_description_says() -> None:
    trainer = unigram_steps(KIND, vocab_size=50)
    rounds = list(trainer)
    tok = trainer.tokenizer()
    assert len(trainer.seed.pieces) == 236 and len(rounds) == 6 and rounds[-1].vocab_size == 50
    cuts = {w: tok.encode_pieces(w) for w in ("kindness", "darkest", "unkind")}
    assert cuts == {"kindness": ["▁kind", "ness"], "darkest": ["▁dark", "est"], "unkind": ["▁un", "kind"]}
    described = (CORPORA / "index.toml").read_text(encoding="utf-8")
    assert "seed of 236 pieces down to 50 in 6 rounds" in described
    assert "`▁kind ness`, `▁dark est`, `▁un kind`" in described


def test_unigram_rounds_cards_charts_and_cuts_are_the_engines() -> None:
    run = start_scheme_run(KIND, SchemeSettings(scheme="unigram", vocab_size=50))
    views = UnigramViews(run, KIND)
    run.jump(99)
    engine = list(unigram_steps(KIND, vocab_size=50, seed_size=20_000, top_k=20))
    assert run.records == engine and run.finished
    for k, rnd in enumerate(engine, start=1):
        view = views.view(k)
        card = _text(view.card)
        assert_losses_shown(card, rnd.loss_before, rnd.loss_after)
        assert f"{rnd.vocab_size_before:,}→{rnd.vocab_size:,}" in card
        bars = re.findall(r'<div class="ms-bar ms-(pruned|kept)" title="“([^”]*)”', view.pairs)
        assert [p for s, p in bars if s == "pruned"] == [p.piece for p in rnd.pruned[:6]]
        assert [p for s, p in bars if s == "kept"] == [p.piece for p in rnd.closest_kept[:4]]
        # the scores the views cut with are the engine's after the round
        assert run.scores[k].keys() == {
            p for p in run.scores[k - 1] if p not in {q.piece for q in rnd.pruned}
        }
    # the text's best cut after the last round is the engine tokenizer's
    tok = run.trainer.tokenizer()
    shown = [views.piece(i) for i in _ids(views.view(run.pulled).head)]
    assert shown == [p for p in tok.encode_pieces(KIND[:600]) if p]


def test_unigram_places_are_the_words_whose_best_cut_changed() -> None:
    run = start_scheme_run(KIND, SchemeSettings(scheme="unigram", vocab_size=50))
    views = UnigramViews(run, KIND)
    run.jump(99)
    for k in range(1, run.pulled + 1):
        old = unigram_steps(KIND, vocab_size=50, seed_size=20_000)
        for _ in range(k - 1):
            next(old)
        before = {w: old.lattice(w).best.pieces for w in old.words}  # the engine's Viterbi
        next(old)
        after = {w: old.lattice(w).best.pieces for w in old.words}  # the engine's Viterbi
        expect = [w for w in old.words if before[w] != after[w] and not w.isspace()]
        got = [w for w in views.changed_words(k) if not w.isspace()]
        assert got == expect, k


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=8), st.data())
def test_changed_spans_keep_both_cuts(widths: list[int], data) -> None:
    total = sum(widths)
    cuts = sorted(data.draw(st.sets(st.integers(1, total - 1), max_size=total)) if total > 1 else [])
    other = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]

    # ids: a piece's id is 100 x start + length, so equal ids mean equal pieces
    def ids(parts: list[int]) -> list[int]:
        out, at = [], 0
        for w in parts:
            out.append(100 * at + w)
            at += w
        return out

    before, after = ids(widths), ids(other)
    width = [0] * (100 * total + 100)
    for i in before + after:
        width[i] = i % 100
    spans = changed_spans(before, after, width)
    assert _ids(spans) == after
    assert [i for s in spans for i in (s.was if s.was else s.ids)] == before
    assert all((s.mark == "new") == (s.was is not None and s.was != s.ids) for s in spans)


def test_lattice_html_draws_every_piece_and_escapes_them() -> None:
    scores = {p: math.log(0.1) for p in ["<", "b", ">", "<b", "b>", "<b>"]}
    lat = lattice("<b>", scores)
    page = lattice_html(lat)
    boxes = re.findall(r'<div class="ms-lat-e( ms-lat-best)?"', page)
    assert len(boxes) == len(lat.edges) == 6 and sum(bool(b) for b in boxes) == len(lat.best.pieces)
    assert page.count("<tr") == 1 + len(lat.segmentations) == 5
    assert "&lt;b&gt;" in page and "<b>" not in page


@pytest.mark.parametrize("scheme", ["wordpiece", "unigram"])
def test_a_window_is_json_of_contract_records(scheme: str) -> None:
    text = "<b>kind</b> & unkind kindness " * 8 + KIND
    settings_ = (
        SchemeSettings(scheme=scheme, steps=10)
        if scheme == "wordpiece"
        else SchemeSettings(scheme=scheme, vocab_size=60)
    )
    run = start_scheme_run(text, settings_)
    views = WordPieceViews(run, text) if scheme == "wordpiece" else UnigramViews(run, text)
    run.jump(3)
    window = views.window(position=2, serial=1, settings=StageSettings(large=True))
    data = json.loads(json.dumps(wire(window)))
    assert data["position"] == 2 and [v["step"] for v in data["views"]] == [0, 1, 2, 3]
    assert all(type(v) in RECORDS for v in window.views)
    labels = "".join(label["text"] for label in data["labels"].values())
    assert "<" in labels, "markup in the text stays text: plain text the stage puts in as text nodes"
    elements = [e for v in data["views"] for name in ("card", "pairs") for e in _elements(v[name])]
    assert elements and {e["tag"] for e in elements} <= TAGS
    assert not [e for e in elements if e["tag"] == "b" and e["children"] == ["kind"]], "<b> stays text"


def _elements(nodes: list) -> list[dict]:
    """Every element of a block sent as element trees (markup.Element as JSON)."""
    out = [n for n in nodes if isinstance(n, dict)]
    return out + [e for n in out for e in _elements(n["children"])]
