"""Code-point BPE with byte fallback (bpe_core.training.char_bpe): textbook == fast, round trips, and the
merges of HF tokenizers' BpeTrainer (models.BPE(byte_fallback=True)) on the same words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.training.char_bpe import (
    BYTE_PIECES,
    CharBpeOptions,
    char_bpe_steps,
    textbook_char_bpe_steps,
    train_char_bpe,
    words_of,
)
from bpe_core.training.char_bpe_fast import fast_char_bpe_steps

CORPORA = Path(__file__).resolve().parents[3] / "corpora"
SMALL = [
    "low low low lower lowest newest newest widest",
    "aaaa aaa aa a aaaaa baaab abab",
    "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5,
    "the cat\n\nthe hat\tthe  bat, the cat's hat: 机器学习 机器 学习!",
]


def run(counts: dict[str, int], options: CharBpeOptions, method: str) -> tuple[list[tuple[object, ...]], str]:
    gen = (
        textbook_char_bpe_steps(counts, options)
        if method == "textbook"
        else fast_char_bpe_steps(counts, options)
    )
    steps: list[tuple[object, ...]] = []
    while True:
        try:
            step = next(gen)
        except StopIteration as end:
            return steps, end.value
        steps.append((step.left, step.right, step.count, step.new_id, step.added, step.replaced, step.ties))


words = st.dictionaries(
    st.text(alphabet="▁ab c\ndé", min_size=1, max_size=9),
    st.integers(min_value=1, max_value=4),
    min_size=1,
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(
    counts=words,
    extra=st.integers(min_value=1, max_value=25),
    limit=st.none() | st.integers(min_value=1, max_value=6),
    cap=st.none() | st.integers(min_value=1, max_value=5),
    low=st.integers(min_value=1, max_value=3),
    outside=st.sampled_from(["split", "drop"]),
)
def test_fast_equals_textbook(counts, extra, limit, cap, low, outside):
    alphabet = len({c for w in counts for c in w})
    size = 1 + 256 + min(alphabet, limit or alphabet) + extra
    options = CharBpeOptions(
        vocab_size=size, limit_alphabet=limit, max_token_length=cap, min_frequency=low, outside=outside
    )
    assert run(counts, options, "fast") == run(counts, options, "textbook")


TRAINED = train_char_bpe(SMALL[3] + " " + SMALL[0], vocab_size=300, limit_alphabet=12)


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_round_trip_any_text(text):
    ids = TRAINED.encode(text)
    assert TRAINED.decode(ids) == text


def test_outside_the_alphabet_is_bytes():
    trainer = char_bpe_steps("aab aab €ab", vocab_size=262, limit_alphabet=3)
    step = next(trainer)
    assert step.to_bytes == ("€",)
    tok = trainer.tokenizer()
    assert tok.encode_pieces("€") == ["▁", "<0xE2>", "<0x82>", "<0xAC>"]
    assert tok.piece(tok.encode("€")[1]) == BYTE_PIECES[0xE2]


def hf_merges(counts: dict[str, int], vocab_size: int, **options: int) -> list[tuple[str, str]]:
    from tokenizers import Tokenizer, models, trainers

    hf = Tokenizer(models.BPE(byte_fallback=True, unk_token="<unk>"))
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size - 256, special_tokens=["<unk>"], show_progress=False, **options
    )
    hf.train_from_iterator([w for w, n in counts.items() for _ in range(n)], trainer)
    return [tuple(m) for m in json.loads(hf.to_str())["model"]["merges"]]  # type: ignore[misc]


TEXTS = SMALL + [p.read_text(encoding="utf-8") for p in sorted(CORPORA.glob("*.txt"))]


@pytest.mark.parametrize("k", range(len(TEXTS)))
@pytest.mark.parametrize(
    "options",
    [{}, {"min_frequency": 2}, {"max_token_length": 3}, {"max_token_length": 2, "min_frequency": 3}],
)
def test_merges_equal_hf(k, options):
    pytest.importorskip("tokenizers")
    counts = words_of(TEXTS[k])
    alphabet = len({c for w in counts for c in w})
    size = 1 + 256 + alphabet + 60
    trainer = char_bpe_steps(TEXTS[k], vocab_size=size, **options).run()
    assert trainer.merges == hf_merges(counts, size, **options)
    assert trainer.merges or options  # a tiny text may have no pair occurring min_frequency times


@pytest.mark.parametrize("limit", [6, 7, 8])
def test_limit_alphabet_equals_hf(limit):
    """HF keeps the most frequent characters too; the rare ones stand alone (HF would join their
    neighbours), with counts that do not tie at the cut."""
    pytest.importorskip("tokenizers")
    text = "lower low lowe rower " * 9 + "€ ü ü 学学 学 % % % %"  # 6 frequent characters, then 4, 3, 2, 1
    counts = words_of(text)
    trainer = char_bpe_steps(text, vocab_size=1 + 256 + limit + 30, limit_alphabet=limit).run()
    assert trainer.merges == hf_merges(counts, 1 + 256 + limit + 30, limit_alphabet=limit)
    assert len(trainer.to_bytes) > 0


@pytest.mark.parametrize("k", range(len(TEXTS)))
def test_limit_alphabet_drop_equals_hf(k):
    """outside="drop" joins the neighbours of a dropped character, as HF's trainer does; the limit is
    put where no two characters have the same count (HF's choice among equal counts is unspecified)."""
    pytest.importorskip("tokenizers")
    counts = words_of(TEXTS[k])
    chars: dict[str, int] = {}
    for w, n in counts.items():
        for c in w:
            chars[c] = chars.get(c, 0) + n
    ranked = sorted(chars.values(), reverse=True)
    limit = next((i for i in range(len(ranked) // 2, 0, -1) if ranked[i - 1] != ranked[i]), None)
    if limit is None:
        pytest.skip("every cut of this alphabet ties")
    size = 1 + 256 + limit + 80
    trainer = char_bpe_steps(TEXTS[k], vocab_size=size, limit_alphabet=limit, outside="drop").run()
    assert trainer.merges == hf_merges(counts, size, limit_alphabet=limit)
    assert trainer.to_bytes


def test_split_and_drop_differ_inside_a_word():
    text = "a€b ab ab cd cd cd cd"  # € is the rarest character: limit_alphabet=5 leaves it out
    split = [(s.pair, s.count) for s in char_bpe_steps(text, vocab_size=268, limit_alphabet=5)]
    drop = [(s.pair, s.count) for s in char_bpe_steps(text, vocab_size=268, limit_alphabet=5, outside="drop")]
    assert split[2:] == [(("▁", "a"), 3), (("▁a", "b"), 2)]
    assert drop[2:] == [(("a", "b"), 3), (("▁", "ab"), 3)]


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"limit_alphabet": 0}, "limit_alphabet must be a whole number of at least 1"),
        ({"max_token_length": 0}, "max_token_length must be a whole number of at least 1"),
        ({"min_frequency": 0}, "min_frequency must be a whole number of at least 1"),
        ({"vocab_size": 258}, "ask for at least"),
    ],
)
def test_bad_options_say_what_to_do(changes, says):
    with pytest.raises(ValueError, match=says):
        char_bpe_steps("low lower", **{"vocab_size": 300, **changes})


