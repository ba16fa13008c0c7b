"""A tokenizer from files a user uploaded (pure; no Streamlit).

The files are written into a fresh temporary directory under their base names
and read with ``bpe_core.load_tokenizer``; the loader's error comes back as a
ValueError naming the uploaded file (not the temporary path).  The Tokenize
page loads a tokenizer to use, the lab one to compare.

>>> import tempfile
>>> from bpe_core import save_tokenizer, train
>>> tok = train("the cat in the hat", vocab_size=262, pattern="gpt2")
>>> with tempfile.TemporaryDirectory() as tmp:
...     saved = {p.name: p.read_bytes() for p in save_tokenizer(tok, tmp)}
>>> back = load_uploaded([("tokenizer.json", saved["tokenizer.json"])])
>>> back.encode("the hat") == tok.encode("the hat")
True
>>> load_uploaded([("vocab.json", b"{")])
Traceback (most recent call last):
...
ValueError: vocab.json, line 1, column 2: the JSON ends too early (truncated file?)
"""

from __future__ import annotations

import gc
import tempfile
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from bpe_core import SchemeTokenizer, Tokenizer, load_tokenizer
from bpe_core.formats import SCHEME_NAMES, SCHEME_READERS, OwnStagesError, detect_format

MAX_UPLOAD_FILES = 4
UPLOAD_TYPES = ("json", "txt", "tiktoken", "model")


def safe_name(name: str) -> str:
    """The base name of an uploaded file, refusing names that are not a plain file name.

    >>> safe_name("../../etc/vocab.json"), safe_name("C:\\\\x\\\\merges.txt")
    ('vocab.json', 'merges.txt')
    """
    base = name.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not base or base in {".", ".."} or base.startswith(".") or "\x00" in base:
        raise ValueError(f"{name!r} is not a usable file name; rename the file and upload it again")
    return base


def load_uploaded(
    files: Sequence[tuple[str, bytes]], *, pattern: str | None = None, notes: list[str] | None = None
) -> Tokenizer:
    """A tokenizer from uploaded ``(name, bytes)`` files.

    One file is loaded on its own (tokenizer.json, .tiktoken, .model; a
    vocab.json needs its merges.txt uploaded with it); several are loaded as a
    directory (with ``encoding.json``, the pattern and special tokens of
    vocab.json + merges.txt or a .tiktoken file).  ``pattern`` overrides the
    split pattern (None: as the files say).  What the loader had to assume
    is appended to ``notes`` when given.

    >>> from bpe_core import save_tokenizer, train
    >>> tok = train("the cat in the hat", vocab_size=262, pattern="gpt4")
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     saved = {p.name: p.read_bytes() for p in save_tokenizer(tok, tmp)}
    >>> notes = []
    >>> load_uploaded([(n, saved[n]) for n in ("vocab.json", "merges.txt")], notes=notes).pattern
    'gpt2'
    >>> notes  # doctest: +ELLIPSIS
    ['vocab.json + merges.txt: the split pattern is not recorded (no encoding.json beside), so gpt2 ...']
    >>> load_uploaded([(n, saved[n]) for n in ("vocab.json", "merges.txt", "encoding.json")]).pattern
    'gpt4'
    """
    bpe = _load(files, pattern=pattern, notes=notes, any_scheme=False).as_bpe()
    if bpe is None:  # load_tokenizer gives BPE without any_scheme: for the type checker
        raise ValueError("these files hold no byte-level BPE tokenizer; upload another")
    return bpe


