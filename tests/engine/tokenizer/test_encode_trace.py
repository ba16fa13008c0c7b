"""The encode trace: its last ids are the tokenizer's own (and tiktoken's, built in memory from the same
ranks), and each step is the step before with one rank merged at every place it stands."""

from __future__ import annotations

import base64
import random
from functools import cache
from itertools import pairwise

import pytest

from bpe_core import Tokenizer, train
from bpe_core.byte_level import HF_BYTE_RANK
from bpe_core.formats.tiktoken import read_tiktoken_text
from bpe_core.pretokenizer import resolve_pattern
from bpe_core.primitives import merge_pair
from bpe_core.tokenizer.encode_trace import EncodeTrace, TraceReplay, trace_encode
from bpe_core.tokenizer.merge_order import reordered, shuffled_order
from tests.engine.formats.support import CORPUS, EOT

tiktoken = pytest.importorskip("tiktoken", reason="tiktoken is a dev requirement (requirements-dev.txt)")

NAMED = ("gpt2", "gpt4", "o200k")
# Emoji (ZWJ, skin tones), CJK, combining marks, whitespace runs, CRLF and lone CRs, digits, contractions,
# the special token and pieces of it.
ATOMS = [
    "the", " the", "The", " cat", "low", "lower", "'s", "'LL", "n't", "1", "23", "2024", "12345", " 7",
    " ", "  ", "    ", "\t", "\n", "\n\n", "\r\n", "\r\n\r\n", "\r", " \n", "\xa0", "\u2028",
    "自然语言", "处理", "。", "한국어", "😀", "🎉🎉", "👩‍👩‍👧", "🤷🏽‍♀️", "\u200d", "é", "e\u0301",
    "naïve", "Größe", "Привет", "مرحبا", ".", "...", "!?", "/", "--", "<|endoftext|>", "<|end", "|>",
]  # fmt: skip


def random_texts(n: int, seed: int) -> list[str]:
    """``n`` texts of atoms and random characters (any plane but lone surrogates), 0 to 60 long."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(0, 14)):
            if rng.random() < 0.75:
                parts.append(rng.choice(ATOMS))
            else:
                c = rng.randint(0x20, 0x2FFFF)
                parts.append(chr(c) if not 0xD800 <= c <= 0xDFFF else "x")
        out.append("".join(parts))
    return out


@cache
def trained(pattern: str) -> Tokenizer:
    return train(CORPUS, vocab_size=700, pattern=pattern, special_tokens=[EOT])


@cache
def from_ranks(pattern: str) -> tuple[Tokenizer, object]:
    """A tokenizer read from a rank file with GPT-2's byte order (as cl100k's), and tiktoken built in
    memory from the same ranks, pattern and special token."""
    tok = trained(pattern)
    special_ids = set(tok.special_tokens.values())
    ranks = {
        t: (HF_BYTE_RANK[t[0]] if len(t) == 1 else i) for i, t in tok.vocab.items() if i not in special_ids
    }
    text = "".join(
        f"{base64.b64encode(t).decode()} {r}\n" for t, r in sorted(ranks.items(), key=lambda kv: kv[1])
    )
    special = {EOT: max(ranks.values()) + 2}  # a gap below it, as in cl100k
    data = read_tiktoken_text(text.encode(), "x.tiktoken", special_tokens=special)
    ours = Tokenizer(data.vocab, data.merges, special_tokens=data.special_tokens, pattern=pattern)
    enc = tiktoken.Encoding(
        name=f"trace-{pattern}",
        pat_str=resolve_pattern(pattern),
        mergeable_ranks=ranks,
        special_tokens=special,
    )
    return ours, enc


def check_steps(tok: Tokenizer, trace: EncodeTrace) -> None:
    """Each step is the one before with its rank merged in every chunk holding the pair, at the places it
    names, and nowhere else; ranks rise; the last ids are the trace's ids."""
    replay = TraceReplay(trace)
    ranks = tok.merge_ranks()
    before = [list(ids) for ids in replay.chunk_ids]
    last_rank = -1
    for step in trace.steps:
        replay.move_to(step.step)
        after = replay.chunk_ids
        assert ranks[step.pair] == step.rank and tok.merge_ids[step.rank] == step.new_id
        lowest = min((ranks.get(p, 1 << 62) for ids in before for p in pairwise(ids)), default=None)
        assert step.rank == lowest, "the step merges the lowest-ranked pair present anywhere"
        assert step.rank > last_rank, "ranks rise step by step (each fires once)"
        last_rank = step.rank
        holders = {p.chunk for p in step.places}
        for n, (old, new) in enumerate(zip(before, after, strict=True)):
            expected = merge_pair(old, step.pair, step.new_id) if n in holders else old
            assert new == expected, (step, n)
            if n not in holders:
                assert step.pair not in set(pairwise(old))
        for p in step.places:
            assert before[p.chunk][p.before : p.before + 2] == list(step.pair)
            assert after[p.chunk][p.after] == step.new_id
        assert sum(map(len, after)) == step.tokens_after
        before = [list(ids) for ids in after]
    assert [i for ids in before for i in ids] == list(trace.ids)
    for k in range(len(trace.steps), -1, -1):  # and back: step 0 again
        replay.move_to(k)
    assert replay.chunk_ids == [list(c.ids) for c in trace.chunks]


