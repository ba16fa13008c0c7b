"""Unigram training, step by step: a big seed vocabulary, pruned round by round down to the vocab size.

The algorithm (Kudo 2018, SentencePiece's trainer, the Hugging Face course's chapter 6):

1. **Seed**: the text's words (spaces become ``▁``, each word starts with its ``▁``) and the frequent
   substrings of them (:data:`~.unigram_records.SEED_RULE`), each piece's probability from its count.
2. **EM**: re-estimate each piece's probability from its *expected* count over all segmentations of all
   words (forward-backward); a piece's probability is its expected count over the total, never below
   :data:`~.unigram_records.MIN_EXPECTED_COUNT` (no piece is dropped by EM, only by pruning); with
   ``em_iterations=0`` the probabilities are the seed counts renormalized (the HF course).
3. **Loss**: the corpus loss is ``sum over words of count x -log P(best segmentation)`` (Viterbi, ties by
   :data:`~bpe_core.tokenizer.unigram_lattice.TIE_RULE`), and each piece's *loss increase* is how much it
   rises when that piece is removed (every word re-cut without it; the probabilities of the others kept).
4. **Prune**: remove the ``1 - shrinking_factor`` share with the smallest increase (single characters are
   never removed; ties by :data:`~.unigram_records.PRUNE_TIE_RULE`), run EM again, and repeat until
   ``vocab_size`` pieces are left (``<unk>`` counted).

Each round is a :class:`~.unigram_records.UnigramRound`.  The increases are computed two ways that give
identical numbers: ``method="textbook"`` re-cuts every word for every candidate (the course's
``compute_scores``), ``method="fast"`` (:mod:`.unigram_fast`) only the words whose best cut uses it.

>>> trainer = unigram_steps("hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5, vocab_size=12)
>>> [  # doctest: +NORMALIZE_WHITESPACE
...  (r.vocab_size_before, r.vocab_size, [p.piece for p in r.pruned][:3]) for r in trainer]
[(32, 24, ['bu', 'hu', 'pu']), (24, 18, ['ug', 'un', '▁h']), (18, 13, ['hug', 'hugs', 'pug']),
 (13, 12, ['▁bun'])]
>>> tok = trainer.tokenizer()
>>> tok.encode_pieces("hugs bun")
['▁hug', 's', '▁', 'b', 'u', 'n']
"""

from __future__ import annotations

import importlib.util
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Literal

from ..tokenizer.unigram import UnigramTokenizer
from ..tokenizer.unigram_lattice import Lattice, lattice
from ..tokenizer.unigram_normalizer import SentencePieceNormalizer
from .unigram_fast import loss_increases_fast
from .unigram_loss import (
    TICK_EVERY,
    UNDERFLOW,
    Cut,
    Edges,
    Tick,
    corpus_cuts,
    loss_increases_textbook,
    word_edges,
    word_posteriors,
)
from .unigram_records import (
    MIN_EXPECTED_COUNT,
    SHRINKING_FACTOR,
    STOP_SMALL_SEED,
    STOP_VOCAB_SIZE,
    TRAIN_DEFAULTS,
    PieceLoss,
    UnigramOptions,
    UnigramRound,
    UnigramSeed,
)
from .unigram_sp import FINAL_MARGIN, alternative_losses, bayesian_scores, valid_piece

if TYPE_CHECKING:
    from .unigram_numpy import EdgeTable

Method = Literal["fast", "textbook"]
Progress = Callable[[int, int], object]
"""Told how far the seed or a round has gone, ``(done, 1000)``, a few times a second."""
UNIGRAM_METHODS: tuple[Method, ...] = ("fast", "textbook")
NUMPY = importlib.util.find_spec("numpy") is not None
"""Whether the fast method can sum the lattices with numpy (:mod:`.unigram_numpy`, the ``[fast]`` extra);
without it the fast method is pure Python, with the same result."""

# How our trained tokenizers normalize: no rules, a dummy ▁ in front, spaces kept as they are (so that
# decode(encode(text)) == text for every text whose characters were seen).
TRAIN_NORMALIZER = SentencePieceNormalizer(remove_extra_whitespaces=False)

# A word: a ▁ and what follows up to the next ▁ or whitespace; a run of other non-whitespace; or a run of
# whitespace other than the space (newlines, tabs).
_WORD = re.compile(r"▁[^▁\s]*|[^▁\s]+|\s+")


