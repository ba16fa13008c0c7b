"""Which tokenizer to use: one small record per kind, each with a stable text form (pure).

Each kind is one class (subclassing registers it): its ``prefix``, how it reads the rest of its text
form (:meth:`TokenizerSpec.read`), its label, and how it turns into a tokenizer (:meth:`~TokenizerSpec.
resolve`, with the :class:`Here` the Streamlit side provides).  The text form goes into the URL and
the compare list: a spec round-trips, and a bad one is a ValueError that says what is wrong.

>>> QuickSpec(corpus="lighthouse-story", vocab_size=500, pattern="gpt2").key()
'quick:lighthouse-story:500:gpt2'
>>> parse("session:50"), parse("session"), parse("hf:openai-community/gpt2").label()
(SessionSpec(step=50), SessionSpec(step=None), 'openai-community/gpt2 (Hugging Face)')
>>> parse("quick:x:9:gpt2")
Traceback (most recent call last):
...
ValueError: vocab size 9 in 'quick:x:9:gpt2' is out of range; use 256 to 5000
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Protocol
from urllib.parse import urlsplit

from bpe_core import PATTERNS, CharTokenizer, SchemeTokenizer, Tokenizer
from bpe_core.formats import TokenizerFileError
from bpe_core.hub import (
    ENCODINGS,
    Fetched,
    FetchError,
    FoundTokenizer,
    LocalLoad,
    ProgressCallback,
    fetch_encoding,
    fetch_hub_tokenizer,
)
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .fetch_settings import FetchSettings
from .schemes import shows

MIN_VOCAB = 256
MAX_QUICK_VOCAB = 5000
MAX_STEP = 1_000_000
LOCAL = "local"  # the picker's choice for tokenizers of tiktoken and the hub (see tokenizer_picker)
_HF_NAME = re.compile(r"[A-Za-z0-9][\w.\-]{0,95}(/[\w.\-]{1,96})?")
_DIGEST = re.compile(r"[0-9a-f]{16}")


# ----- what a spec resolves to, and what it resolves with ----------------------------------------------
@dataclass(frozen=True, slots=True)
class Picked:
    """A resolved tokenizer: what to call it, the tokenizer, the pair count of each merge when known.

    ``quiet``: the ``error`` is an absence (nothing trained yet, not on this machine, files not
    uploaded here), said as a note rather than as an error.
    """

    spec: TokenizerSpec
    label: str
    tokenizer: SchemeTokenizer | None
    identity: str  # changes whenever the tokenizer could change (for memos)
    counts: tuple[int, ...] | None = None
    notes: tuple[str, ...] = ()
    error: str | None = None
    quiet: bool = False


@dataclass(frozen=True, slots=True)
class QuickTrained:
    """A tokenizer trained here, the pair count of each of its merges, and why training stopped."""

    tokenizer: Tokenizer
    counts: tuple[int, ...]
    stop_reason: str | None


@dataclass(slots=True)
class LoadedUpload:
    """The files of one upload (by digest) and the tokenizer or the loader's message."""

    digest: str
    names: tuple[str, ...]
    pattern: str | None
    tokenizer: SchemeTokenizer | None = None  # byte-level BPE, or WordPiece / Unigram read from their files
    error: str | None = None
    notes: tuple[str, ...] = ()  # what the loader said (a pattern or special tokens the files do not carry)


class Here(Protocol):
    """What a spec resolves with: the tokenizers this server and this session hold (:mod:`.resolve`)."""

    def quick_train(self, corpus: str, vocab_size: int, pattern: str) -> QuickTrained: ...
    def char_baseline(self, corpus: str) -> CharTokenizer: ...
    def bytes_only(self, pattern: str) -> Tokenizer: ...
    def training_run(self) -> TrainingRun | None: ...
    def cut(self, run: TrainingRun, step: int) -> tuple[Tokenizer, int]: ...  # tokenizer, memo serial
    def found(self, key: str) -> FoundTokenizer | None: ...
    def why_not(self, key: str) -> str | None: ...  # why a tokenizer on this machine cannot load
    def load_found(self, found: FoundTokenizer) -> LocalLoad: ...
    def upload(self, digest: str) -> LoadedUpload | None: ...  # "" = the files uploaded last