def fired(tok: Tokenizer, trace: EncodeTrace) -> set[int]:
    """The ranks the textbook encoder applies, chunk by chunk (counted independently of the trace)."""
    ranks, out = tok.merge_ranks(), set()
    for c in trace.chunks:
        ids = list(c.ids) if not c.special else []
        while len(ids) > 1:
            r = min(ranks.get(p, 1 << 62) for p in pairwise(ids))
            if r == 1 << 62:
                break
            out.add(r)
            ids = merge_pair(ids, tok.merges[r], tok.merge_ids[r])
    return out


@pytest.mark.parametrize("pattern", NAMED)
def test_the_last_ids_are_the_tokenizers_and_tiktokens_on_random_texts(pattern: str) -> None:
    ours, enc = from_ranks(pattern)
    own = trained(pattern)
    for text in random_texts(1000, seed=len(pattern)):
        trace = trace_encode(ours, text)
        assert trace.whole
        assert list(trace.ids) == enc.encode(text, allowed_special="all") == ours.encode(text), text
        assert list(trace_encode(own, text).ids) == own.encode(text), text
        plain = trace_encode(ours, text, specials=False)
        assert list(plain.ids) == enc.encode_ordinary(text), text


@pytest.mark.parametrize("pattern", [*NAMED, "none", "whitespace", r"\w+|\s+", r"[a-z]+| ?\p{L}+|\d"])
def test_each_step_is_the_one_before_with_one_rank_merged(pattern: str) -> None:
    tok = train(CORPUS, vocab_size=500, pattern=pattern, special_tokens=[EOT])
    for text in [CORPUS[:600], *random_texts(40, seed=7)]:
        trace = trace_encode(tok, text)
        check_steps(tok, trace)
        assert len(trace.steps) == len(fired(tok, trace)), "one step per merge that fires"
        assert list(trace.ids) == tok.encode(text)
        assert "".join(c.text for c in trace.chunks) == text


def test_step_zero_names_the_pattern_part_of_each_chunk() -> None:
    text = "It's 12345 dogs!!\r\n\n  ok" + EOT + "x"
    want = {
        "gpt2": [
            ("It", "letters"), ("'s", "contractions"), (" 12345", "numbers"), (" dogs", "letters"),
            ("!!", "punctuation"), ("\r\n\n ", "spaces"), (" ok", "letters"), (EOT, "special token"),
            ("x", "letters"),
        ],
        "gpt4": [
            ("It", "letters"), ("'s", "contractions"), (" ", "spaces"), ("123", "numbers"), ("45", "numbers"),
            (" dogs", "letters"), ("!!\r\n\n", "punctuation"), (" ", "spaces"), (" ok", "letters"),
            (EOT, "special token"), ("x", "letters"),
        ],
        "o200k": [
            ("It's", "letters"), (" ", "spaces"), ("123", "numbers"), ("45", "numbers"), (" dogs", "letters"),
            ("!!\r\n\n", "punctuation"), (" ", "spaces"), (" ok", "letters"), (EOT, "special token"),
            ("x", "letters"),
        ],
        "none": [("It's 12345 dogs!!\r\n\n  ok", "whole text"), (EOT, "special token"), ("x", "whole text")],
    }  # fmt: skip
    for pattern, chunks in want.items():
        tok = trained(pattern) if pattern != "none" else train("ab", vocab_size=257, special_tokens=[EOT],
                                                               pattern="none")  # fmt: skip
        assert [(c.text, c.part) for c in trace_encode(tok, text).chunks] == chunks, pattern
    newline = trace_encode(trained("gpt4"), "a\n\nb").chunks
    assert [(c.text, c.part) for c in newline] == [("a", "letters"), ("\n\n", "newlines"), ("b", "letters")]


