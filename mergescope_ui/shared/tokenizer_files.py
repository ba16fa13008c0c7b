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

import tempfile
from collections.abc import Sequence
from pathlib import Path

from bpe_core import Tokenizer, load_tokenizer

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
            tok = load_tokenizer(target, pattern=pattern, notes=found)
            if notes is not None:
                notes.extend(_without_dir(note, tmp) for note in found)
            return tok
        except ValueError as exc:
            raise ValueError(_without_dir(str(exc), tmp)) from None
        except OSError as exc:
            raise ValueError(
                f"cannot load the files here ({type(exc).__name__}: {_without_dir(str(exc), tmp)})"
            ) from None


def _without_dir(message: str, directory: str) -> str:
    """``message`` with the temporary directory left out of file paths (the directory itself is
    "the uploaded files").

    >>> _without_dir("/tmp/x/merges.txt, line 3: bad; /tmp/x: holds no tokenizer files", "/tmp/x")
    'merges.txt, line 3: bad; the uploaded files: holds no tokenizer files'
    """
    message = message.replace(directory + "/", "").replace(directory, "the uploaded files")
    return message or "the files could not be read"