# ----- the kinds --------------------------------------------------------------------------------------------
KINDS: dict[str, type[TokenizerSpec]] = {}  # prefix -> class, filled as each kind is defined


class TokenizerSpec(ABC):
    """A tokenizer choice: a kind (the class) and the settings that kind needs (its fields)."""

    __slots__ = ()
    prefix: ClassVar[str]  # the text form's first word; registers the kind
    choice: ClassVar[str] = ""  # the picker's radio choice that shows it (default: the prefix)
    in_session: ClassVar[bool] = False  # lives in one session only (a link cannot bring it along)
    title: ClassVar[str] = ""  # the label of a kind without settings that name it
    __match_args__: ClassVar[tuple[str, ...]] = ()  # the fields, in order (each kind's dataclass sets it)

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        prefix = cls.__dict__.get("prefix")
        if prefix is None:
            return
        known = KINDS.get(prefix)
        if known is not None and known.__qualname__ != cls.__qualname__:  # same name: the slots copy
            raise ValueError(f"two tokenizer kinds use the prefix {prefix!r}; give one another")
        KINDS[prefix] = cls
        cls.choice = cls.choice or prefix

    @classmethod
    @abstractmethod
    def read(cls, rest: str, text: str) -> TokenizerSpec:
        """The spec of ``text``, whose part after ``prefix:`` is ``rest`` (a ValueError if bad)."""

    def key(self) -> str:
        """The text form: ``quick:lighthouse-story:500:gpt2``, ``session:50``, ``tiktoken:cl100k_base``..."""
        return ":".join((self.prefix, *self.parts()))

    def parts(self) -> tuple[str, ...]:
        """What follows the prefix in the text form: the fields in order, but those that are None."""
        return tuple(str(v) for name in self.__match_args__ if (v := getattr(self, name)) is not None)

    def label(self, *, titles: Mapping[str, str] | None = None) -> str:
        """A short human label (``titles`` maps corpus ids to titles)."""
        return self.title

    @abstractmethod
    def resolve(self, here: Here, *, text: str, titles: Mapping[str, str]) -> Picked:
        """The tokenizer this names (``text``: the text being tokenized); a ValueError says why not."""

    def picker_state(self, *, titles: Mapping[str, str]) -> dict[str, object]:
        """The picker's widget values (by key) that show this spec, beside its choice."""
        return {}

    def picked(
        self,
        label: str,
        tokenizer: SchemeTokenizer,
        *,
        counts: tuple[int, ...] | None = None,
        notes: tuple[str, ...] = (),
    ) -> Picked:
        """A Picked of this spec whose identity is its key (for tokenizers that never change)."""
        return Picked(self, label, tokenizer, self.key(), counts, notes)

    def missing(self, label: str, error: str, *, quiet: bool = True) -> Picked:
        """A Picked without a tokenizer, saying why."""
        return Picked(self, label, None, self.key(), error=error, quiet=quiet)


def parse(text: str) -> TokenizerSpec:
    """Read a text form back; anything else is a ValueError naming the problem.

    >>> parse("bytes"), parse("upload")
    (BytesSpec(pattern='gpt2'), UploadSpec(digest=''))
    >>> parse("teleport:1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown tokenizer kind 'teleport' in 'teleport:1'; use one of ['session', ...]
    """
    prefix, _, rest = text.strip().partition(":")
    kind = KINDS.get(prefix)
    if kind is None:
        raise ValueError(f"unknown tokenizer kind {prefix!r} in {text!r}; use one of {list(KINDS)}")
    return kind.read(rest, text)


