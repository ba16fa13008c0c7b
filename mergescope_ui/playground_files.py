"""Tokenizer files in and out of the playground (pure; no Streamlit).

Out: every format ``bpe_core`` writes, in one zip built from
``Tokenizer.save`` (plus minbpe's ``tokenizer.model`` when the ids allow it).
In: uploaded files are written into a fresh temporary directory under their
base names and read with ``Tokenizer.load``; the loader's error comes back
as a ValueError naming the uploaded file (not the temporary path).

>>> import io, zipfile
>>> from bpe_core import train
>>> tok = train("the cat in the hat", vocab_size=262, pattern="gpt2")
>>> bundle = tokenizer_bundle(tok)
>>> sorted(bundle.files)[:3]
['merges.txt', 'special_tokens_map.json', 'tokenizer.json']
>>> back = load_uploaded([("tokenizer.json", bundle.files["tokenizer.json"])])
>>> back.encode("the hat") == tok.encode("the hat")
True
>>> load_uploaded([("vocab.json", b"{")])
Traceback (most recent call last):
...
ValueError: vocab.json, line 1, column 2: the JSON ends too early (truncated file?)
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bpe_core import Tokenizer

MAX_UPLOAD_FILES = 4
UPLOAD_TYPES = ("json", "txt", "tiktoken", "model")


@dataclass(frozen=True, slots=True)
class FileBundle:
    """The files of one tokenizer (name -> bytes) and notes on formats that could not be written."""

    files: dict[str, bytes]
    notes: tuple[str, ...] = field(default=())

    def zip_bytes(self) -> bytes:
        """All files in one zip (stored in sorted order, so the same tokenizer gives the same zip)."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for name in sorted(self.files):
                info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, self.files[name])
        return buffer.getvalue()


def tokenizer_bundle(tok: Tokenizer) -> FileBundle:
    """Every file ``tok.save`` writes, plus ``tokenizer.model`` (minbpe) when its ids fit minbpe."""
    from bpe_core.files import write_format  # helper-2's module; imported late so the rest works without it

    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="mergescope-save-") as tmp:
        paths = tok.save(tmp)
        try:
            paths += write_format(tok, "minbpe", Path(tmp) / "tokenizer.model")
        except ValueError as exc:
            notes.append(f"tokenizer.model (minbpe) left out: {exc}")
        files = {p.name: p.read_bytes() for p in paths}
    return FileBundle(files=files, notes=tuple(notes))


def safe_name(name: str) -> str:
    """The base name of an uploaded file, refusing names that are not a plain file name.

    >>> safe_name("../../etc/vocab.json"), safe_name("C:\\\\x\\\\merges.txt")
    ('vocab.json', 'merges.txt')
    """
    base = name.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not base or base in {".", ".."} or base.startswith(".") or "\x00" in base:
        raise ValueError(f"{name!r} is not a usable file name; rename the file and upload it again")
    return base


def load_uploaded(files: Sequence[tuple[str, bytes]], *, pattern: str | None = None) -> Tokenizer:
    """A tokenizer from uploaded ``(name, bytes)`` files.

    One file is loaded on its own (tokenizer.json, .tiktoken, .model; a
    vocab.json needs its merges.txt uploaded with it); several are loaded as a
    directory.  ``pattern`` overrides the split pattern (None: as the files say).
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
            return Tokenizer.load(target, pattern=pattern)
        except ValueError as exc:
            raise ValueError(_without_dir(str(exc), tmp)) from None
        except (ImportError, OSError) as exc:
            raise ValueError(
                f"cannot load the files here ({type(exc).__name__}: {_without_dir(str(exc), tmp)})"
            ) from None


def _without_dir(message: str, directory: str) -> str:
    """``message`` with the temporary directory left out of file paths."""
    for prefix in (directory + "/", directory):
        message = message.replace(prefix, "")
    return message or "the files could not be read"
