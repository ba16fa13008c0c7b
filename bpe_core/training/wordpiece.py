"""WordPiece training you can step through: :class:`WordPieceTrainer`, :func:`wordpiece_steps` and
:func:`train_wordpiece`, the WordPiece counterparts of :class:`~.trainer.Trainer`,
:func:`~.trainer.train_steps` and :func:`~.trainer.train`.

The text is cut into words by BERT's pre-tokenizer (:mod:`bpe_core.tokenizer.wordpiece_words`);
the steps come from :mod:`.wordpiece_textbook` (``method="textbook"``) or :mod:`.wordpiece_fast`
(``"fast"``, the default), which yield the same steps.

>>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
>>> trainer = wordpiece_steps(text, vocab_size=15)
>>> [(s.token, s.bpe_pair) for s in trainer]
[('##gs', ('##u', '##g')), ('hu', ('p', '##u')), ('hugs', ('p', '##u'))]
>>> trainer.stop_reason
'reached the requested vocab size'
>>> tok = trainer.tokenizer()
>>> [tok.piece(i) for i in tok.encode("hugs pun bugs")]
['hugs', 'p', '##u', '##n', 'b', '##u', '##gs']
>>> train_wordpiece("", vocab_size=100)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: the text is empty; give WordPiece a text to learn from
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Literal

from ..pretokenizer import check_special_tokens, check_text
from ..tokenizer.wordpiece import BERT_SPECIAL_TOKENS, MAX_WORD_CHARS, PREFIX, UNK_TOKEN, WordPieceTokenizer
from ..tokenizer.wordpiece_words import word_counts
from .wordpiece_fast import fast_wordpiece_steps
from .wordpiece_records import WordPieceOptions, WordPieceStep
from .wordpiece_textbook import textbook_wordpiece_steps

Method = Literal["fast", "textbook"]
WORDPIECE_METHODS: tuple[Method, ...] = ("fast", "textbook")


class WordPieceTrainer(Iterator[WordPieceStep]):
    """One WordPiece run: iterate it for its :class:`WordPieceStep` records, one per merge.

    ``text`` is a text, or its word counts already made (``{word: count}`` in first-occurrence
    order).  ``vocab`` holds the tokens so far (id order), ``merges`` the pairs merged,
    ``stop_reason`` why it stopped (None while it can go on), :meth:`tokenizer` the result.
    """

    def __init__(
        self,
        text: str | Mapping[str, int],
        options: WordPieceOptions,
        *,
        method: Method = "fast",
        records: bool = True,
    ) -> None:
        if method not in WORDPIECE_METHODS:
            raise ValueError(f"method {method!r} is unknown; use one of {', '.join(WORDPIECE_METHODS)}")
        if isinstance(text, str):
            check_text(text)
            if not text:
                raise ValueError("the text is empty; give WordPiece a text to learn from")
            counts = word_counts(text, special_tokens=options.special_tokens)
        else:
            counts = dict(text)
        self.options, self.method = options, method
        self.word_counts = counts
        self.vocab: list[str] = options.initial_vocab(counts)  # checks vocab_size against the alphabet
        self.alphabet_size = len(self.vocab) - len(options.special_tokens)
        self.merges: list[tuple[str, str]] = []
        self.tokens = sum(len(w) * n for w, n in counts.items())
        self.stop_reason: str | None = None
        if method == "textbook":
            self._steps = textbook_wordpiece_steps(counts, options)
        else:
            self._steps = fast_wordpiece_steps(counts, options, records=records)

    def __iter__(self) -> WordPieceTrainer:
        return self

    def __next__(self) -> WordPieceStep:
        if self.stop_reason is not None:
            raise StopIteration
        try:
            step = next(self._steps)
        except StopIteration as end:
            self.stop_reason = end.value
            raise StopIteration from None
        if step.added:
            self.vocab.append(step.token)
        self.merges.append(step.pair)
        self.tokens = step.tokens_after
        return step

    @property
    def done(self) -> bool:
        return self.stop_reason is not None

    def run(self) -> WordPieceTrainer:
        """Consume every remaining step; returns self."""
        for _ in self:
            pass
        return self

    def split(self, word: str) -> list[str]:
        """How training has cut ``word`` so far: its first split with every merge made replayed in order
        (what the page shows under each step; encoding may cut it otherwise, longest piece first).

        >>> course = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
        >>> trainer = wordpiece_steps(course, vocab_size=14)
        >>> trainer.split("hugs")
        ['h', '##u', '##g', '##s']
        >>> _ = next(trainer); trainer.split("hugs")
        ['h', '##u', '##gs']
        >>> _ = next(trainer); trainer.split("hugs")
        ['hu', '##gs']
        """
        tokens = self.options.first_split(word) if word else []
        for a, b in self.merges:
            merged: list[str] = []
            k = 0
            while k < len(tokens):
                if k + 1 < len(tokens) and tokens[k] == a and tokens[k + 1] == b:
                    merged.append(self.options.joined(a, b))
                    k += 2
                else:
                    merged.append(tokens[k])
                    k += 1
            tokens = merged
        return tokens

    def tokenizer(self) -> WordPieceTokenizer:
        """A :class:`~bpe_core.tokenizer.wordpiece.WordPieceTokenizer` with the vocabulary so far."""
        o = self.options
        return WordPieceTokenizer(
            list(self.vocab),
            unk_token=o.unk_token,
            prefix=o.prefix,
            max_word_chars=o.max_word_chars,
            special_tokens=o.special_tokens,
        )


def wordpiece_steps(
    text: str,
    *,
    vocab_size: int,
    special_tokens: Iterable[str] = BERT_SPECIAL_TOKENS,
    unk_token: str = UNK_TOKEN,
    prefix: str = PREFIX,
    max_word_chars: int = MAX_WORD_CHARS,
    tie_break: str = "first-seen",
    min_frequency: int = 1,
    top_k: int = 20,
    method: Method = "fast",
) -> WordPieceTrainer:
    """Train WordPiece on ``text``, one :class:`WordPieceStep` per ``next()`` (options:
    :class:`~.wordpiece_records.WordPieceOptions`)."""
    options = WordPieceOptions(
        vocab_size=vocab_size,
        special_tokens=_tuple(special_tokens),
        unk_token=unk_token,
        prefix=prefix,
        max_word_chars=max_word_chars,
        tie_break=tie_break,
        min_frequency=min_frequency,
        top_k=top_k,
    )
    return WordPieceTrainer(text, options, method=method)


def train_wordpiece(
    text: str,
    *,
    vocab_size: int,
    special_tokens: Iterable[str] = BERT_SPECIAL_TOKENS,
    unk_token: str = UNK_TOKEN,
    prefix: str = PREFIX,
    max_word_chars: int = MAX_WORD_CHARS,
    tie_break: str = "first-seen",
    min_frequency: int = 1,
) -> WordPieceTokenizer:
    """Train WordPiece on ``text`` and return the tokenizer (no step records)."""
    options = WordPieceOptions(
        vocab_size=vocab_size,
        special_tokens=_tuple(special_tokens),
        unk_token=unk_token,
        prefix=prefix,
        max_word_chars=max_word_chars,
        tie_break=tie_break,
        min_frequency=min_frequency,
        top_k=0,
    )
    return WordPieceTrainer(text, options, records=False).run().tokenizer()


def _tuple(special_tokens: Iterable[str]) -> tuple[str, ...]:
    """The special tokens as a tuple; one string (not a list of them) is a ValueError saying so."""
    return tuple(check_special_tokens(special_tokens))