def text_words(
    text: str,
    normalizer: SentencePieceNormalizer = TRAIN_NORMALIZER,
    *,
    max_word_length: int = 32,
    lines_as_sentences: bool = False,
) -> Counter[str]:
    """The words of ``text`` with their counts, as training sees them.

    A word longer than ``max_word_length`` characters (a text without spaces: Chinese, a URL) is cut into
    pieces of that length, so that re-cutting a word for each of its pieces stays cheap (SentencePiece
    skips such sentences instead).  With ``lines_as_sentences`` each line is normalized alone, so each
    line's first word gets its own ``▁`` (SentencePiece reads a file as sentences, one a line), and each
    newline is a word ``"\\n"``.

    >>> sorted(text_words("the cat\\nthe hat").items())
    [('\\n', 1), ('the', 1), ('▁cat', 1), ('▁hat', 1), ('▁the', 1)]
    >>> sorted(text_words("the cat\\nthe hat", lines_as_sentences=True).items())
    [('\\n', 1), ('▁cat', 1), ('▁hat', 1), ('▁the', 2)]
    >>> text_words("abcdefg", max_word_length=3)
    Counter({'▁ab': 1, 'cde': 1, 'fg': 1})
    """
    if not isinstance(text, str):
        raise ValueError(f"the text to train on must be a string, not {type(text).__name__}")
    words: Counter[str] = Counter()
    parts = text.split("\n") if lines_as_sentences else [text]
    for k, part in enumerate(parts):
        if k:
            words["\n"] += 1
        for word in _WORD.findall(normalizer.normalize(part).text):
            if len(word) <= max_word_length:
                words[word] += 1
            else:
                for i in range(0, len(word), max_word_length):
                    words[word[i : i + max_word_length]] += 1
    return +words


def seed_pieces(
    words: Mapping[str, int], options: UnigramOptions, *, tick: Tick | None = None
) -> tuple[list[tuple[str, int]], int, int]:
    """The seed (:data:`~.unigram_records.SEED_RULE`): (piece, count) best first, candidates, characters.

    >>> seed, candidates, chars = seed_pieces({"hug": 10, "hugs": 5}, UnigramOptions(vocab_size=10))
    >>> seed[:6], candidates, chars
    ([('g', 15), ('h', 15), ('u', 15), ('s', 5), ('hug', 15), ('hu', 15)], 6, 4)
    """
    # plain dicts and .get: a Counter's missing key costs a Python call, and most substrings are new
    chars: dict[str, int] = {}
    subs: dict[str, int] = {}
    char_count, sub_count = chars.get, subs.get
    longest = options.max_piece_length
    branching = options.seed_by_branching
    reach = longest + 1 if branching else longest  # one character more: what follows the longest pieces
    ends: dict[str, int] = {}  # how often each substring ends its word (for the branching rule)
    end_count = ends.get
    for count, (word, n) in enumerate(words.items(), start=1):
        if tick is not None and count % TICK_EVERY == 0:
            tick(count, len(words))
        size = len(word)
        for i in range(size):
            c = word[i]
            chars[c] = char_count(c, 0) + n
            for j in range(i + 2, min(size, i + reach) + 1):
                sub = word[i:j]
                subs[sub] = sub_count(sub, 0) + n
            if branching and 2 <= size - i <= longest:
                tail = word[i:]
                ends[tail] = end_count(tail, 0) + n
    frequent = _frequent(right_branching(subs, ends, longest) if branching else subs, options)
    if branching and len(chars) + len(frequent) < options.vocab_size:
        # too few branching substrings to reach the vocabulary (a short text): seed them all instead
        frequent = _frequent({s: n for s, n in subs.items() if len(s) <= longest}, options)
    room = max(0, options.seed_size - len(chars))
    seed = sorted(chars.items(), key=lambda cn: (-cn[1], cn[0])) + frequent[:room]
    return seed, len(frequent), len(chars)


def _frequent(subs: Mapping[str, int], options: UnigramOptions) -> list[tuple[str, int]]:
    """The substrings seen twice at least (and valid pieces with ``split_by_script``), best seeds first."""
    frequent = [(s, n) for s, n in subs.items() if n >= 2]
    if options.split_by_script:
        frequent = [(s, n) for s, n in frequent if valid_piece(s)]
    frequent.sort(key=lambda sn: (-sn[1] * len(sn[0]), sn[0]))
    return frequent


