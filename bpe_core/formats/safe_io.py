"""Reading tokenizer files safely: a size cap, strict UTF-8, strict JSON, clear errors.

Every problem with a file's content is a :class:`TokenizerFileError` (a
``ValueError``) that names the file, where in it (a line, a JSON key, a byte
offset) and what is wrong, so a bad file never ends in a ``KeyError`` or
``IndexError`` traceback.

>>> err = TokenizerFileError("merges.txt", "line 3", "'Ġ' + 'x' uses 'x', which is not in vocab.json")
>>> str(err)
"merges.txt, line 3: 'Ġ' + 'x' uses 'x', which is not in vocab.json"
>>> isinstance(err, ValueError), err.where
(True, 'line 3')
>>> parse_json('{"a": 1, "a": 2}', "vocab.json")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bpe_core.formats.safe_io.TokenizerFileError: vocab.json, key 'a': the key appears twice; ...
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from ..pretokenizer import excerpt

MAX_FILE_BYTES = 128 * 1024 * 1024
"""Largest tokenizer file read (128 MiB). The biggest real ones (a 256k-token
``tokenizer.json``) are about 35 MB; a larger file is refused before it is read.
Pass ``max_bytes=`` to the loaders to change it."""


class TokenizerFileError(ValueError):
    """A tokenizer file that cannot be read: ``path``, ``where`` (line/key, may be empty), ``problem``."""

    def __init__(self, path: str | os.PathLike[str], where: str, problem: str) -> None:
        self.path = str(path)
        self.where = where
        self.problem = problem
        super().__init__(f"{self.path}, {where}: {problem}" if where else f"{self.path}: {problem}")


def read_bytes(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path``; missing, unreadable, empty or larger than ``max_bytes`` is an error.

    The size is checked before reading, and at most ``max_bytes + 1`` bytes are
    ever read (so a file that grows, or a device, cannot exhaust memory).
    """
    p = Path(path)
    size = check_regular_file(p)
    if size > max_bytes:
        raise TokenizerFileError(
            p,
            "",
            f"is {_size(size)}, above the {_size(max_bytes)} limit for tokenizer files; "
            "is it the right file? (pass max_bytes= to raise the limit)",
        )
    try:
        with open(p, "rb") as f:
            # read(n) sets n bytes aside first: ask for the size found (not the limit, 128 MiB for a
            # file of a few KB), then past it only if the file grew meanwhile.
            data = f.read(size + 1)
            if len(data) > size:
                data += f.read(max_bytes + 1 - len(data))
    except OSError as exc:
        raise TokenizerFileError(p, "", f"cannot read it ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise TokenizerFileError(p, "", f"is larger than the {_size(max_bytes)} limit for tokenizer files")
    if not data.strip():
        raise TokenizerFileError(p, "", "is empty; expected tokenizer data")
    return data


def check_regular_file(path: str | os.PathLike[str]) -> int:
    """The size of ``path`` if it is a regular file; anything else is a TokenizerFileError.

    A pipe or a device would block the reader or never end (a FIFO named
    ``x.tiktoken``, ``/dev/zero``), so only regular files are read.
    """
    p = Path(path)
    try:
        info = p.stat()
    except OSError as exc:
        raise TokenizerFileError(p, "", f"cannot open it ({exc.strerror or exc}); check the path") from None
    except ValueError as exc:  # e.g. a NUL character in the path
        raise TokenizerFileError(p, "", f"is not a usable path ({exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise TokenizerFileError(p, "", "is a directory, expected a file")
    if not stat.S_ISREG(info.st_mode):
        raise TokenizerFileError(
            p, "", "is not a regular file (a pipe, a device or a socket); save the tokenizer to a file first"
        )
    return info.st_size


def whole_number(text: str, path: str | os.PathLike[str], where: str, *, what: str, digits: int = 10) -> int:
    """``text`` as a whole number written in ASCII digits (at most ``digits`` of them).

    ``int()`` also reads Arabic-Indic and fullwidth digits, and ``str.isdigit``
    says yes to ``²``, which ``int()`` then refuses; a tokenizer file writes its
    numbers in ASCII, so anything else is a TokenizerFileError naming the place.

    >>> whole_number("42", "m.model", "line 3", what="the count")
    42
    >>> whole_number("٣", "m.model", "line 3", what="the count")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bpe_core.formats.safe_io.TokenizerFileError: m.model, line 3: the count '٣' is not a whole number ...
    """
    if not (text.isascii() and text.isdigit()) or len(text) > digits:
        raise TokenizerFileError(
            path, where, f"{what} {excerpt(text)} is not a whole number in ASCII digits (0-9)"
        )
    return int(text)


def decode_utf8(data: bytes, path: str | os.PathLike[str]) -> str:
    """``data`` as UTF-8 text; invalid bytes are an error naming the line and byte offset.

    >>> decode_utf8(b"ok\\n\\xff", "merges.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bpe_core.formats.safe_io.TokenizerFileError: merges.txt, line 2: byte 0xFF at offset 3 is not ...; ...
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise TokenizerFileError(
            path,
            f"line {line}",
            f"byte 0x{data[exc.start]:02X} at offset {exc.start} is not valid UTF-8; save the file as UTF-8",
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_text(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of ``path`` (a leading BOM dropped), with the checks of :func:`read_bytes`."""
    return decode_utf8(read_bytes(path, max_bytes=max_bytes), path)


def parse_json(text: str, path: str | os.PathLike[str]) -> Any:
    """Parse JSON strictly: a syntax error names line and column, a repeated key is an error."""

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise TokenizerFileError(
                    path, f"key {excerpt(key)}", "the key appears twice; each key may appear once"
                )
            out[key] = value
        return out

    def no_constant(name: str) -> Any:
        raise TokenizerFileError(path, "", f"{name} is not valid JSON")

    try:
        return json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        truncated = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")
        what = "the JSON ends too early (truncated file?)" if truncated else f"invalid JSON ({exc.msg})"
        raise TokenizerFileError(path, f"line {exc.lineno}, column {exc.colno}", what) from None
    except RecursionError:
        raise TokenizerFileError(path, "", "the JSON is nested too deeply to be a tokenizer file") from None
    except TokenizerFileError:
        raise
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise TokenizerFileError(path, "", f"invalid JSON ({exc})") from None


def expect_int(value: Any, path: str | os.PathLike[str], where: str, *, what: str = "an id") -> int:
    """``value`` if it is a non-negative int below 2**31 (bools are not ints here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TokenizerFileError(path, where, f"{what} must be a whole number, not {excerpt(value)}")
    if not 0 <= value < 2**31:
        raise TokenizerFileError(path, where, f"{what} {value} is out of range (0 to 2147483647)")
    return value


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` as UTF-8 with ``\\n`` line ends, via a temporary file so a crash leaves no half file."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, p)
    return p


def _size(n: int) -> str:
    """``n`` bytes for a message.

    >>> _size(1000), _size(1536), _size(5 * 1024**3)
    ('1000 bytes', '1.5 KiB', '5.0 GiB')
    """
    if n < 1024:
        return f"{n} bytes"
    size = n / 1024
    for unit in ("KiB", "MiB"):
        if size < 1024:
            return f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GiB"