def load_uploaded_any(
    files: Sequence[tuple[str, bytes]], *, pattern: str | None = None, notes: list[str] | None = None
) -> Tokenizer | SchemeTokenizer:
    """:func:`load_uploaded`, and WordPiece or Unigram files too (BERT's ``vocab.txt``, a WordPiece or
    Unigram ``tokenizer.json``, a SentencePiece ``.model``): those give their scheme's tokenizer.

    A split pattern chosen for them is not used (they cut words their own way), and a note says so.

    >>> notes = []
    >>> tok = load_uploaded_any([("vocab.txt", b"[UNK]\\nhug\\n##s\\n")], pattern="gpt4", notes=notes)
    >>> tok.scheme, [tok.piece(i) for i in tok.encode("hugs")]
    ('wordpiece', ['hug', '##s'])
    >>> notes[0].startswith("vocab.txt holds a WordPiece"), notes[0].endswith("(gpt4) is not used")
    (True, True)
    """
    return _load(files, pattern=pattern, notes=notes, any_scheme=True)


def _load(
    files: Sequence[tuple[str, bytes]], *, pattern: str | None, notes: list[str] | None, any_scheme: bool
) -> Tokenizer | SchemeTokenizer:
    if not files:
        raise ValueError(
            "no file uploaded; upload tokenizer.json, a .tiktoken or .model file, or vocab.json + merges.txt"
        )
    if len(files) > MAX_UPLOAD_FILES:
        raise ValueError(
            f"{len(files)} files uploaded; upload at most {MAX_UPLOAD_FILES} files of one tokenizer"
        )
    names = [safe_name(name) for name, _ in files]
    if len(set(names)) != len(names):
        raise ValueError(f"two uploaded files share a name ({sorted(names)}); upload each file once")
    with tempfile.TemporaryDirectory(prefix="mergescope-load-") as tmp:
        for name, (_, data) in zip(names, files):
            (Path(tmp) / name).write_bytes(data)
        target = Path(tmp) / names[0] if len(names) == 1 else Path(tmp)
        try:
            found: list[str] = []
            if any_scheme:
                fmt, read = detect_format(target)
                if fmt in SCHEME_READERS and pattern is not None:
                    found.append(
                        f"{read[0].name} holds a {SCHEME_NAMES[fmt]} tokenizer, which cuts words its own "
                        f"way: the split pattern chosen ({pattern}) is not used"
                    )
                    pattern = None
            try:
                tok = load_tokenizer(target, pattern=pattern, notes=found, any_scheme=any_scheme)
            except OwnStagesError:
                tok = load_tokenizer(target, any_scheme=True)
                found.append(
                    f"{_json_name(target)} is read stage by stage (its own normalizer and pre-tokenizer cut "
                    f"the words): the split pattern chosen ({pattern}) is not used"
                )
            if notes is not None:
                notes.extend(_without_dir(note, tmp) for note in found)
            return tok
        except ValueError as exc:
            raise ValueError(_without_dir(str(exc), tmp)) from None
        except OSError as exc:
            raise ValueError(
                f"cannot load the files here ({type(exc).__name__}: {_without_dir(str(exc), tmp)})"
            ) from None


def _json_name(target: Path) -> str:
    """The name of the ``tokenizer.json`` a file or directory upload was read from."""
    return detect_format(target)[1][0].name


def _without_dir(message: str, directory: str) -> str:
    """``message`` with the temporary directory left out of file paths (the directory itself is
    "the uploaded files").

    >>> _without_dir("/tmp/x/merges.txt, line 3: bad; /tmp/x: holds no tokenizer files", "/tmp/x")
    'merges.txt, line 3: bad; the uploaded files: holds no tokenizer files'
    """
    message = message.replace(directory + "/", "").replace(directory, "the uploaded files")
    return message or "the files could not be read"


