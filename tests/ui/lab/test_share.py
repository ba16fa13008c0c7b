"""The lab's link (pure): every setting round-trips, and no query string raises."""

from __future__ import annotations

import doctest

from hypothesis import example, given
from hypothesis import strategies as st

from mergescope_ui.lab import share
from mergescope_ui.lab.share import HeldOut, LabLink, from_query, to_query

IDS = ["lighthouse_story", "mixed_scripts", "machine_learning_zh"]
DEFAULTS = LabLink(("lighthouse_story", "mixed_scripts"), "gpt2", 4096, HeldOut("split", 20))
LINKS = st.builds(
    LabLink,
    corpora=st.one_of(st.none(), st.lists(st.sampled_from(IDS), min_size=1, unique=True).map(tuple)),
    pattern=st.one_of(st.none(), st.sampled_from(["gpt2", "gpt4", "o200k", "whitespace", "none"])),
    vocab=st.one_of(st.none(), st.integers(257, 32_768)),
    heldout=st.one_of(
        st.none(),
        st.builds(HeldOut, how=st.sampled_from(["split", "end"]), share=st.sampled_from(list(share.SHARES))),
        st.builds(HeldOut, how=st.just("text"), text=st.sampled_from(IDS)),
    ),
    own=st.one_of(
        st.none(),
        st.sets(st.sampled_from(list(share.OWN_TEXTS)), min_size=1).map(
            lambda s: tuple(o for o in share.OWN_TEXTS if o in s)
        ),
    ),
)


def test_doctests():
    assert doctest.testmod(share).failed == 0


@given(LINKS)
def test_a_link_round_trips(link):
    back, notes = from_query(to_query(link, defaults=DEFAULTS), corpus_ids=IDS)
    assert notes == []
    for field in ("corpora", "pattern", "vocab", "heldout", "own"):
        value = getattr(link, field)
        if value is not None and value != getattr(DEFAULTS, field):
            assert getattr(back, field) == value, field


@given(
    st.dictionaries(
        st.sampled_from(["corpus", "pattern", "vocab", "heldout", "own", "x"]), st.text(max_size=20)
    )
)
@example({"vocab": "²"})
@example({"heldout": "end:²"})
@example({"heldout": "text:../../etc"})
def test_no_query_raises(params):
    link, notes = from_query(params, corpus_ids=IDS)
    assert isinstance(link, LabLink) and all(isinstance(n, str) for n in notes)
    if link.vocab is not None:
        assert 257 <= link.vocab <= 32_768
