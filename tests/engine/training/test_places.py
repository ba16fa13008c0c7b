"""The text replay: at every step, the whole text's tokens are what the tokenizer gives, and the places
of each new token are all there, in text order, with the exact tokens around them."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_core import Trainer, TrainOptions
from bpe_core.training.places import TextPlace, TextReplay, split_back

SPECIAL = "<|eot|>"
TEXTS = st.lists(
    st.sampled_from(
        ["low", " lower", " newest", "aaa", "  ", "\n", "机器", "学习", "👩\u200d👩", "é", SPECIAL, "."]
    ),
    max_size=24,
).map("".join)


def _run(text: str, pattern: str, method: str, merges: int = 30):
    options = TrainOptions(vocab_size=257 + merges, pattern=pattern, special_tokens=(SPECIAL,), top_k=4)
    trainer = Trainer(text, options, method=method)
    steps = list(trainer)
    replay = TextReplay(text, trainer.pretokenizer, special_tokens=trainer.special_tokens)
    return trainer, steps, replay


def _check_places(replay: TextReplay, full: list[int], token: int, budget: int) -> None:
    """Every place of ``token`` is found once, in text order, with the tokens around it in ``full``."""
    at = [i for i, t in enumerate(full) if t == token]
    places = replay.places(token, limit=len(at) + 3, context_bytes=budget)
    assert [p.index for p in places] == list(range(len(at)))
    for place, i in zip(places, at):
        left, right = list(place.left), list(place.right)
        assert full[i - len(left) : i] == left and full[i + 1 : i + 1 + len(right)] == right
        assert place.text_start == (i == len(left))
        assert place.text_end == (i + 1 + len(right) == len(full))
        size = [len(replay.vocab[t]) for t in full]
        # whole tokens, no more than it takes to cover the budget (or up to the text's edge)
        assert not left or sum(size[i - len(left) + 1 : i]) < budget
        assert not right or sum(size[i + 1 : i + len(right)]) < budget
        assert place.text_start or budget <= sum(size[i - len(left) : i])
        assert place.text_end or budget <= sum(size[i + 1 : i + 1 + len(right)])
    # the places' positions, in tokens from the start of the text, come in order
    starts = [0]
    for q in range(len(replay._order)):
        starts.append(
            starts[-1] + len(replay._split()[0][q if replay._in_text_order else replay._order[q]]) // 3
        )
    assert [starts[p.chunk] + p.at for p in places] == at
    later = replay.places(token, start=1, limit=2, context_bytes=budget)
    assert later == places[1:3]


@pytest.mark.parametrize("method", ["fast", "textbook"])
@given(text=TEXTS, pattern=st.sampled_from(["none", "whitespace", "gpt2", "gpt4"]), budget=st.integers(0, 9))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_replay_matches_the_tokenizer_and_finds_every_place(method, text, pattern, budget) -> None:
    trainer, steps, replay = _run(text, pattern, method)
    tokenizer = trainer.tokenizer()
    assert replay.tokens() == tokenizer.with_merges(0).encode(text)
    for k, step in enumerate(steps, start=1):
        replay.apply(step.pair, step.new_id)
        full = tokenizer.with_merges(k).encode(text)
        assert replay.tokens() == full
        assert replay.count(step.new_id) == step.replaced  # the trainer's count, every repeat of a chunk
        _check_places(replay, full, step.new_id, budget)
        assert replay.head(max_bytes=budget) == full[: _covering(full, replay, budget)]
    merges = [(s.pair, s.new_id) for s in steps]
    for k in (len(steps) // 2, 0, len(steps)):
        replay.move_to(k, merges)
        assert replay.step == k and replay.tokens() == tokenizer.with_merges(k).encode(text)


def _covering(full: list[int], replay: TextReplay, budget: int) -> int:
    size = n = 0
    while n < len(full) and size < budget:
        size += len(replay.vocab[full[n]])
        n += 1
    return n


def test_places_reach_far_into_a_long_mixed_text() -> None:
    # A token made only from the Chinese and emoji part, far after a long English start.
    english = "the quick brown fox jumps over the lazy dog. " * 2000
    text = english + "机器学习很有趣。👩\u200d💻 " * 50
    _, steps, replay = _run(text, "gpt2", "fast", merges=80)
    late = next(s for s in reversed(steps) if "机".encode()[0] in s.token or b"\xf0" in s.token)
    replay.move_to(late.index, [(s.pair, s.new_id) for s in steps])
    places = replay.places(late.new_id, limit=3, context_bytes=12)
    assert len(places) == 3 and replay.count(late.new_id) == late.replaced
    data = text.encode()
    first = b"".join(replay.vocab[i] for i in (*places[0].left, places[0].token, *places[0].right))
    assert data.find(first) >= len(english.encode()) - 40  # found where it really is, not at the start


def test_bad_uses_are_errors_that_say_what_to_do() -> None:
    _, steps, replay = _run("low low lower", "none", "fast", merges=3)
    with pytest.raises(ValueError, match="not seen"):
        replay.apply((300, 301), 302)
    with pytest.raises(ValueError, match="already a token"):
        replay.apply((108, 111), 97)
    with pytest.raises(ValueError, match="step 0"):
        replay.undo()
    with pytest.raises(ValueError, match="outside"):
        replay.move_to(9, [(s.pair, s.new_id) for s in steps])


def test_split_back_marks_both_halves_of_each_merged_pair() -> None:
    assert split_back([1, 9, 9, 2], (3, 4), 9) == ([1, 3, 4, 3, 4, 2], [1, 2, 3, 4])
    assert split_back([], (3, 4), 9) == ([], [])
    assert TextPlace(0, (), 9, (), True, True).token == 9