def test_vocab_size_must_hold_the_alphabet():
    with pytest.raises(ValueError, match="ask for at least 263, or lower limit_alphabet"):
        char_bpe_steps("abcde", vocab_size=262)
    assert len(char_bpe_steps("abcde", vocab_size=262, limit_alphabet=2).alphabet) == 2


def cli_run(*argv: str) -> tuple[int, str]:
    import io

    from bpe_core import cli

    err = io.StringIO()
    code = cli.main(list(argv), stdin=io.BytesIO(b""), stdout=io.BytesIO(), stderr=err)
    return code, err.getvalue()


PROBES = [
    "the lighthouse keeper hugs the pugs",
    "  two  spaces\tand a tab\n\nnew lines",
    "€ ü 学 😀 never seen: ☃ and ⌘",
    "",
    "x",
    TEXTS[-1][:400],
]


@pytest.mark.parametrize(
    "extra", [[], ["--limit-alphabet", "60", "--max-token-length", "6", "--min-frequency", "2"]]
)
def test_cli_writes_a_tokenizer_json_hf_loads_with_our_ids(tmp_path, extra):
    tokenizers = pytest.importorskip("tokenizers")
    text = "\n".join(TEXTS)
    (tmp_path / "c.txt").write_text(text, encoding="utf-8")
    code, err = cli_run(
        "train",
        str(tmp_path / "c.txt"),
        "--model",
        "bpe-char",
        "--vocab-size",
        "1100",
        "--out",
        str(tmp_path / "o"),
        "--quiet",
        *extra,
    )
    assert (code, err) == (0, "")
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "o" / "tokenizer.json"))
    options = dict(
        zip([a.lstrip("-").replace("-", "_") for a in extra[::2]], map(int, extra[1::2]), strict=True)
    )
    trainer = char_bpe_steps(text, vocab_size=1100, **options).run()
    ours = trainer.tokenizer()
    assert hf.get_vocab_size() == len(trainer.vocab) == ours.vocab_size
    assert len(trainer.merges) > 100
    from bpe_core.formats import load_tokenizer

    loaded = load_tokenizer(tmp_path / "o" / "tokenizer.json", any_scheme=True)  # our loader reads it too
    for probe in PROBES + [text[:5000]]:
        assert hf.encode(probe).ids == ours.encode(probe) == loaded.encode(probe), probe
        assert ours.decode(ours.encode(probe)) == probe


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (
            ["--limit-alphabet", "0"],
            "error: --limit-alphabet must be a whole number of at least 1, not 0; give",
        ),
        (["--max-token-length", "-1"], "error: --max-token-length must be a whole number of at least 1"),
        (["--min-frequency", "0"], "error: --min-frequency must be a whole number of at least 1"),
        (["--tie-break", "hf"], "error: --special-token and --tie-break are not bpe-char options"),
        (
            ["--vocab-size", "259"],
            "error: --vocab-size is 259, smaller than <unk> + 256 byte pieces + the 6 ",
        ),
    ],
)
def test_cli_bad_input_is_one_line(tmp_path, flags, says):
    (tmp_path / "c.txt").write_text("low lower", encoding="utf-8")
    code, err = cli_run(
        "train",
        str(tmp_path / "c.txt"),
        "--model",
        "bpe-char",
        "--vocab-size",
        "300",
        "--out",
        str(tmp_path / "o"),
        "--quiet",
        *flags,
    )
    assert code == 1
    assert err.startswith(says) and err.count("\n") == 1


