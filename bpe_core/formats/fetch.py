"""Fetching a tokenizer's files once, into the caches tiktoken and the Hugging Face hub read.

- :func:`fetch_encoding` downloads one of tiktoken's encodings (:data:`.tiktoken_registry.ENCODINGS`)
  into tiktoken's cache folder, under the name tiktoken gives it (the sha1 of its public URL),
  after checking each file against the sha256 OpenAI publishes (the one tiktoken checks).
- :func:`fetch_hub_tokenizer` downloads a model's ``tokenizer.json`` into the hub cache the way
  ``huggingface_hub`` lays it out (``models--ORG--NAME/blobs/<etag>``, a
  ``snapshots/<commit>/tokenizer.json`` link to it, ``refs/main``), after checking it against the
  hash the hub publishes in its headers (the sha256 of a large file, the git blob sha1 of a small one).

So tiktoken, ``transformers`` and :mod:`.local_caches` share the files, and nothing is fetched
twice.  :func:`download` is the one way a file is written: at most ``max_bytes``, hashed as it
streams, into a temporary file beside its destination, renamed into place only when the hash
matches; ``progress`` is called with a :class:`Progress` as bytes arrive.  Every failure is a
:class:`FetchError` whose message is one line that says what to do.  Base URLs are parameters
(tests serve files from a local server); nothing here prints or reads the environment.

>>> import hashlib, tempfile, threading, http.server
>>> data = b"hello"
>>> class Files(http.server.BaseHTTPRequestHandler):
...     def do_GET(self):
...         self.send_response(200); self.send_header("Content-Length", "5"); self.end_headers()
...         self.wfile.write(data)
...     def log_message(self, *args): pass
>>> server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Files)
>>> _ = threading.Thread(target=server.serve_forever, daemon=True).start()
>>> url = f"http://127.0.0.1:{server.server_port}/hello.txt"
>>> dest = Path(tempfile.mkdtemp()) / "hello.txt"
>>> seen = []
>>> download(url, dest, sha256=hashlib.sha256(data).hexdigest(), progress=seen.append).read_bytes()
b'hello'
>>> seen[-1]
Progress(name='hello.txt', done=5, total=5)
>>> download(url, dest, sha256="0" * 64)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bpe_core.formats.fetch.FetchError: hello.txt from 127.0.0.1 is not the published file (its sha256 differs)...
>>> server.shutdown(); server.server_close()
"""

from __future__ import annotations

import hashlib
import http.client
import os
import re
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .hf_json import TOKENIZER_JSON
from .tiktoken_registry import BLOB, ENCODINGS, cache_name

OPENAI_URL = BLOB  # where tiktoken's encodings are published
HF_URL = "https://huggingface.co"
MAX_FETCH_BYTES = 64 * 1024 * 1024  # o200k_base is 3.6 MB; the largest byte-level tokenizer.json some 20 MB
TIMEOUT_SECONDS = 20.0  # to connect, and between two reads
MAX_SECONDS = 300.0  # for a whole file
CHUNK = 1 << 16
USER_AGENT = "mergescope (tokenizer fetch)"
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX40 = re.compile(r"[0-9a-f]{40}")
_HF_NAME = re.compile(r"[A-Za-z0-9][\w.\-]{0,95}(/[\w.\-]{1,96})?")


class FetchError(ValueError):
    """A fetch that failed; the message is one line saying what happened and what to do."""


@dataclass(frozen=True, slots=True)
class Progress:
    """How far the download of one file is: bytes so far, of ``total`` (None when not announced)."""

    name: str
    done: int
    total: int | None

    @property
    def fraction(self) -> float:
        """0.0 to 1.0 (0.0 while the size is unknown)."""
        return min(1.0, self.done / self.total) if self.total else 0.0


ProgressCallback = Callable[[Progress], None]


@dataclass(frozen=True, slots=True)
class Fetched:
    """What a fetch left in the cache: the files, and how many of them were downloaded just now."""

    files: tuple[Path, ...]
    downloaded: int