@dataclass(frozen=True, slots=True)
class SessionSpec(TokenizerSpec):
    """The Train page's run, at its current step (``step`` None) or after ``step`` merges."""

    prefix: ClassVar[str] = "session"
    in_session: ClassVar[bool] = True
    step: int | None = None

    @classmethod
    def read(cls, rest: str, text: str) -> SessionSpec:
        if not rest:
            return cls()
        args = rest.split(":")
        step = _whole(args[0], text, what="step")
        if len(args) != 1 or not 0 <= step <= MAX_STEP:
            raise ValueError(f"step {args[0]!r} in {text!r} is out of range; use 0 to {MAX_STEP}")
        return cls(step=step)

    def label(self, *, titles: Mapping[str, str] | None = None) -> str:
        return "Train page (current step)" if self.step is None else f"Train page after {self.step} merges"

    def picker_state(self, *, titles: Mapping[str, str]) -> dict[str, object]:
        return {keys.FOLLOW: self.step is None} | ({} if self.step is None else {keys.STEP: self.step})

    def resolve(self, here: Here, *, text: str, titles: Mapping[str, str]) -> Picked:
        run = here.training_run()
        if run is None:
            return self.missing(
                self.label(),
                "nothing trained on the Train page in this session yet: "
                "train there first, or pick another tokenizer",
            )
        notes: list[str] = []
        step = run.position if self.step is None else self.step
        if step > run.pulled:
            notes.append(
                f"the Train page has made {run.pulled} merges so far; showing step {run.pulled}, not {step}"
            )
            step = run.pulled
        tok, serial = here.cut(run, step)
        counts = tuple(r.count for r in run.records[:step])
        label = f"Train page after {step} merges" + (" (its current step)" if self.step is None else "")
        return Picked(self, label, tok, f"session:{serial}:{step}", counts, tuple(notes))


@dataclass(frozen=True, slots=True)
class CachedSpec(TokenizerSpec):
    """A tokenizer of tiktoken's cache or the Hugging Face hub cache, loaded once per server;
    one that is not on this machine yet can be fetched into its cache (:meth:`fetch`)."""

    choice: ClassVar[str] = LOCAL
    where: ClassVar[str]  # the cache, in words
    brand: ClassVar[str]  # whose tokenizer, in its label
    name: str = ""

    def label(self, *, titles: Mapping[str, str] | None = None) -> str:
        return f"{self.name} ({self.brand})"

    def picker_state(self, *, titles: Mapping[str, str]) -> dict[str, object]:
        return {keys.LOCAL: self.key()}

    def resolve(self, here: Here, *, text: str, titles: Mapping[str, str]) -> Picked:
        label = self.label()
        found = here.found(self.key())
        unusable = "it is on this machine, but cannot be loaded here: "
        if found is None:
            why = here.why_not(self.key())
            if why is not None:
                return self.missing(label, unusable + why, quiet=False)
            return self.missing(label, f"{self.name} is not in {self.where} on this machine yet")
        try:
            loaded = here.load_found(found)
        except OSError as exc:
            return self.missing(label, f"cannot read its files ({exc.strerror or exc})", quiet=False)
        except TokenizerFileError as exc:  # a WordPiece or Unigram file the top did not rule out
            where = f", {exc.where}" if exc.where else ""
            return self.missing(label, f"{unusable}{Path(exc.path).name}{where}: {exc.problem}", quiet=False)
        tok = loaded.tokenizer
        if not shows(tok):
            return self.missing(label, f"it holds a {tok.scheme} tokenizer, which this page cannot show")
        return Picked(self, found.label, tok, f"{found.key}:{found.stamp()}", notes=loaded.notes)

    @abstractmethod
    def source(self, settings: FetchSettings) -> str:
        """Where :meth:`fetch` gets the files, in words (a host name)."""

    @abstractmethod
    def fetch(self, settings: FetchSettings, *, progress: ProgressCallback | None = None) -> Fetched:
        """Put this tokenizer's files into its cache (a :class:`FetchError` says why not)."""


