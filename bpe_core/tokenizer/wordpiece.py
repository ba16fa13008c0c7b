"""WordPiece encoding: each word cut greedily into the longest pieces of the vocabulary, left to right.

A word's first piece is written as itself, the others with the continuation prefix ``##``
(``hugs`` -> ``hug ##s``).  From the start of a word, the longest vocabulary piece that matches is
taken, then the longest ``##`` piece from where it ended, and so on; a word that cannot be cut to its
end, or that is longer than ``max_word_chars`` characters (100), becomes one ``[UNK]``.  This is
exactly what HF `tokenizers.models.WordPiece` does (the tests compare tokens and ids on thousands of
texts), after BERT's pre-tokenizer (:mod:`.wordpiece_words`) and with no normalizer.

>>> vocab = ["[UNK]", "b", "h", "p", "##g", "##n", "##s", "##u", "##gs", "hu", "hugs"]
>>> tok = WordPieceTokenizer(vocab)
>>> [tok.piece(i) for i in tok.encode("hugs bun, pugs hum")]
['hugs', 'b', '##u', '##n', '[UNK]', 'p', '##u', '##gs', '[UNK]']
>>> tok.decode(tok.encode("hugs bun, pugs hum"))
'hugs bun [UNK] pugs [UNK]'

Decoding is HF's WordPiece decoder: a ``##`` piece is glued to the one before, other pieces get a
space before them, and a space before ``. , ! ?`` is taken out again.  So white space is not kept,
and an ``[UNK]`` has lost its word; :meth:`WordPieceTokenizer.lost` says what a text loses:

>>> tok.lost("hugs  bun,pugs")  # doctest: +NORMALIZE_WHITESPACE
Loss(round_trip=False, decoded='hugs bun [UNK] pugs', unknown=((9, 10),), spacing=3, changed=0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate

from ..pretokenizer import check_text, excerpt
from .bpe import Tokenizer, TokenSpan, TokenSpans
from .scheme import Loss
from .wordpiece_words import Word, words

UNK_TOKEN = "[UNK]"
PREFIX = "##"
MAX_WORD_CHARS = 100
BERT_SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
"""BERT's special tokens: the ones a vocabulary holds are special unless ``special_tokens=`` says."""
_CLEANUP = (" .", " ?", " !", " ,", " ' ", " n't", " 'm", " do not", " 's", " 've", " 're")
_CACHE_LIMIT = 100_000


def decoder_cleanup(token: str) -> str:
    """HF's WordPiece decoder's clean-up of one decoded token (" ." -> ".", " n't" -> "n't", ...).

    >>> decoder_cleanup(" ,"), decoder_cleanup(" n't"), decoder_cleanup(" do")
    (',', "n't", ' do')
    """
    for dirty in _CLEANUP:
        if dirty in token:
            clean = "'" if dirty == " ' " else " don't" if dirty == " do not" else dirty[1:]
            token = token.replace(dirty, clean)
    return token