# ----- one file ---------------------------------------------------------------------------------------------
def download(
    url: str,
    dest: Path,
    *,
    sha256: str | None = None,
    git_sha1: str | None = None,
    max_bytes: int = MAX_FETCH_BYTES,
    progress: ProgressCallback | None = None,
    timeout: float = TIMEOUT_SECONDS,
    max_seconds: float = MAX_SECONDS,
    name: str | None = None,
) -> Path:
    """Download ``url`` to ``dest`` (made atomically: a temporary file renamed once its hash matches).

    ``sha256`` or ``git_sha1`` (the hash git gives the file as a blob) is the published hash the
    bytes must have; without one the file is taken as it comes.  A body over ``max_bytes``, or
    one taking over ``max_seconds``, stops the download.  ``name`` is the file's name in messages
    and progress (default: the last part of ``url``).
    """
    name = name or urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1] or url
    host = urllib.parse.urlsplit(url).hostname or url
    dest.parent.mkdir(parents=True, exist_ok=True)
    with _open(url, timeout=timeout, what=name) as response:
        total = _length(response.headers.get("Content-Length"))
        if total is not None and total > max_bytes:
            raise FetchError(_too_large(name, total, max_bytes))
        h256, h1 = hashlib.sha256(), hashlib.sha1()
        if git_sha1 is not None and total is not None:
            h1.update(f"blob {total}\0".encode())
        fd, tmp = tempfile.mkstemp(prefix=".fetch-", suffix=".part", dir=dest.parent)
        try:
            done, started = 0, time.monotonic()
            with os.fdopen(fd, "wb") as out:
                if progress:
                    progress(Progress(name, 0, total))
                while block := _read(response, name, host):
                    done += len(block)
                    if done > max_bytes:
                        raise FetchError(_too_large(name, done, max_bytes))
                    if time.monotonic() - started > max_seconds:
                        raise FetchError(
                            f"{name} from {host} took over {max_seconds:.0f} s; try again later, "
                            "or load the files with Load tokenizer files"
                        )
                    h256.update(block)
                    h1.update(block)
                    out.write(block)
                    if progress:
                        progress(Progress(name, done, total))
            if total is not None and done != total:
                raise FetchError(f"{name} from {host} stopped after {done:,} of {total:,} bytes; try again")
            if git_sha1 is not None and total is None:
                raise FetchError(f"{name} from {host} came without its size, so its hash cannot be checked")
            got = h256.hexdigest() if git_sha1 is None else h1.hexdigest()
            want = sha256 if git_sha1 is None else git_sha1
            if want is not None and got != want.lower():
                kind = "sha256" if git_sha1 is None else "git sha1"
                raise FetchError(
                    f"{name} from {host} is not the published file (its {kind} differs): nothing was "
                    "saved; try again later, or load files you trust with Load tokenizer files"
                )
            os.replace(tmp, dest)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    return dest


def _read(response: http.client.HTTPResponse, name: str, host: str) -> bytes:
    try:
        return response.read(CHUNK)
    except TimeoutError as exc:
        raise FetchError(f"{name} from {host}: the server stopped sending ({exc}); try again") from exc
    except (OSError, http.client.HTTPException) as exc:
        raise FetchError(f"{name} from {host}: the connection broke ({exc}); try again") from exc


def _too_large(name: str, size: int, limit: int) -> str:
    return (
        f"{name} is {size / 1e6:.1f} MB or more, over the {limit / 1e6:.0f} MB this server fetches; "
        "download it yourself and load it with Load tokenizer files"
    )


def _length(value: str | None) -> int | None:
    return int(value) if value and value.strip().isdigit() else None


@contextmanager
def _open(url: str, *, timeout: float, what: str) -> Iterator[http.client.HTTPResponse]:
    """``url`` opened for reading, every failure a one-line :class:`FetchError`."""
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise FetchError(f"{url!r} is not an http(s) URL; set the base URL to one")
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        exc.close()
        raise FetchError(_http_problem(url, exc.code, what)) from exc
    except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as exc:
        raise FetchError(_unreachable(url, exc)) from exc
    with response:
        yield response


