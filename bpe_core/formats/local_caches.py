"""Tokenizers already on this machine: tiktoken's cache and the Hugging Face hub cache.

Whoever has used tiktoken or ``transformers`` has tokenizer files already:

- **tiktoken** keeps each downloaded file under the sha1 of its URL
  (:mod:`.tiktoken_registry` maps those names to ``gpt2``, ``r50k_base``,
  ``p50k_base``, ``cl100k_base`` and ``o200k_base``, with their patterns and
  special tokens);
- **the hub cache** (``HF_HUB_CACHE``, else ``HF_HOME/hub``, else
  ``~/.cache/huggingface/hub``) keeps each model as
  ``models--ORG--NAME/snapshots/<commit>/tokenizer.json``; ``refs/main``
  names the snapshot in use.

:func:`find_local_tokenizers` lists them without loading any: for a
``tokenizer.json`` it reads only the top of the file, up to the model's vocab,
which is enough to tell byte-level BPE from the rest (BERT's WordPiece,
SentencePiece-style BPE with ``▁`` and byte fallback, Unigram...).  A WordPiece or Unigram
``tokenizer.json`` is found too (its ``scheme`` says which; :func:`load_local` reads it with
``any_scheme=True``), unless it has a normalizer MergeScope's WordPiece does not apply (BERT's
lower-casing); the rest are listed apart, each with the reason it cannot load.  :func:`load_local`
loads one (a few tenths of a second for cl100k_base; callers cache the result).

>>> import tempfile
>>> from bpe_core import train, save_tokenizer
>>> from bpe_core.formats.tiktoken_registry import ENCODINGS
>>> tok = train("hello world " * 20, vocab_size=270)
>>> cache = Path(tempfile.mkdtemp())
>>> _ = save_tokenizer(tok, cache)
>>> _ = (cache / "tokenizer.tiktoken").rename(cache / ENCODINGS["cl100k_base"].cache_names[0])
>>> local = find_local_tokenizers({"TIKTOKEN_CACHE_DIR": str(cache)}, home=cache)
>>> [f.key for f in local.found]
['tiktoken:cl100k_base']
>>> loaded = load_local(local.found[0])
>>> loaded.tokenizer.encode("hello world") == tok.encode("hello world"), loaded.tokenizer.pattern
(True, 'gpt4')
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..tokenizer import SchemeTokenizer, Tokenizer
from .gpt2 import MERGES_TXT, SPECIAL_TOKENS_MAP_JSON, VOCAB_JSON, read_gpt2
from .hf_json import TOKENIZER_JSON, layout_pattern
from .load import load_tokenizer, tokenizer_from
from .safe_io import MAX_FILE_BYTES, TokenizerFileError, parse_json, read_text
from .tiktoken import read_tiktoken
from .tiktoken_registry import ENCODINGS, tiktoken_cache_dirs

TIKTOKEN = "tiktoken"
HF = "hf"
SOURCE_NAMES = {TIKTOKEN: "tiktoken cache", HF: "Hugging Face cache"}
HF_MODELS_PREFIX = "models--"
SCHEME_TYPES = {"WordPiece": "wordpiece", "Unigram": "unigram"}  # tokenizer.json's model.type -> scheme
SCHEME_LABELS = {"wordpiece": "WordPiece", "unigram": "Unigram"}


@dataclass(frozen=True, slots=True)
class FoundTokenizer:
    """A byte-level BPE tokenizer found on this machine.

    ``key`` is stable (``tiktoken:cl100k_base``, ``hf:openai-community/gpt2``);
    ``files`` are what :func:`load_local` reads; ``folder`` is the cache
    folder it was found in.
    """

    key: str
    name: str
    source: str
    files: tuple[Path, ...]
    folder: Path
    scheme: str = "bpe"  # or "wordpiece", "unigram" (a tokenizer.json of the hub cache)

    @property
    def label(self) -> str:
        """``cl100k_base (tiktoken cache)``; ``org/bert (Hugging Face cache, WordPiece)``."""
        kind = "" if self.scheme == "bpe" else f", {SCHEME_LABELS.get(self.scheme, self.scheme)}"
        return f"{self.name} ({SOURCE_NAMES[self.source]}{kind})"

    def stamp(self) -> tuple[tuple[str, int, int], ...]:
        """Each file's path, size and modification time: changes when a file is replaced."""
        out = []
        for p in self.files:
            st = p.stat()
            out.append((str(p), st.st_size, st.st_mtime_ns))
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Unusable:
    """Tokenizer files found on this machine that MergeScope cannot load, and why."""

    name: str
    source: str
    path: Path
    reason: str