@dataclass(frozen=True, slots=True)
class TiktokenSpec(CachedSpec):
    """One of tiktoken's encodings (``name``: ``cl100k_base``...)."""

    prefix: ClassVar[str] = "tiktoken"
    where: ClassVar[str] = "tiktoken's cache"
    brand: ClassVar[str] = "tiktoken"

    @classmethod
    def read(cls, rest: str, text: str) -> TiktokenSpec:
        if rest not in ENCODINGS:
            raise ValueError(f"{rest!r} in {text!r} is not one of tiktoken's encodings {list(ENCODINGS)}")
        return cls(name=rest)

    def source(self, settings: FetchSettings) -> str:
        return urlsplit(settings.openai_url).netloc or settings.openai_url

    def fetch(self, settings: FetchSettings, *, progress: ProgressCallback | None = None) -> Fetched:
        if settings.tiktoken_cache is None:
            raise FetchError("tiktoken caches nothing on this server (TIKTOKEN_CACHE_DIR is empty); set it")
        return fetch_encoding(
            self.name,
            cache=settings.tiktoken_cache,
            base_url=settings.openai_url,
            max_bytes=settings.max_bytes,
            progress=progress,
        )


@dataclass(frozen=True, slots=True)
class HfSpec(CachedSpec):
    """A model's tokenizer on the Hugging Face hub (``name``: ``openai-community/gpt2``)."""

    prefix: ClassVar[str] = "hf"
    where: ClassVar[str] = "the Hugging Face hub cache"
    brand: ClassVar[str] = "Hugging Face"

    @classmethod
    def read(cls, rest: str, text: str) -> HfSpec:
        if not _HF_NAME.fullmatch(rest):
            raise ValueError(f"{rest!r} in {text!r} is not a Hugging Face model name like org/name")
        return cls(name=rest)

    def source(self, settings: FetchSettings) -> str:
        return urlsplit(settings.hf_url).netloc or settings.hf_url

    def fetch(self, settings: FetchSettings, *, progress: ProgressCallback | None = None) -> Fetched:
        return fetch_hub_tokenizer(
            self.name,
            hub=settings.hub_cache,
            base_url=settings.hf_url,
            max_bytes=settings.max_bytes,
            progress=progress,
        )


@dataclass(frozen=True, slots=True)
class QuickSpec(TokenizerSpec):
    """Trained here on a built-in corpus, once per server per setting."""

    prefix: ClassVar[str] = "quick"
    corpus: str = ""
    vocab_size: int = 0
    pattern: str = "gpt2"

    @classmethod
    def read(cls, rest: str, text: str) -> QuickSpec:
        args = rest.split(":") if rest else []
        if len(args) != 3:
            raise ValueError(f"{text!r} should read quick:CORPUS:VOCAB_SIZE:PATTERN")
        corpus, size, pattern = args
        vocab = _whole(size, text, what="vocab size")
        if not MIN_VOCAB <= vocab <= MAX_QUICK_VOCAB:
            raise ValueError(
                f"vocab size {vocab} in {text!r} is out of range; use {MIN_VOCAB} to {MAX_QUICK_VOCAB}"
            )
        return cls(corpus=_corpus(corpus, text), vocab_size=vocab, pattern=_pattern(pattern, text))

    def label(self, *, titles: Mapping[str, str] | None = None) -> str:
        return f"{(titles or {}).get(self.corpus, self.corpus)} · vocab {self.vocab_size} · {self.pattern}"

    def picker_state(self, *, titles: Mapping[str, str]) -> dict[str, object]:
        corpus = {keys.CORPUS: self.corpus} if self.corpus in titles else {}
        return corpus | {keys.VOCAB: self.vocab_size, keys.PATTERN: self.pattern}

    def resolve(self, here: Here, *, text: str, titles: Mapping[str, str]) -> Picked:
        trained = here.quick_train(self.corpus, self.vocab_size, self.pattern)
        tok = trained.tokenizer
        notes: tuple[str, ...] = ()
        if tok.vocab_size < self.vocab_size:
            stopped = f"training stopped at vocab {tok.vocab_size} ({len(tok.merges)} merges)"
            notes = (f"{stopped}: {trained.stop_reason}",)
        return self.picked(self.label(titles=titles), tok, counts=trained.counts, notes=notes)