def _unreachable(url: str, exc: BaseException) -> str:
    host = urllib.parse.urlsplit(url).hostname or url
    reason = getattr(exc, "reason", exc)
    return (
        f"cannot reach {host} ({reason}); this server may have no internet access: "
        "load the files with Load tokenizer files instead"
    )


def _http_problem(url: str, code: int, what: str) -> str:
    host = urllib.parse.urlsplit(url).hostname or url
    if code in (401, 403):
        return (
            f"{host} refused {what} (HTTP {code}: gated or private); accept its terms and download it "
            "with your own login, then load it with Load tokenizer files"
        )
    if code == 404:
        return f"{host} has no {what} (HTTP 404); check the name"
    return f"{host} answered HTTP {code} for {what}; try again later"


# ----- tiktoken's encodings -----------------------------------------------------------------------------
def encoding_urls(name: str, *, base_url: str = OPENAI_URL) -> tuple[str, ...]:
    """Where the files of encoding ``name`` are fetched from (``base_url`` stands for OpenAI's host).

    >>> encoding_urls("cl100k_base", base_url="http://127.0.0.1:8000")
    ('http://127.0.0.1:8000/encodings/cl100k_base.tiktoken',)
    """
    if name not in ENCODINGS:
        raise FetchError(f"{name!r} is not one of tiktoken's encodings {list(ENCODINGS)}")
    return tuple(base_url.rstrip("/") + url.removeprefix(OPENAI_URL) for url in ENCODINGS[name].files)


def fetch_encoding(
    name: str,
    *,
    cache: Path,
    base_url: str = OPENAI_URL,
    max_bytes: int = MAX_FETCH_BYTES,
    progress: ProgressCallback | None = None,
    timeout: float = TIMEOUT_SECONDS,
) -> Fetched:
    """Put the files of tiktoken's encoding ``name`` in ``cache`` (tiktoken's cache folder), each
    under the sha1 of its public URL; files already there with the published sha256 are kept."""
    enc = ENCODINGS.get(name)
    if enc is None:
        raise FetchError(f"{name!r} is not one of tiktoken's encodings {list(ENCODINGS)}")
    out, downloaded = [], 0
    for public, url, sha in zip(enc.files, encoding_urls(name, base_url=base_url), enc.sha256, strict=True):
        dest = cache / cache_name(public)
        with _lock(dest):
            if not (dest.is_file() and _sha256_of(dest) == sha):
                download(url, dest, sha256=sha, max_bytes=max_bytes, progress=progress, timeout=timeout)
                downloaded += 1
        out.append(dest)
    return Fetched(tuple(out), downloaded)


# ----- the Hugging Face hub ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HubFile:
    """What the hub says of a file before sending it: the commit, the published hash, the size, and
    where the bytes are (the hub's own URL, or the storage a large file redirects to)."""

    commit: str
    etag: str
    size: int | None
    url: str