@dataclass(frozen=True, slots=True)
class LocalTokenizers:
    """What :func:`find_local_tokenizers` found, and the folders it looked in."""

    found: tuple[FoundTokenizer, ...]
    unusable: tuple[Unusable, ...]
    searched: tuple[Path, ...]

    def get(self, key: str) -> FoundTokenizer | None:
        return next((f for f in self.found if f.key == key), None)


@dataclass(frozen=True, slots=True)
class LocalLoad:
    """A loaded local tokenizer and what a user should know about it (one sentence each)."""

    tokenizer: Tokenizer | SchemeTokenizer
    notes: tuple[str, ...] = ()


def hf_hub_dirs(env: Mapping[str, str] | None = None, *, home: Path | None = None) -> list[Path]:
    """The hub cache folders, most specific first: ``HF_HUB_CACHE`` (or the older
    ``HUGGINGFACE_HUB_CACHE``), ``HF_HOME/hub``, ``XDG_CACHE_HOME/huggingface/hub``,
    ``~/.cache/huggingface/hub``.

    >>> [str(p) for p in hf_hub_dirs({"HF_HOME": "/data/hf"}, home=Path("/home/u"))]
    ['/data/hf/hub', '/home/u/.cache/huggingface/hub']
    """
    env = os.environ if env is None else env
    home = Path.home() if home is None else home
    out: list[Path] = []
    for var in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if env.get(var):
            out.append(Path(env[var]))
    if env.get("HF_HOME"):
        out.append(Path(env["HF_HOME"]) / "hub")
    if env.get("XDG_CACHE_HOME"):
        out.append(Path(env["XDG_CACHE_HOME"]) / "huggingface" / "hub")
    out.append(home / ".cache" / "huggingface" / "hub")
    return list(dict.fromkeys(out))


def find_local_tokenizers(
    env: Mapping[str, str] | None = None, *, home: Path | None = None
) -> LocalTokenizers:
    """Every tokenizer in tiktoken's cache and the hub cache (``env`` defaults to ``os.environ``).

    Folders that do not exist or cannot be read are skipped; each name is listed once (the first
    folder that has it wins).
    """
    found: list[FoundTokenizer] = []
    unusable: list[Unusable] = []
    tiktoken_dirs, hub_dirs = tiktoken_cache_dirs(env), hf_hub_dirs(env, home=home)
    for folder in tiktoken_dirs:
        _tiktoken_in(folder, found, unusable)
    for folder in hub_dirs:
        _hub_in(folder, found, unusable)
    unique: dict[str, FoundTokenizer] = {}  # the first found of each key
    for f in found:
        unique.setdefault(f.key, f)
    names = {f.name for f in unique.values()}
    unusable = [u for u in unusable if u.name not in names]
    return LocalTokenizers(tuple(unique.values()), tuple(unusable), tuple(tiktoken_dirs + hub_dirs))


def _tiktoken_in(folder: Path, found: list[FoundTokenizer], unusable: list[Unusable]) -> None:
    if not folder.is_dir():
        return
    for enc in ENCODINGS.values():
        paths = [folder / name for name in enc.cache_names]
        present = [p.is_file() for p in paths]
        if all(present):
            found.append(FoundTokenizer(f"{TIKTOKEN}:{enc.name}", enc.name, TIKTOKEN, tuple(paths), folder))
        elif any(present):
            missing = ", ".join(url.rsplit("/", 1)[-1] for url, ok in zip(enc.files, present) if not ok)
            unusable.append(
                Unusable(
                    enc.name,
                    TIKTOKEN,
                    folder,
                    f"only part of its files are in the cache ({missing} is missing); "
                    f'run tiktoken.get_encoding("{enc.name}") once to fetch it',
                )
            )


