"""WordPiece training: the HF course's worked example, HF's trainer (BPE with ## marks) beside it,
fast == textbook (hypothesis), and bad input."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.training.wordpiece import WordPieceTrainer, train_wordpiece, wordpiece_steps
from bpe_core.training.wordpiece_records import WORDPIECE_TIE_BREAKS, WordPieceOptions

from .support import CORPORA

COURSE = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
COURSE_TEXT = " ".join(w for w, n in COURSE.items() for _ in range(n))
BERT = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def course_steps(n_merges, method="fast"):
    options = WordPieceOptions(vocab_size=len(BERT) + 7 + n_merges)
    trainer = WordPieceTrainer(COURSE, options, method=method)
    return trainer, list(trainer)


@pytest.mark.parametrize("method", ["fast", "textbook"])
def test_the_course_example(method):
    """HF course, chapter 6, "WordPiece tokenization": its alphabet, its first merges and their scores.

    The course writes that the third merge is ``hu`` + ``##g``, scored 1/15; but ``hu`` + ``##g`` occurs
    10 times over 15 * 15, 2/45, and the pair the course's own code picks is ``hu`` + ``##gs`` (5 over
    15 * 5 = 1/15), as reported in huggingface/course issue #500.  We follow the formula."""
    trainer, steps = course_steps(3, method)
    assert trainer.vocab[:5] == BERT
    assert set(trainer.vocab[5:12]) == {"b", "h", "p", "##g", "##n", "##s", "##u"}
    assert [(s.left, s.right, s.token) for s in steps] == [
        ("##g", "##s", "##gs"),
        ("h", "##u", "hu"),
        ("hu", "##gs", "hugs"),
    ]
    assert [Fraction(s.count, s.left_count * s.right_count) for s in steps] == [
        Fraction(1, 20),
        Fraction(1, 36),
        Fraction(1, 15),
    ]
    assert (steps[0].count, steps[0].left_count, steps[0].right_count) == (5, 20, 5)
    # Step 2: every pair scores 1/36; the first seen, h + ##u, wins.
    assert steps[1].tied and steps[1].tie_break == "first-seen"
    assert steps[1].ties[0] == ("h", "##u") and len(steps[1].ties) == 6
    assert {(r.left, r.right) for r in steps[1].top_by_score} == set(steps[1].ties)
    # BPE would merge ##u + ##g (20 times) at step 1: the two disagree.
    assert steps[0].bpe_pair == ("##u", "##g") and steps[0].top_by_count[0].count == 20
    assert steps[0].top_by_score[0].exact_score == Fraction(1, 20)
    assert [s.replaced for s in steps] == [5, 15, 5]
    assert steps[0].tokens_before == 10 * 3 + 5 * 3 + 12 * 3 + 4 * 3 + 5 * 4
    assert all(s.tokens_after == s.tokens_before - s.replaced for s in steps)
    assert trainer.vocab[12:] == ["##gs", "hu", "hugs"]


def test_hf_wordpiece_trainer_trains_bpe():
    """HF's WordPieceTrainer merges the most frequent pair: ##u + ##g first, where WordPiece merges
    ##g + ##s."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    hf = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    hf_alphabet = 5 + 7 + 4  # HF's alphabet also holds g, n, s, u without ##
    trainer = trainers.WordPieceTrainer(vocab_size=hf_alphabet + 1, special_tokens=BERT, show_progress=False)
    hf.train_from_iterator([COURSE_TEXT], trainer)
    hf_vocab = hf.get_vocab()
    assert len(hf_vocab) == hf_alphabet + 1
    ours = train_wordpiece(COURSE_TEXT, vocab_size=5 + 7 + 1)
    assert "##ug" in hf_vocab and "##gs" not in hf_vocab
    assert "##gs" in ours.vocab and "##ug" not in ours.vocab
    # and the step says so: BPE's choice beside WordPiece's
    (step,) = wordpiece_steps(COURSE_TEXT, vocab_size=5 + 7 + 1)
    assert step.bpe_pair == ("##u", "##g") and step.pair == ("##g", "##s")


WORDS = st.text(alphabet="abcé#", min_size=1, max_size=7)
WORD_COUNTS = st.dictionaries(WORDS, st.integers(1, 6), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(
    counts=WORD_COUNTS,
    extra=st.integers(0, 40),
    tie_break=st.sampled_from(WORDPIECE_TIE_BREAKS),
    min_frequency=st.integers(1, 3),
    top_k=st.integers(0, 5),
)
def test_fast_equals_textbook(counts, extra, tie_break, min_frequency, top_k):
    options = WordPieceOptions(
        vocab_size=1 + 12 + extra,
        special_tokens=("[UNK]",),
        tie_break=tie_break,
        min_frequency=min_frequency,
        top_k=top_k,
    )
    try:
        textbook = WordPieceTrainer(counts, options, method="textbook")
    except ValueError:  # the alphabet does not fit: both say so
        with pytest.raises(ValueError, match="alphabet"):
            WordPieceTrainer(counts, options)
        return
    fast = WordPieceTrainer(counts, options)
    assert list(fast) == list(textbook)
    assert fast.stop_reason == textbook.stop_reason and fast.vocab == textbook.vocab
    plain = WordPieceTrainer(counts, options, records=False).run()
    assert plain.vocab == textbook.vocab
    # split() replays the merges: the words as training left them, token count and all
    assert sum(len(fast.split(w)) * n for w, n in counts.items()) == fast.tokens
    assert all(t in fast.vocab for w in counts for t in fast.split(w))


def test_fast_equals_textbook_on_a_real_text():
    text = (CORPORA / "lighthouse_story.txt").read_text(encoding="utf-8")
    fast = wordpiece_steps(text, vocab_size=250, top_k=5)
    textbook = wordpiece_steps(text, vocab_size=250, top_k=5, method="textbook")
    assert list(fast) == list(textbook)
    assert len(fast.vocab) == 250


def test_merge_that_makes_a_token_again():
    """##a + ##bc and ##ab + ##c make the same ##abc: the second merge adds no token."""
    counts = {"xabc": 3, "yabc": 1}
    trainer = WordPieceTrainer(counts, WordPieceOptions(vocab_size=50, special_tokens=("[UNK]",)))
    steps = list(trainer)
    assert len(trainer.vocab) == len(set(trainer.vocab))
    assert all(s.new_id == trainer.vocab.index(s.token) for s in steps)


