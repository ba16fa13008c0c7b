"""The machine's tokenizer caches as a Tokenize page test wants them: none, or the project's fakes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mergescope_ui.tokenize.resolve import local_tokenizers
from tests.ui.tokenize.fake_caches import build_fake_caches, no_caches


@pytest.fixture()
def no_local(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No tiktoken or Hugging Face cache on this machine."""
    for k, v in no_caches(tmp_path).items():
        monkeypatch.setenv(k, v)
    local_tokenizers.clear()
    yield
    local_tokenizers.clear()


@pytest.fixture()
def fake_local(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """tiktoken and hub caches holding the project's own trained files under the real names."""
    for k, v in build_fake_caches(tmp_path).items():
        monkeypatch.setenv(k, v)
    local_tokenizers.clear()
    yield
    local_tokenizers.clear()