def _hub_in(folder: Path, found: list[FoundTokenizer], unusable: list[Unusable]) -> None:
    try:
        entries = sorted(p for p in folder.iterdir() if p.name.startswith(HF_MODELS_PREFIX) and p.is_dir())
    except OSError:
        return
    for entry in entries:
        name = entry.name[len(HF_MODELS_PREFIX) :].replace("--", "/")
        snapshot = _snapshot(entry)
        if snapshot is None:
            continue
        tokenizer_json = snapshot / TOKENIZER_JSON
        if os.path.lexists(tokenizer_json):
            if not tokenizer_json.is_file():
                unusable.append(
                    Unusable(name, HF, tokenizer_json, "its tokenizer.json download is incomplete")
                )
                continue
            problem = hf_json_problem(tokenizer_json)
            scheme, why_not = hf_json_scheme(tokenizer_json) if problem is not None else ("bpe", None)
            if problem is None or (scheme != "bpe" and why_not is None):
                found.append(FoundTokenizer(f"{HF}:{name}", name, HF, (tokenizer_json,), entry, scheme))
            else:
                unusable.append(Unusable(name, HF, tokenizer_json, why_not or problem))
        elif (snapshot / VOCAB_JSON).is_file() and (snapshot / MERGES_TXT).is_file():
            files = [snapshot / VOCAB_JSON, snapshot / MERGES_TXT]
            if (snapshot / SPECIAL_TOKENS_MAP_JSON).is_file():
                files.append(snapshot / SPECIAL_TOKENS_MAP_JSON)
            found.append(FoundTokenizer(f"{HF}:{name}", name, HF, tuple(files), entry))
        elif (snapshot / "tokenizer.model").exists():
            reason = "a SentencePiece model (tokenizer.model), not byte-level BPE"
            unusable.append(Unusable(name, HF, snapshot / "tokenizer.model", reason))
        elif (snapshot / "vocab.txt").exists():
            reason = "a WordPiece vocab.txt (BERT-style), not byte-level BPE"
            unusable.append(Unusable(name, HF, snapshot / "vocab.txt", reason))


def _snapshot(model_dir: Path) -> Path | None:
    """The snapshot ``refs/main`` names, else the most recently changed one."""
    snapshots = model_dir / "snapshots"
    try:
        main = (model_dir / "refs" / "main").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        main = ""
    if main and (snapshots / main).is_dir():
        return snapshots / main
    try:
        candidates = [p for p in snapshots.iterdir() if p.is_dir()]
    except OSError:
        return None
    return max(candidates, key=lambda p: p.stat().st_mtime_ns, default=None)


# ----- telling byte-level BPE from the rest, from the top of a tokenizer.json -----
_MODEL_KEY = re.compile(r'"model"\s*:\s*\{')
_BIG_KEY = re.compile(r'"(?:vocab|merges)"\s*:')
FIRST_READ = 1 << 18  # bytes read first; HF writes every small part before the model's vocab


def hf_json_problem(path: Path) -> str | None:
    """Why MergeScope cannot load this ``tokenizer.json`` (None: it is byte-level BPE it reads).

    Reads the top of the file up to the model's vocab (all of it only when laid out otherwise).
    """
    st = path.stat()
    return _problem_of(str(path), st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=256)
def _problem_of(path: str, size: int, mtime_ns: int) -> str | None:  # size, mtime: the cache key
    try:
        top = _top_of_hf_json(Path(path), size) or parse_json(read_text(path, max_bytes=MAX_FILE_BYTES), path)
    except TokenizerFileError as exc:
        return f"cannot be read: {exc.problem}"
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not isinstance(top, dict):
        return "not an HF tokenizer.json (its top level is not a JSON object)"
    try:
        layout_pattern(top, path)
    except TokenizerFileError as exc:
        return _reason(exc, top)
    return None


def hf_json_scheme(path: Path) -> tuple[str, str | None]:
    """The scheme of a ``tokenizer.json`` (``bpe``, ``wordpiece``, ``unigram``) from the top of the file,
    and why MergeScope cannot read it as that scheme when the top says so already (None: it may).

    A WordPiece model with a normalizer is one: MergeScope's WordPiece applies none (BERT's lower-cases
    and strips accents), so it would encode otherwise.
    """
    try:
        st = path.stat()
        top = _top_of_hf_json(path, st.st_size) or parse_json(read_text(path, max_bytes=MAX_FILE_BYTES), path)
    except (TokenizerFileError, OSError):
        return "bpe", None
    model = top.get("model") if isinstance(top, dict) else None
    kind = model.get("type") if isinstance(model, dict) else None
    scheme = SCHEME_TYPES.get(kind, "bpe") if isinstance(kind, str) else "bpe"
    if scheme == "wordpiece" and top.get("normalizer") is not None:
        norm = top["normalizer"]
        named = norm.get("type") if isinstance(norm, dict) else None
        what = f"a {named} normalizer" if isinstance(named, str) and len(named) < 40 else "a normalizer"
        return scheme, (
            f"a WordPiece model (BERT-style) with {what}, which MergeScope's WordPiece does not apply "
            "(BERT's lower-cases and strips accents); upload its vocab.txt to see the pieces without it"
        )
    return scheme, None


