"""tokenizer.json files built with HF ``tokenizers`` like today's models load here with the same ids and
the same decoded text, on hundreds of strings (corpora, hostile strings, random texts) and on hypothesis
text; the post-processor's frame too, with ``with_special_tokens=True``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bpe_core.formats import load_tokenizer
from bpe_core.pipeline import PipelineTokenizer

from .support import BUILDERS, strings, unicode_version_chars

ALL = strings()
NEWER = unicode_version_chars(ALL)
STRINGS = [s for s in ALL if not NEWER.intersection(s)]


@pytest.fixture(scope="module", params=sorted(BUILDERS))
def pair(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    hf = BUILDERS[request.param]()
    path = Path(tmp_path_factory.mktemp(request.param)) / "tokenizer.json"
    hf.save(str(path))
    ours = load_tokenizer(path, any_scheme=True)
    return hf, ours


def test_the_strings_are_hundreds_and_few_are_left_out() -> None:
    """Strings with a character HF's older Unicode tables see otherwise are left out; they are few."""
    assert len(STRINGS) >= 300
    assert len(ALL) - len(STRINGS) <= 0.05 * len(ALL), sorted(NEWER)


def test_it_loads_as_a_pipeline(pair: tuple[Any, Any]) -> None:
    hf, ours = pair
    assert isinstance(ours, PipelineTokenizer)
    assert ours.vocab_size == hf.get_vocab_size()


def test_same_ids_and_decoded_text_as_hf(pair: tuple[Any, Any]) -> None:
    hf, ours = pair
    wrong = []
    for s in STRINGS:
        ids = hf.encode(s, add_special_tokens=False).ids
        if ours.encode(s) != ids:
            wrong.append((s, "ids"))
        elif ours.decode(ids) != hf.decode(ids, skip_special_tokens=False):
            wrong.append((s, "decode"))
        elif ours.decode(ids, skip_special_tokens=True) != hf.decode(ids, skip_special_tokens=True):
            wrong.append((s, "decode without specials"))
    assert wrong == []


def test_the_post_processor_frames_as_hf(pair: tuple[Any, Any]) -> None:
    hf, ours = pair
    for s in STRINGS[:100]:
        assert ours.encode(s, with_special_tokens=True) == hf.encode(s).ids


def test_token_spans_mostly_where_hf_puts_them(pair: tuple[Any, Any]) -> None:
    """Token spans are in order, inside the text, and three in four exactly HF's offsets (HF trims some:
    RoBERTa's leading spaces; it gives each byte of a character the whole character)."""
    hf, ours = pair
    same = total = 0
    for s in STRINGS[:120]:
        enc = hf.encode(s, add_special_tokens=False)
        spans = ours.token_spans(s)
        assert [t.id for t in spans] == enc.ids
        assert all(0 <= t.start <= t.end <= len(s) for t in spans)
        assert [t.start for t in spans] == sorted(t.start for t in spans)
        same += sum((t.start, t.end) == tuple(o) for t, o in zip(spans, enc.offsets))
        total += len(spans)
    assert same >= 0.75 * total


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=60))
def test_same_ids_on_hypothesis_text(pair: tuple[Any, Any], text: str) -> None:
    hf, ours = pair
    assume(not unicode_version_chars([text]))
    ids = hf.encode(text, add_special_tokens=False).ids
    assert ours.encode(text) == ids
    assert ours.decode(ids) == hf.decode(ids, skip_special_tokens=False)
