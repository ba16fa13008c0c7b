"""Shared by the browser tests and the benchmark: start the app, drive chromium.

The server runs from the repo root (so ``.streamlit/config.toml`` applies) on a
free port and is stopped by its own PID.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {  # a phone's browser, for chromium_page(mobile=True)
    "user_agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0.0.0 Mobile Safari/537.36",
    "is_mobile": True,
    "has_touch": True,
}
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def missing_browser() -> str | None:
    """Why browser tests cannot run here, or None when they can."""
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install -y chromium; .ci/run does this)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -r requirements-dev.txt)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_server(
    *, app: str = "app.py", cwd: Path = ROOT, timeout: float = 30.0, env: Mapping[str, str] | None = None
) -> Iterator[str]:
    """Run ``streamlit run app.py`` from the repo root (or ``app`` in ``cwd``); yields its base URL.

    ``env`` adds to (or overrides) the server's environment, e.g. where it finds tokenizer caches.
    """
    with streamlit_process(app=app, cwd=cwd, timeout=timeout, env=env) as server:
        yield server.url


@dataclass(frozen=True)
class Server:
    """A running app: its base URL and its process (to read its memory, children, or stop it)."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path


@contextmanager
def streamlit_process(
    *,
    app: str = "app.py",
    cwd: Path = ROOT,
    timeout: float = 30.0,
    env: Mapping[str, str] | None = None,
    options: Sequence[str] = (),
) -> Iterator[Server]:
    """Like :func:`streamlit_server`, yielding the :class:`Server`; ``options`` are more
    ``--section.option value`` arguments for ``streamlit run``."""
    port = free_port()
    log = tempfile.NamedTemporaryFile(prefix="mergescope-server-", suffix=".log", delete=False)  # noqa: SIM115 (open for the server's life)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            app,
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--browser.gatherUsageStats",
            "false",
            "--server.fileWatcherType",
            "none",
            *options,
        ],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"streamlit exited with {proc.returncode}; log: {Path(log.name).read_text()[-2000:]}"
                )
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not answer /_stcore/health within {timeout} s")
            time.sleep(0.2)
        yield Server(url, proc, Path(log.name))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # the server's own process group (start_new_session)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.close()


@contextmanager
def chromium_page(
    *,
    width: int = 1600,
    height: int = 1000,
    color_scheme: str = "light",
    mobile: bool = False,
    **context: object,
) -> Iterator[object]:
    """A fresh headless chromium page (persistent context in a temp dir); ``color_scheme`` is the system
    setting the page sees (``prefers-color-scheme``; playwright's default is "light"); ``mobile``: as a
    phone's browser (its user agent, touch, and the mobile viewport); ``context``: more of playwright's
    context settings (``offline=True``, ``java_script_enabled=False``)."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="mergescope-chromium-")
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile,
                executable_path=CHROMIUM,
                headless=True,
                args=CHROMIUM_ARGS,
                viewport={"width": width, "height": height},
                color_scheme=color_scheme,
                **(PHONE if mobile else {}),
                **context,
            )
            try:
                yield context.pages[0] if context.pages else context.new_page()
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def wait_idle(page, *, timeout: float = 30_000) -> None:
    """Wait until the script has finished and no skeleton is left."""
    page.wait_for_selector(IDLE, timeout=timeout)
    page.wait_for_selector('[data-testid="stSkeleton"]', state="detached", timeout=timeout)


def generated_text(chars: int, *, seed: int = 0) -> str:
    """About ``chars`` characters of varied text built from the project's own corpora (English, Chinese,
    code, mixed scripts): their lines shuffled, with numbered paragraphs, so the chunks keep coming."""
    import random

    lines = [
        line
        for path in sorted((ROOT / "corpora").glob("*.txt"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    rng = random.Random(seed)
    out: list[str] = []
    total, n = 0, 0
    while total < chars:
        n += 1
        paragraph = f"{n}. " + " ".join(rng.sample(lines, 4)) + "\n\n"
        out.append(paragraph)
        total += len(paragraph)
    return "".join(out)


def children(pid: int) -> list[tuple[int, str]]:
    """The processes whose parent is ``pid``: ``(pid, command line)`` each (read from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append((int(entry), cmdline))
    return out


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used so far (user + system, from /proc)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` in MB (VmRSS from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise ValueError(f"/proc/{pid}/status has no VmRSS line")


def full_screenshot(page, name: str) -> Path:
    """Grow the viewport to the main area's scroll height, then save ``artifacts/<name>.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    height = page.evaluate(
        "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
        " return m ? m.scrollHeight : 1000; }"
    )
    size = page.viewport_size
    page.set_viewport_size(
        {"width": size["width"], "height": max(size["height"], min(int(height) + 40, 12000))}
    )
    page.wait_for_timeout(400)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)
    return path


def open_app(page, url: str, *, heading: str, timeout: float = 30_000) -> None:
    """Load ``url`` and wait until its page ``heading`` shows and the script is idle."""
    page.goto(url)
    page.get_by_role("heading", name=heading).first.wait_for(timeout=timeout)
    wait_idle(page, timeout=timeout)


def click_and_wait(page, button: str, expect: str, *, timeout: float = 30_000) -> None:
    """Click the button labelled ``button``, then wait for ``expect`` to show and the script to idle."""
    page.get_by_role("button", name=button).click()
    page.get_by_text(expect).first.wait_for(timeout=timeout)
    wait_idle(page, timeout=timeout)


# A paste as the browser delivers it (headless chromium has no clipboard to Ctrl+V from): a paste
# event with the text; if no listener takes it, inserted whole, as a real paste would be.
PASTE = """(box, text) => {
  box.focus();
  const data = new DataTransfer();
  data.setData("text/plain", text);
  const event = new ClipboardEvent("paste", {clipboardData: data, bubbles: true, cancelable: true});
  if (box.dispatchEvent(event)) document.execCommand("insertText", false, text);
}"""


def working(pid: int) -> list[tuple[int, str]]:
    """The server's processes at work: its children but the job runner's idle fork server (and the
    resource tracker multiprocessing starts beside it), and every child of that fork server (a job's
    process: none may be left once its page has its result)."""
    found = []
    for child in children(pid):
        if "multiprocessing.forkserver" in child[1]:
            found += children(child[0])
        elif "multiprocessing.resource_tracker" not in child[1]:
            found.append(child)
    return found