def right_branching(subs: Mapping[str, int], ends: Mapping[str, int], longest: int) -> dict[str, int]:
    """The substrings (at most ``longest`` characters) that are not always followed by the same thing:
    by two different characters at least, or by one and the end of their word (SentencePiece's seed: the
    internal nodes of its suffix tree).  ``subs``: every substring's count, up to ``longest + 1``
    characters; ``ends``: how often each ends its word.

    >>> right_branching({"ab": 3, "abc": 3, "bc": 4, "bcd": 3, "cd": 2}, {"bc": 1, "cd": 2}, 2)
    {'bc': 4}
    """
    widest: dict[str, int] = {}  # each substring's most frequent one-character extension
    top = widest.get
    for sub, n in subs.items():
        if len(sub) > 2:
            head = sub[:-1]
            if n > top(head, 0):
                widest[head] = n
    return {
        sub: n for sub, n in subs.items() if len(sub) <= longest and top(sub, 0) < n and ends.get(sub, 0) < n
    }


def expected_counts(
    words: Mapping[str, int],
    scores: Mapping[str, float],
    longest: int,
    edges: Mapping[str, Edges] | None = None,
    *,
    tick: Tick | None = None,
) -> tuple[dict[str, float], float]:
    """The E step: each piece's expected count over all segmentations of all words (forward-backward),
    and the objective, ``-sum count x log P(word)`` (P(word) summing over its segmentations).

    ``alpha[j]`` is the probability of the word's first ``j`` characters (all cuts), ``beta[i]`` of the rest
    after ``i``; a piece from ``i`` to ``j`` is in a cut with probability ``alpha[i] P(piece) beta[j] / Z``.
    Products are taken as they are for words short enough that they cannot underflow, else in logs.
    """
    counts = dict.fromkeys(scores, 0.0)
    probs = {p: math.exp(s) for p, s in scores.items()}
    worst = -min(scores.values(), default=0.0)
    objective = []
    for count, (word, freq) in enumerate(words.items(), start=1):
        if tick is not None and count % TICK_EVERY == 0:
            tick(count, len(words))
        n = len(word)
        cut = edges[word] if edges is not None else word_edges(word, scores, longest)
        if n * worst < UNDERFLOW:  # the smallest product is above exp(-600): no underflow
            # each edge's probability looked up once (the same products, in the same order)
            ranged = [(i, j, p, probs[p]) for i, j, p in cut]
            alpha = [1.0] + [0.0] * n
            for i, j, _, q in ranged:
                alpha[j] += alpha[i] * q
            beta = [0.0] * n + [1.0]
            for i, j, _, q in reversed(ranged):
                beta[i] += q * beta[j]
            z = alpha[n]
            if z <= 0.0:
                raise ValueError(
                    f"the word {word!r} cannot be cut with the pieces; every character must be one"
                )
            scale = freq / z
            for i, j, p, q in ranged:
                counts[p] += scale * alpha[i] * q * beta[j]
            objective.append(-freq * math.log(z))
            continue
        posteriors, term = word_posteriors(word, n, cut, scores, freq)
        for (_, _, p), c in zip(cut, posteriors):
            counts[p] += c
        objective.append(term)
    return counts, math.fsum(objective)


def scores_from_counts(counts: Mapping[str, float]) -> dict[str, float]:
    """The M step: log(count / total), each count at least MIN_EXPECTED_COUNT."""
    floored = {p: max(c, MIN_EXPECTED_COUNT) for p, c in counts.items()}
    log_total = math.log(math.fsum(floored.values()))
    return {p: math.log(c) - log_total for p, c in floored.items()}


