"""Lesson presets reproduce their published merges (issue 22 #8), in the engine and on the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bpe_core import train_steps
from bpe_core.tokenizer.merge_order import reordered, reversed_order
from bpe_core.training import STOP_NO_PAIRS_IN_CHUNKS
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.inputs.corpora import find_corpus, load_text
from mergescope_ui.train import keys
from mergescope_ui.train.presets import BY_ID, PRESETS, Preset
from tests.ui.train.stage_driver import send
from tests.ui.train.train_page import open_train

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"


def _trained(preset: Preset):
    text = load_text(find_corpus(preset.corpus)) if preset.corpus else preset.text
    run = train_steps(
        text,
        vocab_size=256 + preset.merges,
        pattern=preset.pattern,
        tie_break=preset.tie_break,
        min_frequency=preset.min_frequency,
    )
    return list(run), run


def _named(steps) -> list[str]:
    return [f"{s.left.decode()} {s.right.decode()}" for s in steps]


@pytest.mark.parametrize("preset", PRESETS, ids=[p.id for p in PRESETS])
def test_each_preset_gives_its_published_merges_pair_by_pair(preset: Preset) -> None:
    steps, _ = _trained(preset)
    assert _named(steps)[: len(preset.published)] == list(preset.published)


def test_sennrich_runs_on_to_whole_words_and_never_merges_a_pair_seen_once() -> None:
    for preset in (BY_ID["sennrich2016"], BY_ID["classic"]):
        steps, run = _trained(preset)
        assert min(s.count for s in steps) >= 2
        assert run.stop_reason == STOP_NO_PAIRS_IN_CHUNKS
        assert {s.token for s in steps} >= {b"low", b"newest", b"widest", b"lower"} or b"newest_" in {
            s.token for s in steps
        }


def test_lowest_id_does_not_reproduce_the_paper_past_merge_four() -> None:
    """Why the Sennrich presets use first-seen: the paper's code takes the first maximum it meets."""
    classic = BY_ID["classic"]
    steps = list(train_steps(classic.text, vocab_size=262, pattern="whitespace", tie_break="lowest-id"))
    assert _named(steps)[:4] == list(classic.published[:4]) and _named(steps)[4] == "e w"


def test_gpt2_bytes_encodes_the_wikipedia_string_as_published() -> None:
    _, run = _trained(BY_ID["gpt2_bytes"])
    assert run.tokenizer().encode("aaabdaaabac") == [258, 100, 258, 97, 99]  # XdXac


def test_order_abc_cuts_differently_in_the_other_order() -> None:
    _, run = _trained(BY_ID["order_abc"])
    tok = run.tokenizer()
    other = reordered(tok, reversed_order(len(tok.merges)))
    assert [tok.vocab[i] for i in tok.encode("abc")] == [b"ab", b"c"]
    assert [other.vocab[i] for i in other.encode("abc")] == [b"a", b"bc"]


@pytest.mark.parametrize("preset_id", ["sennrich2016", "cs336"])
def test_choosing_a_preset_on_the_page_shows_its_merges(preset_id: str) -> None:
    at = open_train()
    at.selectbox(key=keys.PRESET).select(preset_id).run()
    assert not at.exception
    send(at, jump=len(BY_ID[preset_id].published))
    run = at.session_state[shared_keys.RUN]
    assert _named(run.records[: run.position]) == list(BY_ID[preset_id].published)


def test_the_classic_corpus_gives_the_papers_merges_by_default_and_stops() -> None:
    at = open_train()
    at.selectbox(key=keys.SOURCE).select("low_lower_newest_widest").run()
    send(at, jump=60)
    run = at.session_state[shared_keys.RUN]
    assert _named(run.records)[:10] == list(BY_ID["classic"].published)
    assert run.stop_reason == STOP_NO_PAIRS_IN_CHUNKS and run.position == 12
    assert min(s.count for s in run.records) >= 2


def test_a_link_to_the_classic_corpus_alone_brings_its_lesson() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["corpus"] = "low_lower_newest_widest"
    at.run()
    at.switch_page(TRAIN).run()
    assert at.session_state[shared_keys.RUN].trainer.options.tie_break == "first-seen"
