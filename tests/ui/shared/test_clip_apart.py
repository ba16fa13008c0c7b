"""Cut labels never read the same when the tokens differ (issue 22 #5)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mergescope_ui.shared.html.tokens import clip_apart, clip_label, label_width

UNIT = st.sampled_from(["a", "b", "␣", "w", "语", "<E8>"])
LABEL = st.lists(UNIT, max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(labels=st.lists(LABEL, min_size=1, max_size=4), width=st.integers(min_value=8, max_value=20))
def test_different_labels_stay_different_and_short(labels: list[str], width: int) -> None:
    out = clip_apart(labels, width)
    for i, a in enumerate(labels):
        if label_width(a) <= width and out[i] == clip_label(a, width):
            assert out[i] == a or len(out[i]) <= len(a) + 5
        for j, b in enumerate(labels):
            if a != b:
                assert out[i] != out[j], (labels, width, out)
            else:
                assert out[i] == out[j]
        assert label_width(out[i]) <= width + 1, (labels, width, out)


def test_the_issue_case_newest_west() -> None:
    left, right = "newest␣" * 3 + "west␣", "newest␣" * 2 + "west␣"
    assert len({clip_label(t, 12) for t in (left, right, left + right)}) == 1  # the bug: one label for three
    assert len(set(clip_apart([left, right, left + right], 12))) == 3