class UnigramTrainer(Iterator[UnigramRound]):
    """One Unigram run over ``words`` (word -> count): the seed at once (``seed``), a round per ``next()``.

    ``scores`` holds the pieces now (piece -> log probability); ``stop_reason`` says why it stopped (None
    while it can go on); :meth:`tokenizer` gives the tokenizer of the pieces now; :meth:`lattice` any
    word's lattice under them.  ``seed=`` (piece -> count) replaces the seed rule, e.g. the course's.
    Build it with :func:`unigram_steps` from a text, or directly from word counts.
    """

    def __init__(
        self,
        words: Mapping[str, int],
        options: UnigramOptions,
        *,
        method: Method = "fast",
        seed: Mapping[str, int] | None = None,
        normalizer: SentencePieceNormalizer = TRAIN_NORMALIZER,
        progress: Progress | None = None,
        use_numpy: bool | None = None,
    ) -> None:
        self.progress = progress
        if method not in UNIGRAM_METHODS:
            raise ValueError(f"method {method!r} is unknown; use one of {', '.join(UNIGRAM_METHODS)}")
        self.words = {w: n for w, n in words.items() if w and n > 0}
        if not self.words:
            raise ValueError("the text has no words to train on; give a non-empty text")
        self.options = options
        self.method = method
        self.normalizer = normalizer
        self.longest = options.max_piece_length
        characters = sorted({c for w in self.words for c in w})
        if options.vocab_size < len(characters) + 1:
            raise ValueError(
                f"vocab_size {options.vocab_size} is smaller than the text's {len(characters)} characters + "
                f"<unk>; ask for at least {len(characters) + 1} (single characters are never pruned)"
            )
        passes = 3 + options.em_iterations  # the seed, the edges, EM, the loss
        if seed is None:
            pieces, candidates, _ = seed_pieces(self.words, options, tick=self._tick(0, passes))
        else:
            pieces = sorted(((p, int(n)) for p, n in seed.items()), key=lambda pn: (-pn[1], pn[0]))
            candidates = len(pieces)
            missing = [c for c in characters if c not in seed]
            if missing:
                raise ValueError(
                    f"the seed lacks the characters {missing[:10]}; every character must be a piece"
                )
            self.longest = max(self.longest, max(len(p) for p, _ in pieces))
        if options.seed_by_coverage:  # SentencePiece: each piece weighed by the characters it covers
            self._seed_counts = {p: n * len(p) for p, n in pieces}
        else:
            self._seed_counts = dict(pieces)
        self._characters = frozenset(characters)
        self.scores = scores_from_counts(self._seed_counts)
        # each word's edges (the pieces that fit where), found once and filtered as pieces go
        tick = self._tick(1, passes)
        self._edges: dict[str, Edges] = {}
        self._table: EdgeTable | None = None
        if use_numpy is None:
            use_numpy = method == "fast" and NUMPY
        if use_numpy:
            from .unigram_numpy import EdgeTable  # numpy: the [fast] extra

            self._table = EdgeTable.build(self.words, self.scores, self.longest)
        else:
            for n, w in enumerate(self.words, start=1):
                self._edges[w] = word_edges(w, self.scores, self.longest)
                if tick is not None and n % TICK_EVERY == 0:
                    tick(n, len(self.words))
        em_losses, dropped = self._em(first=2, passes=passes)
        loss, tokens, cuts = self._corpus_cuts(self._tick(passes - 1, passes))
        self._cuts = cuts
        self.seed = UnigramSeed(
            pieces=tuple(pieces),
            characters=len(characters),
            candidates=candidates,
            distinct_words=len(self.words),
            words=sum(self.words.values()),
            em_losses=em_losses,
            loss=loss,
            tokens=tokens,
            dropped=dropped,
        )
        self._loss, self._tokens = loss, tokens
        self.rounds = 0
        small = len(self.scores) + 1 < options.vocab_size
        done = len(self.scores) + 1 <= options.vocab_size
        self.stop_reason: str | None = STOP_SMALL_SEED if small else STOP_VOCAB_SIZE if done else None

    def __iter__(self) -> UnigramTrainer:
        return self

    def __next__(self) -> UnigramRound:
        if self.stop_reason is not None:
            raise StopIteration
        options = self.options
        before = len(self.scores) + 1  # + <unk>
        target = options.vocab_size
        by_score = False
        if options.final_by_score:  # by loss down to FINAL_MARGIN x the size, then by probability
            by_score = before <= int(FINAL_MARGIN * target)
            keep = (
                target
                if by_score
                else max(int(FINAL_MARGIN * target), int(options.shrinking_factor * before))
            )
        else:
            keep = max(target, int(options.shrinking_factor * before))
        prune = max(1, before - keep)
        candidates = [p for p in self.scores if p not in self._characters]
        passes = 2 + options.em_iterations  # the increases, EM, the loss
        outright: set[str] = set()
        if options.prune_by_alternative:
            increases, outright = alternative_losses(
                self.words, self.scores, candidates, self.longest, self._cuts
            )
            prune = min(max(prune, len(outright)), before - target)
        else:
            increases = self.loss_increases(candidates, tick=self._tick(0, passes))
        if by_score:
            ranked = sorted(candidates, key=lambda p: (self.scores[p], p))
        else:
            ranked = sorted(candidates, key=lambda p: (p not in outright, increases[p], self.scores[p], p))
        pruned = [PieceLoss(p, self.scores[p], increases[p]) for p in ranked[:prune]]
        closest = [
            PieceLoss(p, self.scores[p], increases[p]) for p in ranked[prune : prune + self.options.top_k]
        ]
        loss_before, tokens_before = self._loss, self._tokens
        for p in pruned:
            del self.scores[p.piece]
        if self.options.em_iterations == 0:  # the course: the seed counts of what is left
            self.scores = scores_from_counts({p: self._seed_counts[p] for p in self.scores})
        else:  # EM starts from the probabilities left, renormalized
            self.scores = scores_from_counts({p: math.exp(s) for p, s in self.scores.items()})
        gone = {p.piece for p in pruned}
        self._drop(gone)
        em_losses, dropped = self._em(first=1, passes=passes)
        self._loss, self._tokens, self._cuts = self._corpus_cuts(self._tick(passes - 1, passes))
        self.rounds += 1
        if len(self.scores) + 1 <= target:
            self.stop_reason = STOP_VOCAB_SIZE
        return UnigramRound(
            index=self.rounds,
            vocab_size_before=before,
            vocab_size=len(self.scores) + 1,
            target=target,
            loss_before=loss_before,
            loss_after=self._loss,
            pruned=tuple(pruned),
            closest_kept=tuple(closest),
            em_losses=em_losses,
            tokens_before=tokens_before,
            tokens_after=self._tokens,
            dropped=dropped,
            by_score=by_score,
        )

    def run(self) -> UnigramTrainer:
        """Run to the end."""
        for _ in self:
            pass
        return self

    def loss_increases(self, candidates: list[str], *, tick: Tick | None = None) -> dict[str, float]:
        """Each candidate's loss increase under the scores now (by ``method``; both give the same)."""
        if self.method == "textbook":
            return loss_increases_textbook(self.words, self.scores, candidates, self.longest, self._edges)
        if self._table is not None:
            return self._table.loss_increases(self.scores, candidates, self._cuts)
        return loss_increases_fast(
            self.words, self.scores, candidates, self.longest, self._edges, cuts=self._cuts, tick=tick
        )

    def _drop(self, gone: set[str]) -> None:
        """Remove the edges of the pieces ``gone`` from every word's lattice."""
        if self._table is not None:
            self._table.drop(gone)
        elif gone:
            self._edges = {w: [e for e in cut if e[2] not in gone] for w, cut in self._edges.items()}

    def _corpus_cuts(self, tick: Tick | None) -> tuple[float, int, dict[str, Cut]]:
        if self._table is not None:
            return self._table.corpus_cuts(self.scores)
        return corpus_cuts(self.words, self.scores, self.longest, self._edges, tick=tick)

    @property
    def cuts(self) -> dict[str, Cut]:
        """Each word's best segmentation under the pieces now (its score and pieces; Viterbi, ties by
        :data:`~bpe_core.tokenizer.unigram_lattice.TIE_RULE`), made while the loss was computed.  A
        new dict after each round (the old one stays as it was)."""
        return self._cuts

    def _tick(self, at: int, passes: int) -> Tick | None:
        """Pass ``at`` of ``passes`` (each a loop over the words) as the run's progress, in thousandths."""
        progress = self.progress
        if progress is None:
            return None

        def tick(done: int, total: int) -> None:
            progress(int(1000 * (at + done / max(total, 1)) / passes), 1000)

        tick(0, 1)
        return tick

    def lattice(self, word: str) -> Lattice:
        """``word``'s lattice under the pieces now, as given (a word of the text starts with ``▁``)."""
        return lattice(word, self.scores, max_piece_length=self.longest)

    @property
    def loss(self) -> float:
        return self._loss

    @property
    def vocab_size(self) -> int:
        return len(self.scores) + 1

    def tokenizer(self) -> UnigramTokenizer:
        """The tokenizer of the pieces now: ``<unk>`` (id 0, score 0, as SentencePiece), then best first."""
        ranked = sorted(self.scores.items(), key=lambda ps: (-ps[1], ps[0]))
        return UnigramTokenizer(
            [(self.options.unk_piece, 0.0), *ranked], unk_id=0, normalizer=self.normalizer
        )

    def _em(self, *, first: int, passes: int) -> tuple[tuple[float, ...], tuple[str, ...]]:
        """EM's iterations: their objectives, and the pieces the Bayesian M step dropped (if on)."""
        losses = []
        dropped: list[str] = []
        for k in range(self.options.em_iterations):
            tick = self._tick(first + k, passes)
            if self._table is not None:
                counts, objective = self._table.expected_counts(self.scores)
            else:
                counts, objective = expected_counts(
                    self.words, self.scores, self.longest, self._edges, tick=tick
                )
            if self.options.bayesian_em:
                self.scores, gone = bayesian_scores(counts, self._characters, self.options.vocab_size - 1)
                if gone:
                    dropped += gone
                    self._drop(set(gone))
            else:
                self.scores = scores_from_counts(counts)
            losses.append(objective)
        return tuple(losses), tuple(dropped)


