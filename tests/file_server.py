"""A local HTTP server that stands in for OpenAI's and the Hugging Face hub's file hosts in tests.

It listens on 127.0.0.1 (port 0: a free one), serves what the test put in :attr:`FileServer.routes`,
and records every request, so the fetch tests need no network.  :func:`serve_encoding` and
:func:`serve_hub_tokenizer` lay files out at the paths and with the headers of the real hosts
(the hub answers a HEAD with the commit and the file's hash, and redirects a large file to storage).
"""

from __future__ import annotations

import hashlib
import http.server
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

from bpe_core.formats.tiktoken_registry import BLOB, ENCODINGS

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class Route:
    """One answer: status, headers, body; ``length`` is the Content-Length announced (None: none,
    the body ends when the connection closes); ``head`` answers a HEAD instead when set."""

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    length: int | None = -1  # -1: len(body)
    head: Route | None = None
    pace: float = 0.0  # seconds between two 64 KB parts of the body (a slow host, to watch progress)


@dataclass
class FileServer:
    url: str
    routes: dict[str, Route]
    hits: list[tuple[str, str]]

    def gets(self) -> int:
        """How many GET requests were answered."""
        return sum(1 for method, _ in self.hits if method == "GET")


@contextmanager
def file_server() -> Iterator[FileServer]:
    routes: dict[str, Route] = {}
    hits: list[tuple[str, str]] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def _answer(self, *, body: bool) -> None:
            hits.append((self.command, self.path))
            route = routes.get(self.path)
            if route is None:
                route = Route(b"not found", status=404)
            if not body and route.head is not None:
                route = route.head
            self.send_response(route.status)
            for k, v in route.headers.items():
                self.send_header(k, v)
            length = len(route.body) if route.length == -1 else route.length
            if length is not None:
                self.send_header("Content-Length", str(length))
            self.end_headers()
            if body:
                with suppress(OSError):
                    step = 1 << 16 if route.pace else max(1, len(route.body))
                    for start in range(0, len(route.body), step):
                        self.wfile.write(route.body[start : start + step])
                        self.wfile.flush()
                        time.sleep(route.pace)

        def do_GET(self) -> None:
            self._answer(body=True)

        def do_HEAD(self) -> None:
            self._answer(body=False)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield FileServer(f"http://127.0.0.1:{server.server_port}", routes, hits)
    finally:
        server.shutdown()
        server.server_close()


def serve_encoding(server: FileServer, name: str, files: tuple[bytes, ...]) -> None:
    """Serve ``files`` where OpenAI publishes encoding ``name``'s files (paths after its host)."""
    for url, data in zip(ENCODINGS[name].files, files, strict=True):
        server.routes[url.removeprefix(BLOB)] = Route(data)


def serve_hub_tokenizer(
    server: FileServer,
    name: str,
    data: bytes,
    *,
    large: bool = True,
    commit: str = COMMIT,
    published: bytes | None = None,
    pace: float = 0.0,
) -> str:
    """Serve ``data`` as model ``name``'s tokenizer.json the way the hub does; returns its etag.

    ``large``: stored with git LFS (etag = sha256, a redirect to storage), else a plain git file
    (etag = git blob sha1, served at the same URL).  ``published``: the bytes the etag is made of,
    when the test wants the served bytes to differ from what the hub publishes.
    """
    hashed = data if published is None else published
    path = f"/{name}/resolve/main/tokenizer.json"
    if large:
        etag = hashlib.sha256(hashed).hexdigest()
        head = {"X-Repo-Commit": commit, "X-Linked-Etag": f'"{etag}"', "X-Linked-Size": str(len(hashed))}
        server.routes[path] = Route(status=302, headers={**head, "Location": f"{server.url}/lfs/{etag}"})
        server.routes[f"/lfs/{etag}"] = Route(data, pace=pace)
    else:
        etag = hashlib.sha1(f"blob {len(hashed)}\0".encode() + hashed).hexdigest()
        server.routes[path] = Route(data, headers={"X-Repo-Commit": commit, "ETag": f'"{etag}"'}, pace=pace)
    return etag