def test_a_custom_pattern_names_its_parts_and_the_text_it_does_not_match() -> None:
    tok = train("abc 123 abc", vocab_size=260, pattern=r"\p{L}+|\d+")
    chunks = trace_encode(tok, "abc 123!").chunks
    assert [(c.text, c.part) for c in chunks] == [
        ("abc", "letters"),
        (" ", "unmatched text"),
        ("123", "numbers"),
        ("!", "unmatched text"),
    ]
    backref = train("aa bb", vocab_size=258, pattern=r"(\w)\1|\s|\w")
    assert {c.part for c in trace_encode(backref, "aab c").chunks} == {"pattern match"}


def test_offsets_are_characters_and_bytes() -> None:
    trace = trace_encode(trained("gpt2"), "é 自然 🎉")
    assert [(c.start, c.end, c.byte_start, c.byte_end) for c in trace.chunks] == [
        (0, 1, 0, 2),
        (1, 4, 2, 9),
        (4, 6, 9, 14),
    ]


def test_a_long_text_is_traced_in_whole_chunks_up_to_the_byte_cap() -> None:
    tok = trained("gpt4")
    text = CORPUS * 3
    trace = trace_encode(tok, text, max_bytes=2000)
    assert (
        trace.chunks[-1].byte_end <= 2000 < trace.chunks[-1].byte_end + len(text[trace.traced_chars :][:30])
    )
    assert not trace.whole and trace.complete
    assert trace.note.startswith(f"Traced: the first {trace.traced_chars:,} characters")
    assert list(trace.ids) == tok.encode(text)[: len(trace.ids)], "the traced chunks end as in the whole text"
    check_steps(tok, trace)


def test_the_step_cap_stops_the_trace_and_says_so() -> None:
    tok = trained("gpt2")
    full = trace_encode(tok, CORPUS[:500])
    short = trace_encode(tok, CORPUS[:500], max_steps=5)
    assert len(full.steps) > 5 and short.steps == full.steps[:5]
    assert not short.complete and "stops at step 5" in short.note
    replay = TraceReplay(full)
    replay.move_to(5)
    assert list(short.ids) == replay.flat()


def test_a_first_chunk_over_the_cap_is_not_traced_and_said() -> None:
    tok = train(CORPUS, vocab_size=400, pattern="none")
    trace = trace_encode(tok, CORPUS[:1500], max_bytes=1000)
    assert trace.chunks == trace.steps == trace.ids == () and not trace.whole
    assert trace.note.startswith(f"The text's first chunk is {len(CORPUS[:1500].encode()):,} bytes")
    short = CORPUS[:700]
    fits = trace_encode(tok, short, max_bytes=len(short.encode()))
    assert fits.whole and list(fits.ids) == tok.encode(short)


def test_merges_out_of_rank_order_still_give_the_tokenizers_ids() -> None:
    """A pair whose token is made by a later merge can rank first: ranks may then fire twice, and the
    trace still ends at the tokenizer's ids (each chunk merges its own lowest rank at each step)."""
    base = train(CORPUS, vocab_size=450, pattern="gpt2", special_tokens=[EOT])
    for seed in range(4):
        tok = reordered(base, shuffled_order(len(base.merges), seed=seed))
        for text in random_texts(100, seed=seed) + [CORPUS[:400]]:
            trace = trace_encode(tok, text)
            assert list(trace.ids) == tok.encode(text), text
            replay = TraceReplay(trace)
            replay.move_to(len(trace.steps))
            assert replay.flat() == list(trace.ids)


def test_bad_input_is_a_clear_error() -> None:
    tok = trained("gpt2")
    with pytest.raises(ValueError, match="surrogate"):
        trace_encode(tok, "a\ud800b")
    with pytest.raises(ValueError, match="max_steps must be a whole number"):
        trace_encode(tok, "a", max_steps=0)
    with pytest.raises(ValueError, match=r"is not one of 0\.\.0"):
        TraceReplay(trace_encode(tok, "")).move_to(1)
    empty = trace_encode(tok, "")
    assert empty.chunks == empty.steps == empty.ids == () and empty.whole and empty.note == ""