class WordPieceTokenizer:
    """WordPiece over a vocabulary of strings (see the module docstring).

    ``vocab`` is the tokens in id order, or a mapping token -> id; ``unk_token`` must be in it.
    ``special_tokens`` are cut out of a text wherever they stand and encode as themselves (default:
    the :data:`BERT_SPECIAL_TOKENS` the vocabulary holds).
    """

    scheme = "wordpiece"

    def __init__(
        self,
        vocab: Sequence[str] | Mapping[str, int],
        *,
        unk_token: str = UNK_TOKEN,
        prefix: str = PREFIX,
        max_word_chars: int = MAX_WORD_CHARS,
        special_tokens: Iterable[str] | None = None,
    ) -> None:
        items = list(vocab.items()) if isinstance(vocab, Mapping) else [(t, i) for i, t in enumerate(vocab)]
        self.vocab: dict[str, int] = {}
        self.tokens: dict[int, str] = {}
        for token, i in items:
            if not isinstance(token, str) or token == "":
                raise ValueError(f"token {excerpt(token)} (id {i}) must be a non-empty string")
            if isinstance(i, bool) or not isinstance(i, int) or i < 0:
                raise ValueError(f"token {excerpt(token)} has id {i!r}; ids are whole numbers from 0")
            if token in self.vocab:
                raise ValueError(f"token {excerpt(token)} is listed twice; list each token once")
            if i in self.tokens:
                raise ValueError(
                    f"id {i} is given to {excerpt(self.tokens[i])} and {excerpt(token)}; give each its own"
                )
            self.vocab[token] = i
            self.tokens[i] = token
        if unk_token not in self.vocab:
            raise ValueError(
                f"the unknown token {excerpt(unk_token)} is not in the vocabulary; add it (BERT's is "
                f"'[UNK]') or pass unk_token= with the one it has"
            )
        if not isinstance(prefix, str) or not prefix:
            raise ValueError("prefix (the continuation mark) must be a non-empty string such as '##'")
        if isinstance(max_word_chars, bool) or not isinstance(max_word_chars, int) or max_word_chars < 1:
            raise ValueError(f"max_word_chars must be a whole number of at least 1, not {max_word_chars!r}")
        self.unk_token, self.unk_id, self.prefix = unk_token, self.vocab[unk_token], prefix
        self.max_word_chars = max_word_chars
        if special_tokens is None:
            special_tokens = [t for t in BERT_SPECIAL_TOKENS if t in self.vocab]
        self.special_tokens: tuple[str, ...] = tuple(special_tokens)
        for s in self.special_tokens:
            if s not in self.vocab:
                raise ValueError(
                    f"special token {excerpt(s)} is not in the vocabulary; add it or leave it out"
                )
        self._longest = max(len(t) for t in self.vocab)  # no piece is longer: a cap on the search
        self._cache: dict[str, list[int] | None] = {}

    def __repr__(self) -> str:
        return f"WordPieceTokenizer(vocab_size={self.vocab_size}, special_tokens={list(self.special_tokens)})"

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def piece(self, token_id: int) -> str:
        """The token as the vocabulary writes it (``##s``, ``[UNK]``)."""
        token = self.tokens.get(token_id) if isinstance(token_id, int) else None
        if token is None:
            raise ValueError(
                f"token id {token_id!r} is not in the vocabulary (vocab size {self.vocab_size}); "
                "use ids this tokenizer gave"
            )
        return token

    @property
    def special_ids(self) -> frozenset[int]:
        """The ids of the special tokens (``[CLS]``, ``[SEP]``...: cut out of a text as themselves).

        >>> WordPieceTokenizer(["[UNK]", "[CLS]", "hug"]).special_ids == {0, 1}
        True
        """
        return frozenset(self.vocab[s] for s in self.special_tokens)

    def as_bpe(self) -> Tokenizer | None:
        """None: WordPiece cuts words into pieces of a vocabulary of strings, with no merges (see
        :mod:`.scheme`).

        >>> WordPieceTokenizer(["[UNK]", "hug"]).as_bpe() is None
        True
        """
        return None

    # ----- encoding -----
    def word_ids(self, word: str) -> list[int] | None:
        """The ids of one word, longest piece first; None when it is ``[UNK]`` (see the module docstring).

        >>> WordPieceTokenizer(["[UNK]", "hu", "##g", "##gs"]).word_ids("hugs")
        [1, 3]
        """
        n = len(word)
        if n > self.max_word_chars:
            return None
        ids: list[int] = []
        start = 0
        while start < n:
            mark = self.prefix if start else ""
            for end in range(min(n, start + self._longest), start, -1):
                i = self.vocab.get(mark + word[start:end])
                if i is not None:
                    ids.append(i)
                    start = end
                    break
            else:
                return None
        return ids

    def _cached_word_ids(self, word: str) -> list[int] | None:
        cache = self._cache
        if word in cache:
            return cache[word]
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        ids = cache[word] = self.word_ids(word)
        return ids

    def _words(self, text: str) -> list[Word]:
        check_text(text)
        return words(text, special_tokens=self.special_tokens)

    def encode(self, text: str, *, strict: bool = False) -> list[int]:
        """The ids of ``text``; ``strict`` makes a word that would be ``[UNK]`` a ValueError instead."""
        out: list[int] = []
        for w in self._words(text):
            if w.special:
                out.append(self.vocab[w.text])
                continue
            ids = self._cached_word_ids(w.text)
            if ids is None:
                if strict:
                    raise ValueError(self._unknown_message(w))
                out.append(self.unk_id)
            else:
                out.extend(ids)
        return out

    def _unknown_message(self, w: Word) -> str:
        if len(w.text) > self.max_word_chars:
            return (
                f"the word at character {w.start} is {len(w.text)} characters long, above max_word_chars="
                f"{self.max_word_chars}, so it is {self.unk_token}; raise max_word_chars or cut the text"
            )
        return (
            f"the word {excerpt(w.text)} at character {w.start} cannot be cut into pieces of the vocabulary "
            f"(so it is {self.unk_token}); train on a text that has its characters"
        )

    def token_spans(self, text: str) -> TokenSpans:
        """Each token over ``text`` with character and byte offsets; an ``[UNK]`` covers its whole word."""
        found = self._words(text)
        if text.isascii():
            byte_at: Sequence[int] = range(len(text) + 1)
        else:
            byte_at = [0, *accumulate(len(c.encode("utf-8")) for c in text)]
        spans = TokenSpans()

        def add(i: int, start: int, end: int) -> None:
            spans.append(
                TokenSpan(i, text[start:end].encode("utf-8"), start, end, byte_at[start], byte_at[end])
            )

        for w in found:
            ids = [self.vocab[w.text]] if w.special else self._cached_word_ids(w.text)
            if ids is None:
                add(self.unk_id, w.start, w.end)
                continue
            pos = w.start
            for k, i in enumerate(ids):
                width = len(self.tokens[i]) - (len(self.prefix) if k and not w.special else 0)
                add(i, pos, pos + width)
                pos += width
        return spans

    # ----- decoding -----
    def decode(self, ids: Iterable[int]) -> str:
        """The text of ``ids`` as HF's WordPiece decoder writes it (see the module docstring)."""
        return self.incremental_decoder().decode(ids, final=True)

    def incremental_decoder(self) -> WordPieceDecoder:
        """A decoder of ids given in blocks, whose texts joined are :meth:`decode` of them all (see
        :mod:`.streaming`)."""
        return WordPieceDecoder(self)

    def lost(self, text: str) -> Loss:
        """What ``decode(encode(text))`` loses of ``text``: the words that became ``[UNK]``, and the
        places where white space comes back otherwise (see :class:`~.scheme.Loss`)."""
        found = self._words(text)
        decoded = self.decode(self.encode(text))
        unknown = []
        spacing = 0
        pos = 0
        for j, w in enumerate(found):
            ids = [self.vocab[w.text]] if w.special else self._cached_word_ids(w.text)
            if ids is None:
                unknown.append((w.start, w.end))
                first = self.unk_token
            else:
                first = self.tokens[ids[0]]
            emitted = "" if j == 0 else decoder_cleanup(" " + first)[: -len(first) or None]
            spacing += text[pos : w.start] != emitted
            pos = w.end
        spacing += pos < len(text)
        return Loss(decoded == text, decoded, tuple(unknown), spacing)


class WordPieceDecoder:
    """:meth:`WordPieceTokenizer.decode` a block of ids at a time: only the very first token has no
    space or ``##`` to resolve.

    >>> tok = WordPieceTokenizer(["[UNK]", "hu", "##gs", "pugs"])
    >>> decoder = tok.incremental_decoder()
    >>> [decoder.decode([1]), decoder.decode([2, 3], final=True)]
    ['hu', 'gs pugs']
    """

    def __init__(self, tok: WordPieceTokenizer) -> None:
        self.tok = tok
        self.first = True

    def decode(self, ids: Iterable[int], final: bool = False) -> str:
        prefix = self.tok.prefix
        out: list[str] = []
        for i in ids:
            token = self.tok.piece(i)
            if not self.first:
                token = token[len(prefix) :] if token.startswith(prefix) else " " + token
            self.first = False
            out.append(decoder_cleanup(token))
        return "".join(out)