def _top_of_hf_json(path: Path, size: int) -> dict[str, Any] | None:
    """The file's top level with ``model`` holding only the keys before its vocab, read from the
    start of the file; None when it is not laid out the way HF writes it."""
    n = FIRST_READ
    while True:
        with open(path, "rb") as f:
            text = f.read(n).decode("utf-8", errors="ignore")
        model = _MODEL_KEY.search(text)
        big = _BIG_KEY.search(text, model.end()) if model else None
        if big is not None or n >= size or n >= MAX_FILE_BYTES:
            break
        n *= 8
    if model is None or big is None:
        return None
    before = text[: model.start()].rstrip().removesuffix(",")
    header = text[model.end() - 1 : big.start()].rstrip().removesuffix(",")
    try:
        top, head = json.loads(before + "}"), json.loads(header + "}")
    except json.JSONDecodeError:
        return None
    if not isinstance(top, dict) or not isinstance(head, dict):
        return None
    top["model"] = head
    return top


def _reason(exc: TokenizerFileError, top: dict[str, Any]) -> str:
    """One short reason a person can act on."""
    model = top.get("model")
    kind = model.get("type", "BPE") if isinstance(model, dict) else None
    if kind is not None and kind != "BPE":
        what = {"WordPiece": " (BERT-style)", "Unigram": " (SentencePiece)"}.get(str(kind), "")
        return f"a {kind} model{what}, not BPE"
    pre = top.get("pre_tokenizer")
    if (isinstance(model, dict) and model.get("byte_fallback")) or "Metaspace" in json.dumps(pre):
        return "SentencePiece-style BPE (▁ for spaces, byte fallback), not byte-level BPE"
    return f"byte-level BPE MergeScope cannot reproduce: {exc.where}: {exc.problem}".replace(": :", ":")


# ----- loading -----
def load_local(found: FoundTokenizer) -> LocalLoad:
    """Load ``found`` (tiktoken's encodings with their pattern and special tokens; cl100k_base and
    o200k_base also with the ChatML tokens their chat models use)."""
    if found.source == HF:
        tok = load_tokenizer(found.files[0], any_scheme=True)
        snapshot = found.files[0].parent.name[:10]
        return LocalLoad(
            tok, (f"{found.name}: {_shape(tok)}, from the Hugging Face cache (snapshot {snapshot}).",)
        )
    enc = ENCODINGS[found.name]
    if len(found.files) == 2:  # gpt2: vocab.bpe (the merges) and encoder.json (the vocab)
        data = read_gpt2(found.files[1], found.files[0])
        specials = {**data.special_tokens, **enc.special_tokens}
    else:
        specials = {**enc.special_tokens, **enc.chat_tokens}
        data = read_tiktoken(found.files[0], special_tokens=specials)
    data.special_tokens = specials
    tok = tokenizer_from(data, pattern=enc.pattern)
    notes = [f"{enc.name}: {_shape(tok)}, pattern {enc.pattern}, from tiktoken's cache."]
    if enc.chat_tokens:
        chat = ", ".join(f"{s} {i}" for s, i in enc.chat_tokens.items())
        notes.append(f"Added the chat models' ChatML tokens (as tiktokenizer does): {chat}.")
    changed = [
        url.rsplit("/", 1)[-1]
        for p, url, want in zip(found.files, enc.files, enc.sha256)
        if _sha256(p) != want
    ]
    if changed:
        notes.append(
            f"The cached {' and '.join(changed)} is not the file OpenAI publishes (its sha256 differs); "
            "tiktoken itself would download it again."
        )
    return LocalLoad(tok, tuple(notes))


def _shape(tok: Tokenizer | SchemeTokenizer) -> str:
    if not isinstance(tok, Tokenizer):
        return f"{SCHEME_LABELS.get(tok.scheme, tok.scheme)}, {tok.vocab_size:,} pieces"
    return f"{tok.vocab_size:,} tokens, {len(tok.merges):,} merges, {len(tok.special_tokens)} special tokens"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