@dataclass(frozen=True, slots=True)
class PackedTokenizer:
    """A tokenizer as a few flat values, to cross from a worker process to the server cheaply.

    Unpickling a :class:`~bpe_core.Tokenizer` of 850,000 tokens rebuilds millions of objects in
    one call that holds the server's interpreter lock for seconds; these are a few flat values (bytes
    and arrays), read at once, and :func:`unpack` rebuilds the tokenizer in steps that let the
    server's other threads run.  The worker's tokenizer checked the files; the server trusts what
    it packed (``merge_ids``: the id each merge makes) and checks nothing again.

    >>> from bpe_core import train
    >>> tok = train("the cat in the hat", vocab_size=262, pattern="gpt2")
    >>> back = unpack(pack(tok))
    >>> (back.vocab, back.merges, back.pattern) == (tok.vocab, tok.merges, tok.pattern)
    True
    """

    tokens: bytes  # every token's bytes, one after another, in the order of ``ids``
    lengths: array[int]  # array("I"): each token's length
    ids: array[int]  # array("q"): each token's id
    merges: array[int]  # array("q"): a0, b0, a1, b1, ...
    merge_ids: array[int]  # array("q"): the id each merge makes
    special_tokens: tuple[tuple[str, int], ...]
    pattern: str
    notes: tuple[str, ...] = ()  # what the loader had to assume (see load_uploaded)


def pack(tok: Tokenizer) -> PackedTokenizer:
    """``tok`` as a :class:`PackedTokenizer`."""
    return PackedTokenizer(
        tokens=b"".join(tok.vocab.values()),
        lengths=array("I", map(len, tok.vocab.values())),
        ids=array("q", tok.vocab),
        merges=array("q", [i for pair in tok.merges for i in pair]),
        merge_ids=array("q", tok.merge_ids),
        special_tokens=tuple(tok.special_tokens.items()),
        pattern=tok.pattern,
    )


def unpack(packed: PackedTokenizer) -> Tokenizer:
    """The tokenizer :func:`pack` packed, trusted as checked (by the worker's own tokenizer): only for
    what :func:`pack` made, never for a user's data."""
    data, end, tokens = packed.tokens, 0, []
    for n in packed.lengths:  # one token at a time (no one long C call: the server's threads take turns)
        tokens.append(data[end : end + n])
        end += n
    vocab: dict[int, bytes] = {}
    merges: list[tuple[int, int]] = []
    flat, ids, step = packed.merges, packed.ids, 1 << 15
    was_enabled = gc.isenabled()
    gc.disable()  # a million new tuples would start collections of the server's whole heap
    try:
        for start in range(0, len(ids), step):
            vocab.update(zip(ids[start : start + step], tokens[start : start + step], strict=True))
        for start in range(0, len(flat), 2 * step):
            part = flat[start : start + 2 * step]
            merges += zip(part[0::2], part[1::2], strict=True)
        return Tokenizer._from_checked(
            vocab,
            merges,
            packed.merge_ids.tolist(),
            special_tokens=dict(packed.special_tokens),
            pattern=packed.pattern,
        )
    finally:
        if was_enabled:
            gc.enable()


@dataclass(frozen=True, slots=True)
class SchemeLoad:
    """A WordPiece or Unigram tokenizer read in a worker (it crosses as itself: its vocabulary is a list
    of strings, quick to unpickle), and what the loader said."""

    tokenizer: SchemeTokenizer
    notes: tuple[str, ...] = ()


def load_packed(
    files: Sequence[tuple[str, bytes]],
    *,
    pattern: str | None = None,
    progress: Callable[..., None] | None = None,
    any_scheme: bool = False,
) -> PackedTokenizer | SchemeLoad:
    """:func:`load_uploaded` (``any_scheme``: :func:`load_uploaded_any`), packed: what a worker process
    runs for a page (see :mod:`mergescope_ui.shared.workers.jobs`)."""
    if progress is not None:
        progress(0, 2, "reading the files")
    notes: list[str] = []
    was_enabled = gc.isenabled()
    gc.disable()  # a worker ends after its job: no collections of a million new objects (a third of
    try:  # a 10 MB file's load)
        tok = _load(files, pattern=pattern, notes=notes, any_scheme=any_scheme)
    finally:
        if was_enabled:
            gc.enable()
    if progress is not None:
        progress(1, 2, f"{tok.vocab_size:,} tokens read; sending them to the page")
    bpe = tok.as_bpe()
    if bpe is None:
        return SchemeLoad(tok, tuple(notes))
    return replace(pack(bpe), notes=tuple(notes))
