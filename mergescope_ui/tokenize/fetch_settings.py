"""Whether this server fetches tokenizers, from where, and into which caches (pure; from the environment).

``MERGESCOPE_FETCH=off``: never fetch (the page offers an upload instead); ``MERGESCOPE_OPENAI_URL``,
``MERGESCOPE_HF_URL``: the hosts to fetch from (a mirror); ``MERGESCOPE_FETCH_MAX_MB``: the largest file
(default 64).  Files go where tiktoken and ``huggingface_hub`` keep theirs.

>>> s = FetchSettings.from_env({"MERGESCOPE_FETCH": "off", "TIKTOKEN_CACHE_DIR": "/tk"}, home=Path("/u"))
>>> s.off, s.tiktoken_cache.as_posix(), s.hub_cache.as_posix()
('MERGESCOPE_FETCH=off', '/tk', '/u/.cache/huggingface/hub')
>>> FetchSettings.from_env({"MERGESCOPE_FETCH_MAX_MB": "lots"}).off
"MERGESCOPE_FETCH_MAX_MB='lots' is not a number of megabytes; unset it or give e.g. 64"
>>> FetchSettings.from_env({}).openai_url
'https://openaipublic.blob.core.windows.net'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bpe_core.hub import HF_URL, MAX_FETCH_BYTES, OPENAI_URL, hf_hub_dirs, tiktoken_cache_dirs
from mergescope_ui.shared import hosting

OFF = "MERGESCOPE_FETCH"
OPENAI = "MERGESCOPE_OPENAI_URL"
HF = "MERGESCOPE_HF_URL"
MAX_MB = "MERGESCOPE_FETCH_MAX_MB"


@dataclass(frozen=True, slots=True)
class FetchSettings:
    """``off`` says why fetching is off (None: it is on)."""

    off: str | None
    openai_url: str
    hf_url: str
    max_bytes: int
    tiktoken_cache: Path | None
    hub_cache: Path

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, home: Path | None = None) -> FetchSettings:
        env = hosting.environment() if env is None else env
        off = f"{OFF}=off" if hosting.switched_off(OFF, env) else None
        max_bytes = MAX_FETCH_BYTES
        raw = hosting.raw(MAX_MB, env)
        if raw:
            try:
                max_bytes = int(float(raw) * 1024 * 1024)
            except ValueError:
                max_bytes = 0
            if max_bytes <= 0:
                off = off or f"{MAX_MB}={raw!r} is not a number of megabytes; unset it or give e.g. 64"
        tiktoken_dirs = tiktoken_cache_dirs(env)
        return cls(
            off=off,
            openai_url=hosting.raw(OPENAI, env) or OPENAI_URL,
            hf_url=hosting.raw(HF, env) or HF_URL,
            max_bytes=max(max_bytes, 0),
            tiktoken_cache=tiktoken_dirs[0] if tiktoken_dirs else None,
            hub_cache=hf_hub_dirs(env, home=home)[0],
        )
