"""Post-processors, the last stage of encoding: the special tokens a model expects around the ids.

Applied only when asked (``encode(text, with_special_tokens=True)``): MergeScope shows a text's own
tokens, and a model's input adds these (HF's ``add_special_tokens=True``).  Each has
``process(ids) -> ids`` for one sequence.

- :class:`BertProcessing`: ``[CLS] ids [SEP]``; :class:`RobertaProcessing`: ``<s> ids </s>``;
- :class:`TemplateProcessing`: the ``single`` template, e.g. ``<s> $A`` (Llama-2) or ``$A </s>`` (T5);
- :class:`ByteLevel`: only trims offsets, so the ids stay; :class:`Sequence`, several in turn.

>>> BertProcessing(sep=("[SEP]", 102), cls=("[CLS]", 101)).process([7592])
[101, 7592, 102]
>>> TemplateProcessing(single=(("<s>", 1), ("$A", None))).process([15043])
[1, 15043]
"""

from __future__ import annotations

from collections.abc import Sequence as Seq
from dataclasses import dataclass
from typing import ClassVar, Protocol


class PostProcessor(Protocol):
    """What every post-processor offers."""

    kind: ClassVar[str]

    def process(self, ids: list[int]) -> list[int]: ...


@dataclass(frozen=True, slots=True)
class BertProcessing:
    """``cls`` before and ``sep`` after the ids, each ``(token, id)``."""

    sep: tuple[str, int]
    cls: tuple[str, int]
    kind: ClassVar[str] = "BertProcessing"

    def process(self, ids: list[int]) -> list[int]:
        return [self.cls[1], *ids, self.sep[1]]


@dataclass(frozen=True, slots=True)
class RobertaProcessing:
    """RoBERTa's ``<s> ids </s>`` (its offsets trimming leaves the ids as they are)."""

    sep: tuple[str, int]
    cls: tuple[str, int]
    kind: ClassVar[str] = "RobertaProcessing"

    def process(self, ids: list[int]) -> list[int]:
        return [self.cls[1], *ids, self.sep[1]]


@dataclass(frozen=True, slots=True)
class TemplateProcessing:
    """A template for one sequence: each item a special token ``(token, id)`` or ``("$A", None)``, where the
    ids go (a special token of several ids lists them as several items)."""

    single: tuple[tuple[str, int | None], ...]
    kind: ClassVar[str] = "TemplateProcessing"

    def process(self, ids: list[int]) -> list[int]:
        out: list[int] = []
        for _, i in self.single:
            if i is None:
                out.extend(ids)
            else:
                out.append(i)
        return out


@dataclass(frozen=True, slots=True)
class ByteLevel:
    """GPT-2's post-processor: it trims offsets only, so the ids stay."""

    kind: ClassVar[str] = "ByteLevel"

    def process(self, ids: list[int]) -> list[int]:
        return list(ids)


@dataclass(frozen=True, slots=True)
class Sequence:
    """Several post-processors, each on what the one before gave."""

    processors: Seq[PostProcessor]
    kind: ClassVar[str] = "Sequence"

    def process(self, ids: list[int]) -> list[int]:
        for p in self.processors:
            ids = p.process(ids)
        return ids