def hub_file(name: str, file_name: str = TOKENIZER_JSON, *, base_url: str = HF_URL) -> HubFile:
    """Ask the hub (a HEAD request, as ``huggingface_hub`` does) about ``file_name`` of model ``name``."""
    if not _HF_NAME.fullmatch(name):
        raise FetchError(f"{name!r} is not a Hugging Face model name; write it as org/name")
    url = f"{base_url.rstrip('/')}/{name}/resolve/main/{file_name}"
    what = f"{file_name} for {name}"
    opener = urllib.request.build_opener(_NoRedirect)
    for _ in range(5):  # the hub answers a renamed model with a redirect to its new name
        request = urllib.request.Request(url, method="HEAD", headers={"User-Agent": USER_AGENT})
        try:
            with opener.open(request, timeout=TIMEOUT_SECONDS) as response:
                headers, location = response.headers, None
        except urllib.error.HTTPError as exc:
            exc.close()
            if exc.code not in (301, 302, 303, 307, 308):
                raise FetchError(_hub_problem(url, exc.code, name, what)) from exc
            headers, location = exc.headers, urllib.parse.urljoin(url, exc.headers.get("Location", ""))
        except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as exc:
            raise FetchError(_unreachable(url, exc)) from exc
        commit = headers.get("X-Repo-Commit", "")
        etag = (headers.get("X-Linked-Etag") or headers.get("ETag") or "").removeprefix("W/").strip('"')
        if location and not commit:  # a redirect within the hub: follow it
            url = location
            continue
        if not _HEX40.fullmatch(commit) or not (_HEX64.fullmatch(etag) or _HEX40.fullmatch(etag)):
            raise FetchError(
                f"{urllib.parse.urlsplit(url).hostname} did not say which version of {what} it has "
                "(no commit or hash in its answer); try again later, or load the file yourself"
            )
        size = _length(headers.get("X-Linked-Size") or headers.get("Content-Length"))
        return HubFile(commit, etag, size, location or url)
    raise FetchError(f"{what}: too many redirects; check the name")


def _hub_problem(url: str, code: int, name: str, what: str) -> str:
    if code == 404:
        return (
            f"no {what} on the Hugging Face hub: check the name (org/name), or the model has no "
            "tokenizer.json (load its files with Load tokenizer files)"
        )
    return _http_problem(url, code, what)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None  # the caller reads the redirect's headers


def hub_model_dir(hub: Path, name: str) -> Path:
    """Where the hub cache keeps model ``name``.

    >>> hub_model_dir(Path("hub"), "openai-community/gpt2").as_posix()
    'hub/models--openai-community--gpt2'
    """
    return hub / ("models--" + name.replace("/", "--"))


def fetch_hub_tokenizer(
    name: str,
    *,
    hub: Path,
    base_url: str = HF_URL,
    max_bytes: int = MAX_FETCH_BYTES,
    progress: ProgressCallback | None = None,
    timeout: float = TIMEOUT_SECONDS,
) -> Fetched:
    """Put model ``name``'s ``tokenizer.json`` in the hub cache folder ``hub`` (at the commit ``main``
    names now), checked against the hash the hub publishes; a blob already there is kept."""
    info = hub_file(name, base_url=base_url)
    if info.size is not None and info.size > max_bytes:
        raise FetchError(_too_large(TOKENIZER_JSON, info.size, max_bytes))
    model = hub_model_dir(hub, name)
    blob = model / "blobs" / info.etag
    with _lock(blob):
        downloaded = 0
        if not blob.is_file():
            sha256 = info.etag if _HEX64.fullmatch(info.etag) else None
            git_sha1 = info.etag if sha256 is None else None
            download(
                info.url,
                blob,
                sha256=sha256,
                git_sha1=git_sha1,
                max_bytes=max_bytes,
                progress=progress,
                timeout=timeout,
                name=TOKENIZER_JSON,
            )
            downloaded = 1
        link = model / "snapshots" / info.commit / TOKENIZER_JSON
        link.parent.mkdir(parents=True, exist_ok=True)
        if not link.is_file():
            if os.path.lexists(link):
                link.unlink()
            try:
                link.symlink_to(os.path.relpath(blob, link.parent))
            except OSError:  # no symlinks here (as huggingface_hub does, a copy instead)
                _write_atomic(link, blob.read_bytes())
        _write_atomic(model / "refs" / "main", info.commit.encode())
    return Fetched((link,), downloaded)


# ----- small helpers ----------------------------------------------------------------------------------
_LOCKS: dict[Path, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


@contextmanager
def _lock(path: Path) -> Iterator[None]:
    """One fetch of a file at a time in this process (a second caller then finds it there)."""
    with _LOCKS_LOCK:
        lock = _LOCKS.setdefault(path, threading.Lock())
    with lock:
        yield


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".fetch-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