def unigram_steps(
    text: str,
    *,
    vocab_size: int,
    shrinking_factor: float = SHRINKING_FACTOR,
    max_piece_length: int = 16,
    seed_size: int = 1_000_000,
    em_iterations: int = 2,
    top_k: int = 20,
    unk_piece: str = "<unk>",
    max_word_length: int = 32,
    lines_as_sentences: bool = False,
    split_by_script: bool = False,
    seed_by_coverage: bool = False,
    seed_by_branching: bool = False,
    bayesian_em: bool = False,
    prune_by_alternative: bool = False,
    final_by_score: bool = False,
    method: Method = "fast",
    progress: Progress | None = None,
) -> UnigramTrainer:
    """Train a Unigram model on ``text``, one :class:`~.unigram_records.UnigramRound` per ``next()``.

    The options are :class:`~.unigram_records.UnigramOptions`' (each checked).  An empty text, or a
    ``vocab_size`` below the text's characters + 1, is a ValueError saying what to do.  ``progress(done,
    1000)`` follows the seed's making and then each round's (set ``trainer.progress`` to change it).
    """
    options = UnigramOptions(
        vocab_size=vocab_size,
        shrinking_factor=shrinking_factor,
        max_piece_length=max_piece_length,
        seed_size=seed_size,
        em_iterations=em_iterations,
        top_k=top_k,
        unk_piece=unk_piece,
        max_word_length=max_word_length,
        lines_as_sentences=lines_as_sentences,
        split_by_script=split_by_script,
        seed_by_coverage=seed_by_coverage,
        seed_by_branching=seed_by_branching,
        bayesian_em=bayesian_em,
        prune_by_alternative=prune_by_alternative,
        final_by_score=final_by_score,
    )
    if not isinstance(text, str) or not text.strip():
        raise ValueError("the text to train on is empty; give some text (a sentence at least)")
    words = text_words(
        text, max_word_length=options.max_word_length, lines_as_sentences=options.lines_as_sentences
    )
    return UnigramTrainer(words, options, method=method, progress=progress)


def train_unigram(text: str, *, vocab_size: int, **options: object) -> UnigramTokenizer:
    """A Unigram tokenizer trained on ``text`` to ``vocab_size`` pieces (options as :func:`unigram_steps`).

    Unlike :func:`unigram_steps` (the textbook, which the stage steps through), it defaults to
    SentencePiece's branching seed, Bayesian M step and final pass (:data:`~.unigram_records.TRAIN_DEFAULTS`):
    vocabularies that travel better to text it was not trained on; pass each ``False`` for the textbook's.

    >>> tok = train_unigram("low lower lowest " * 20, vocab_size=12)  # ▁lowest: always a whole word, no seed
    >>> tok.encode_pieces("lowest low")
    ['▁lowe', 's', 't', '▁low']
    >>> tok.decode(tok.encode("lowest low")) == "lowest low"
    True
    """
    chosen = {**TRAIN_DEFAULTS, **options}
    return unigram_steps(text, vocab_size=vocab_size, **chosen).run().tokenizer()  # type: ignore[arg-type]