def test_cli_other_models_refuse_char_options(tmp_path):
    (tmp_path / "c.txt").write_text("low lower", encoding="utf-8")
    code, err = cli_run(
        "train",
        str(tmp_path / "c.txt"),
        "--vocab-size",
        "300",
        "--limit-alphabet",
        "3",
        "--out",
        str(tmp_path / "o"),
    )
    assert (code, err) == (
        1,
        "error: --limit-alphabet, --max-token-length and --outside are bpe-char options; "
        "leave them out for bpe\n",
    )


def test_cli_outside_drop_gives_hf_merges(tmp_path):
    pytest.importorskip("tokenizers")
    text = "a€b ab ab cd cd cd cd"
    (tmp_path / "c.txt").write_text(text, encoding="utf-8")
    out = tmp_path / "o"
    argv = ["train", str(tmp_path / "c.txt"), "--model", "bpe-char", "--vocab-size", "268", "--out", str(out)]
    assert cli_run(*argv, "--limit-alphabet", "5", "--outside", "drop", "--quiet") == (0, "")
    merges = [
        tuple(m) for m in json.loads((out / "tokenizer.json").read_text(encoding="utf-8"))["model"]["merges"]
    ]
    assert merges == hf_merges(words_of(text), 268, limit_alphabet=5)
    assert merges[2] == ("a", "b")