@dataclass(frozen=True, slots=True)
class UploadSpec(TokenizerSpec):
    """Loaded from the user's files: the ones of this ``digest``, or (empty) the ones uploaded last."""

    prefix: ClassVar[str] = "upload"
    title: ClassVar[str] = "uploaded files"
    in_session: ClassVar[bool] = True
    digest: str = ""

    @classmethod
    def read(cls, rest: str, text: str) -> UploadSpec:
        if rest and not _DIGEST.fullmatch(rest):
            raise ValueError(f"{rest!r} in {text!r} is not the digest of uploaded files")
        return cls(digest=rest)

    def parts(self) -> tuple[str, ...]:
        return (self.digest,) if self.digest else ()

    def resolve(self, here: Here, *, text: str, titles: Mapping[str, str]) -> Picked:
        loaded = here.upload(self.digest)
        if loaded is None:
            problem = (
                "no tokenizer files loaded yet: upload them above"
                if not self.digest
                else "these files were uploaded in another session: upload them here too"
            )
            return self.missing(self.label(), problem)
        names = ", ".join(loaded.names)
        if loaded.tokenizer is None:  # the upload widget has shown the error already
            return self.missing(f"uploaded {names}", f"{names}: {loaded.error}")
        return Picked(
            self, f"uploaded {names}", loaded.tokenizer, f"upload:{loaded.digest}", notes=loaded.notes
        )


@dataclass(frozen=True, slots=True)
class CharSpec(TokenizerSpec):
    """The character-level baseline built from a built-in corpus."""

    prefix: ClassVar[str] = "char"
    corpus: str = ""

    @classmethod
    def read(cls, rest: str, text: str) -> CharSpec:
        if not rest or ":" in rest:
            raise ValueError(f"{text!r} should read char:CORPUS")
        return cls(corpus=_corpus(rest, text))

    def label(self, *, titles: Mapping[str, str] | None = None) -> str:
        return f"characters of {(titles or {}).get(self.corpus, self.corpus)}"

    def picker_state(self, *, titles: Mapping[str, str]) -> dict[str, object]:
        return {keys.CORPUS: self.corpus} if self.corpus in titles else {}

    def resolve(self, here: Here, *, text: str, titles: Mapping[str, str]) -> Picked:
        return self.picked(self.label(titles=titles), here.char_baseline(self.corpus))


@dataclass(frozen=True, slots=True)
class TextCharsSpec(TokenizerSpec):
    """The character-level baseline built from the text being tokenized (it never meets an unknown one)."""

    prefix: ClassVar[str] = "textchars"
    title: ClassVar[str] = "characters of this text"

    @classmethod
    def read(cls, rest: str, text: str) -> TextCharsSpec:
        return cls()

    def resolve(self, here: Here, *, text: str, titles: Mapping[str, str]) -> Picked:
        tok = CharTokenizer(text) if text else CharTokenizer(" ")
        return Picked(self, self.label(), tok, f"{self.prefix}:{digest(text)}")


@dataclass(frozen=True, slots=True)
class BytesSpec(TokenizerSpec):
    """No merges: one token per byte (``pattern`` only changes where specials and chunks are cut)."""

    prefix: ClassVar[str] = "bytes"
    title: ClassVar[str] = "raw bytes (no merges)"
    pattern: str = "gpt2"

    @classmethod
    def read(cls, rest: str, text: str) -> BytesSpec:
        return cls(pattern=_pattern(rest.split(":")[0], text)) if rest else cls()

    def picker_state(self, *, titles: Mapping[str, str]) -> dict[str, object]:
        return {keys.PATTERN: self.pattern}

    def resolve(self, here: Here, *, text: str, titles: Mapping[str, str]) -> Picked:
        return self.picked(self.label(), here.bytes_only(self.pattern))


# ----- checks of the parts of a text form ----------------------------------------------------------------
def _whole(value: str, text: str, *, what: str) -> int:
    if not (value.isascii() and value.isdigit()) or len(value) > 9:
        raise ValueError(f"{what} {value!r} in {text!r} is not a whole number")
    return int(value)


def _corpus(value: str, text: str) -> str:
    if not value or not all(c.isalnum() or c in "-_." for c in value):
        raise ValueError(f"corpus id {value!r} in {text!r} is not a corpus id")
    return value


def _pattern(value: str, text: str) -> str:
    if value not in PATTERNS:
        raise ValueError(f"pattern {value!r} in {text!r} is unknown; use one of {list(PATTERNS)}")
    return value
