"""The pipeline as one tokenizer: HF ``tokenizers``' stages run in order, with the ``SchemeTokenizer``
interface (:mod:`bpe_core.tokenizer.scheme`).

Encoding, as HF's ``Tokenizer.encode``:

1. added tokens that are not ``normalized`` are found in the raw text (:mod:`.added_tokens`);
2. each stretch between them is normalized (:mod:`.normalizers`), and the ``normalized`` added tokens
   are found in that;
3. the rest is cut into words (:mod:`.pre_tokenizers`), and each word into pieces (:mod:`.models`);
4. with ``with_special_tokens=True``, the post-processor adds the model's special tokens
   (:mod:`.post_processors`).

Decoding looks up each id's piece and runs the decoder (:mod:`.decoders`); without one, the pieces are
joined with spaces, as HF does.

>>> from bpe_core.pipeline import models, normalizers, pre_tokenizers, decoders, post_processors
>>> vocab = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "hello": 3, "world": 4, "!": 5}
>>> tok = PipelineTokenizer(
...     model=models.WordPieceModel(vocab),
...     normalizer=normalizers.BertNormalizer(),
...     pre_tokenizer=pre_tokenizers.BertPreTokenizer(),
...     decoder=decoders.WordPiece(),
...     post_processor=post_processors.BertProcessing(sep=("[SEP]", 2), cls=("[CLS]", 1)),
... )
>>> tok.encode("Hello, World!"), tok.encode("Hello World!", with_special_tokens=True)
([3, 0, 4, 5], [1, 3, 4, 5, 2])
>>> tok.decode(tok.encode("HELLO world!"))
'hello world!'
>>> tok.lost("héllo").changed
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..tokenizer import Loss, Tokenizer, TokenSpan
from .added_tokens import AddedToken, AddedTokens
from .aligned import Aligned
from .decoders import Decoder
from .models import BpeModel, Model, UnigramModel, WordPieceModel
from .normalizers import Normalizer
from .post_processors import PostProcessor
from .pre_tokenizers import PreTokenizer

FAMILY_OF_MODEL = {WordPieceModel.kind: "wordpiece", UnigramModel.kind: "unigram", BpeModel.kind: "piece-bpe"}
"""The scheme each model kind belongs to (:data:`bpe_core.tokenizer.scheme.SCHEMES`, and ``piece-bpe``): a
pipeline's ``family``.  Its ``scheme`` is ``pipeline``: what it does is its stages', not one class's."""


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of a pipeline as a page lists it: its place (``normalizer``...) and its ``kind``
    (``BertNormalizer``...), with what it is set to."""

    place: str
    kind: str
    setting: str


class PipelineTokenizer:
    """A tokenizer built of HF's stages (see the module docstring); every stage but the model may be None.

    ``scheme`` is ``pipeline`` (pages show it by its stages); ``family`` the scheme of its model
    (:data:`FAMILY_OF_MODEL`)."""

    scheme = "pipeline"

    def __init__(
        self,
        *,
        model: Model,
        normalizer: Normalizer | None = None,
        pre_tokenizer: PreTokenizer | None = None,
        post_processor: PostProcessor | None = None,
        decoder: Decoder | None = None,
        added_tokens: Sequence[AddedToken] = (),
        unk_token: str | None = None,
    ) -> None:
        self.model = model
        self.normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.post_processor = post_processor
        self.decoder = decoder
        self.added_tokens = tuple(added_tokens)
        self.family = FAMILY_OF_MODEL[model.kind]
        self._raw = [t for t in self.added_tokens if not t.normalized]
        self._normalized = [
            AddedToken(
                self._normalize(Aligned.of(t.content)).text or t.content,
                t.id,
                t.single_word,
                t.lstrip,
                t.rstrip,
                True,
                t.special,
            )
            for t in self.added_tokens
            if t.normalized
        ]
        self._raw_matcher = AddedTokens(self._raw)
        self._normalized_matcher = AddedTokens(self._normalized)
        # a normalized token is written as normalized (HF's `simple_id_to_token`), so decoders invert it
        self._added_piece = {t.id: t.content for t in [*self._raw, *self._normalized]}
        self._special = frozenset(t.id for t in self.added_tokens if t.special)
        unk = unk_token if unk_token is not None else getattr(model, "unk_token", None)
        if isinstance(model, UnigramModel):
            unk = model.pieces[model.unk_id]
        self.unk_id: int | None = model.vocab.get(unk) if unk is not None else None
        ids = list(model.pieces) + list(self._added_piece)
        self._size = max(ids) + 1 if ids else 0

    def __repr__(self) -> str:
        return f"PipelineTokenizer({self.model.kind}, {self.vocab_size} ids)"

    # -- the SchemeTokenizer interface ----------------------------------------------------------------

    @property
    def vocab_size(self) -> int:
        return self._size

    @property
    def special_ids(self) -> frozenset[int]:
        return self._special

    def as_bpe(self) -> Tokenizer | None:
        return None

    def piece(self, token_id: int) -> str:
        """The token as the vocabulary writes it (``##ing``, ``▁the``, ``<0xE6>``, ``[CLS]``)."""
        hit = self._added_piece.get(token_id)
        if hit is None:
            hit = self.model.pieces.get(token_id)
        if hit is None or isinstance(token_id, bool):
            raise ValueError(
                f"token id {token_id!r} is not in the vocabulary (ids 0..{self._size - 1}); check the ids"
            )
        return hit

    def encode(self, text: str, *, with_special_tokens: bool = False) -> list[int]:
        """The ids of ``text``; with ``with_special_tokens``, as the post-processor frames them."""
        ids = [t for t, _, _ in self._tokens(text)]
        if with_special_tokens and self.post_processor is not None:
            ids = self.post_processor.process(ids)
        return ids

    def encode_pieces(self, text: str) -> list[str]:
        return [self.piece(t) for t in self.encode(text)]

    def decode(self, ids: Iterable[int], *, skip_special_tokens: bool = False) -> str:
        """The text of ``ids``: their pieces through the decoder (HF's ``decode``)."""
        pieces = [self.piece(i) for i in ids if not (skip_special_tokens and i in self._special)]
        if self.decoder is None:
            return " ".join(pieces)
        return "".join(self.decoder.decode_chain(pieces))

    def incremental_decoder(self) -> PipelineDecoder:
        """A decoder of ids given in blocks, whose texts joined are :meth:`decode` of them all (see
        :class:`PipelineDecoder`)."""
        return PipelineDecoder(self)

    def token_spans(self, text: str) -> list[TokenSpan]:
        """Each token over the input, with character and byte offsets; tokens that share a character (its
        bytes as ``<0xNN>`` pieces) share its span, each holding one of its bytes."""
        starts = [0]
        for c in text:
            starts.append(starts[-1] + len(c.encode("utf-8", "surrogatepass")))
        data = text.encode("utf-8", "surrogatepass")
        tokens = self._tokens(text)
        out: list[TokenSpan] = []
        k = 0
        while k < len(tokens):
            run = k + 1
            while run < len(tokens) and tokens[run][1:] == tokens[k][1:] and tokens[k][1] < tokens[k][2]:
                run += 1
            _, a, b = tokens[k]
            for m in range(k, run):
                lo = min(starts[a] + m - k, starts[b]) if run - k > 1 else starts[a]
                hi = min(lo + 1, starts[b]) if m < run - 1 else starts[b]
                out.append(TokenSpan(tokens[m][0], data[lo:hi], a, b, lo, hi))
            k = run
        return out

    def lost(self, text: str) -> Loss:
        """What ``decode(encode(text))`` loses (:class:`~bpe_core.tokenizer.scheme.Loss`): ``unknown``, the
        spans that became the unknown token; ``changed``, characters the normalizer changed (``É`` to ``e``,
        a control character dropped; a space it writes as ``▁`` is not counted, the decoder puts it back)."""
        tokens = self._tokens(text)
        unknown = tuple((a, b) for t, a, b in tokens if t == self.unk_id and self.unk_id is not None)
        decoded = self.decode(t for t, _, _ in tokens)
        return Loss(decoded == text, decoded, unknown, 0, self._changed(text) if decoded != text else 0)

    def stages(self) -> list[Stage]:
        """The pipeline's stages in order, each with what it is set to (for a page to list)."""
        out = []
        for place, stage in (
            ("normalizer", self.normalizer),
            ("pre-tokenizer", self.pre_tokenizer),
            ("model", self.model),
            ("post-processor", self.post_processor),
            ("decoder", self.decoder),
        ):
            if stage is not None:
                out.append(Stage(place, stage.kind, _setting(stage)))
        return out

    # -- the work -------------------------------------------------------------------------------------

    def _normalize(self, text: Aligned) -> Aligned:
        return text if self.normalizer is None else self.normalizer.normalize(text)

    def _tokens(self, text: str) -> list[tuple[int, int, int]]:
        """(id, start, end) over the input, in characters."""
        if not isinstance(text, str):
            raise ValueError(f"the text to encode must be a string, not {type(text).__name__}")
        out: list[tuple[int, int, int]] = []
        for part, added in self._raw_matcher.split([Aligned.of(text)]):
            if added is not None:
                out.append((added, *part.span(0, len(part))))
                continue
            for piece, added2 in self._normalized_matcher.split([self._normalize(part)]):
                if added2 is not None:
                    out.append((added2, *piece.span(0, len(piece))))
                    continue
                words = [piece] if self.pre_tokenizer is None else self.pre_tokenizer.pre_tokenize([piece])
                for word in words:
                    for t, i, j in self.model.tokenize(word.text):
                        out.append((t, *word.span(i, j)))
        return out

    def _changed(self, text: str) -> int:
        """How many characters of ``text`` the normalizer turns into something else (see :meth:`lost`)."""
        if self.normalizer is None:
            return 0
        norm = self.normalizer.normalize(Aligned.of(text))
        became = [""] * len(text)
        wide: set[int] = set()
        for c, a, b in zip(norm.text, norm.starts, norm.ends):
            if b - a == 1:
                became[a] += c
            else:
                wide.update(range(a, b))
        changed = 0
        for k, c in enumerate(text):
            now = became[k].replace("▁", " ")
            if k in wide or not (now == c or (now.endswith(c) and not now[: -len(c)].strip())):
                changed += 1
        return changed


class PipelineDecoder:
    """:meth:`PipelineTokenizer.decode` a block of ids at a time.  A decoder chain may join pieces across
    the whole text (``Fuse``, ``Strip`` of the first piece, byte runs), so the ids are checked as they come
    and kept, and the text is given whole with the last block (``final=True``).

    >>> from bpe_core.pipeline.models import WordPieceModel
    >>> from bpe_core.pipeline.decoders import WordPiece
    >>> d = PipelineTokenizer(model=WordPieceModel({"[UNK]": 0, "hug": 1, "##s": 2}), decoder=WordPiece())
    >>> decoder = d.incremental_decoder()
    >>> [decoder.decode([1]), decoder.decode([2, 1], final=True)]
    ['', 'hugs hug']
    """

    def __init__(self, tok: PipelineTokenizer) -> None:
        self.tok = tok
        self.ids: list[int] = []

    def decode(self, ids: Iterable[int], final: bool = False) -> str:
        block = list(ids)
        for i in block:
            self.tok.piece(i)  # an unknown id is an error in the block that holds it
        self.ids.extend(block)
        if not final:
            return ""
        text = self.tok.decode(self.ids)
        self.ids = []
        return text


def _setting(stage: object) -> str:
    """A stage's settings in one short line (``lowercase=True, strip_accents=None``)."""
    fields = getattr(stage, "__dataclass_fields__", {})
    parts = []
    for name, f in fields.items():
        if not f.init or name in ("vocab", "vocab_scores", "merges", "charsmap"):
            continue
        value = getattr(stage, name)
        if isinstance(value, list | tuple) and value and hasattr(value[0], "kind"):
            value = "[" + ", ".join(v.kind for v in value) + "]"
        parts.append(
            f"{name}={value!r}"
            if not isinstance(value, str) or not value.startswith("[")
            else f"{name}={value}"
        )
    return ", ".join(parts)