@pytest.mark.parametrize(
    ("text", "options", "message"),
    [
        ("", {}, "the text is empty"),
        (" \n\t ", {}, "no words"),
        ("hug pug pun", {"vocab_size": 8}, "smaller than the 5 special tokens \\+ 5 characters.*at least 10"),
        ("hug", {"vocab_size": 3}, "below the 5 special tokens"),
        ("hug", {"unk_token": "<unk>"}, "unk_token '<unk>' is not among the special tokens"),
        ("hug", {"tie_break": "lexicographic"}, "use one of first-seen, alphabetical"),
        ("hug", {"max_word_chars": 0}, "max_word_chars must be a whole number of at least 1"),
        ("a\ud800b", {}, "lone surrogate"),
    ],
)
def test_bad_input(text, options, message):
    with pytest.raises(ValueError, match=message):
        train_wordpiece(text, **{"vocab_size": 100, **options})


def test_stop_reasons():
    assert (
        wordpiece_steps("ab ab", vocab_size=1000).run().stop_reason
        == "no pair of adjacent tokens is left to merge"
    )
    few = wordpiece_steps("ab cd cd", vocab_size=1000, min_frequency=2).run()
    assert few.stop_reason.startswith("the most frequent pair occurs fewer times") and few.vocab[-1] == "cd"


COURSE_SENTENCES = "\n".join(
    [
        "This is the Hugging Face Course.",
        "This chapter is about tokenization.",
        "This section shows several tokenizer algorithms.",
        "Hopefully, you will be able to understand how they are trained and generate tokens.",
    ]
)
COURSE_MERGES = [
    "##fu",
    "Fa",
    "Fac",
    "##ct",
    "##ful",
    "##full",
    "##fully",
    "Th",
    "ch",
    "##hm",
    "cha",
    "chap",
    "chapt",
    "##thm",
    "Hu",
    "Hug",
    "Hugg",
    "sh",
    "th",
    "is",
    "##thms",
    "##za",
    "##zat",
    "##ut",
]


@pytest.mark.parametrize("method", ["fast", "textbook"])
def test_the_course_implementation(method):
    """The course's implementation section: its four sentences (BERT's pre-tokenizer, as the course),
    vocabulary size 70, and the tokens it prints, in order.  The course makes its first merge,
    ``a`` + ``##b`` (score 0.2), by hand before its loop and leaves ``ab`` out of the vocabulary it
    prints; every other token is the same, in the same order."""
    trainer = wordpiece_steps(COURSE_SENTENCES, vocab_size=70, method=method).run()
    assert trainer.vocab[:5] == BERT and len(trainer.vocab) == 70
    assert (
        "".join(trainer.vocab[5:45])
        == "##a##b##c##d##e##f##g##h##i##k##l##m##n##o##p##r##s##t##u##v##w##y##z,.CFHTabcghistuwy"
    )
    assert trainer.vocab[45:] == ["ab", *COURSE_MERGES]
    tok = trainer.tokenizer()
    assert [tok.piece(i) for i in tok.encode("Hugging")] == ["Hugg", "##i", "##n", "##g"]
    assert [tok.piece(i) for i in tok.encode("HOgging")] == ["[UNK]"]
    assert [tok.piece(i) for i in tok.encode("This is the Hugging Face course!")] == (
        [
            "Th",
            "##i",
            "##s",
            "is",
            "th",
            "##e",
            "Hugg",
            "##i",
            "##n",
            "##g",
            "Fac",
            "##e",
            "c",
            "##o",
            "##u",
            "##r",
            "##s",
            "##e",
            "[UNK]",
        ]
    )


def test_word_counts_are_the_words():
    from bpe_core.tokenizer.wordpiece_words import word_counts, words

    from .support import random_texts

    for text in random_texts(300, seed=11):
        counted: dict[str, int] = {}
        for w in words(text, special_tokens=BERT):
            if not w.special:
                counted[w.text] = counted.get(w.text, 0) + 1
        assert word_counts(text, special_tokens=BERT) == counted
        assert list(word_counts(text, special_tokens=BERT)) == list(counted)  # first-occurrence order
