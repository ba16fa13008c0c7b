"""The options records hold each scheme's defaults; the step functions' keywords repeat none differently.

``train_steps``, ``wordpiece_steps``, ``train_wordpiece`` and ``unigram_steps`` take the options as
keywords (typed, for a reader), so each default is written twice; this test keeps the two equal, so
that the record (:class:`TrainOptions`, :class:`WordPieceOptions`, :class:`UnigramOptions`) is the one
place to read or change a default.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

import pytest

from bpe_core.bpe import TrainOptions, train_steps
from bpe_core.unigram import UnigramOptions, unigram_steps
from bpe_core.wordpiece import WordPieceOptions, train_wordpiece, wordpiece_steps


def mismatches(function: Callable[..., Any], options: type[Any]) -> dict[str, tuple[object, object]]:
    """The keywords of ``function`` that are options of ``options`` with another default."""
    fields = {f.name: f.default for f in dataclasses.fields(options) if f.default is not dataclasses.MISSING}
    out = {}
    for name, parameter in inspect.signature(function).parameters.items():
        if name in fields and parameter.default is not inspect.Parameter.empty:
            default = parameter.default
            if isinstance(fields[name], tuple) and not isinstance(default, tuple):
                default = () if default is None else tuple(default)  # force=None: no step forced
            if default != fields[name]:
                out[name] = (parameter.default, fields[name])
    return out


@pytest.mark.parametrize(
    ("function", "options"),
    [
        (train_steps, TrainOptions),
        (wordpiece_steps, WordPieceOptions),
        (train_wordpiece, WordPieceOptions),
        (unigram_steps, UnigramOptions),
    ],
    ids=lambda x: getattr(x, "__name__", ""),
)
def test_the_step_functions_default_as_the_options_do(
    function: Callable[..., Any], options: type[Any]
) -> None:
    assert mismatches(function, options) == {}


def test_a_different_default_is_caught() -> None:
    def steps(*, vocab_size: int, shrinking_factor: float = 0.5, seed_size: int = 1_000_000) -> None: ...

    assert mismatches(steps, UnigramOptions) == {"shrinking_factor": (0.5, 0.75)}
