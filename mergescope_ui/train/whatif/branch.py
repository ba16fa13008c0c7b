"""One changed choice, the branch it starts, and how a link carries it (pure; no Streamlit).

:func:`start_branch` asks the engine for the branch (``Trainer.branch``: no retraining of the steps
before) in a ``TrainingRun`` whose first records are the real run's, so both are stepped the same way.

>>> from bpe_core import TrainOptions, Trainer
>>> from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
>>> text = "low low low low low lower lower newest newest newest newest newest newest widest widest widest"
>>> options = TrainOptions(vocab_size=262, pattern="whitespace", tie_break="lowest-id")
>>> real = TrainingRun(Trainer(text, options), identity=RunIdentity.of(text, options))
>>> _ = real.jump(3)
>>> sorted(choices(real.records[2]))  # merge 3 tied (l, o) with (o, w)
['block', 'pick', 'tie']
>>> what_if = WhatIf.from_param("3.tie.111-119")
>>> branch = start_branch(real, what_if)
>>> _ = branch.jump(4)
>>> [s.token for s in branch.records]
[b'es', b'est', b'ow', b'low']
>>> what_if.to_param(), what_if.describe(real.records[2])
('3.tie.111-119', 'at merge 3 the tie was broken the other way: o + w instead of l + o')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bpe_core import MergeStep
from bpe_core.byte_level import readable
from mergescope_ui.shared.html.tokens import clip_label
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun

KINDS: tuple[str, ...] = ("tie", "block", "pick")


CLIP = 18  # columns of a token's label in a sentence or a list; longer ones are cut in the middle
KIND_LABELS = {
    "tie": "⚖️ the tie had been broken the other way",
    "block": "🚫 this pair had been blocked",
    "pick": "👉 another pair of the table had been merged",
}
_PARAM = re.compile(r"(\d{1,7})\.(tie|block|pick)\.(\d{1,7})-(\d{1,7})")


@dataclass(frozen=True, slots=True)
class WhatIf:
    """At merge ``step``: ``kind`` ``tie`` or ``pick`` merges ``pair`` instead, ``block`` never merges it."""

    step: int
    kind: str
    pair: tuple[int, int]

    def to_param(self) -> str:
        """The link's ``?whatif=`` value: ``step.kind.left-right``."""
        return f"{self.step}.{self.kind}.{self.pair[0]}-{self.pair[1]}"

    @classmethod
    def from_param(cls, value: str) -> WhatIf:
        """Read a ``?whatif=`` value; anything else is a ValueError that shows the form."""
        found = _PARAM.fullmatch(value.strip())
        if found is None:
            raise ValueError("a what-if link reads step.kind.left-right, for example 3.block.108-111")
        step, kind, left, right = found.groups()
        if int(step) < 1:
            raise ValueError("merges are numbered from 1")
        return cls(int(step), kind, (int(left), int(right)))

    def describe(self, real: MergeStep) -> str:
        """One sentence: what changed, by the tokens' readable labels (plain text)."""
        pair = _label_of(real, self.pair)
        chosen = pair_label(real.left, real.right)
        if self.kind == "block":
            return f"from merge {self.step} on, {pair} is never merged"
        if self.kind == "tie":
            return f"at merge {self.step} the tie was broken the other way: {pair} instead of {chosen}"
        return f"at merge {self.step}, {pair} was merged instead of {chosen}"


def pair_label(left: bytes, right: bytes) -> str:
    """A pair as people read it, each long token cut in the middle (plain text).

    >>> pair_label(b"l", b"o"), pair_label(b" the keeper of the light", b"house")
    ('l + o', '␣the␣keep…he␣light + house')
    """
    return f"{clip_label(readable(left), CLIP)} + {clip_label(readable(right), CLIP)}"


def _label_of(step: MergeStep, pair: tuple[int, int]) -> str:
    for row in step.top_pairs:
        if row.pair == pair:
            return pair_label(row.left, row.right)
    return f"({pair[0]}, {pair[1]})"


def choices(step: MergeStep) -> dict[str, list[tuple[int, int]]]:
    """What can change at ``step``: the other tied pairs (when it tied), its own pair to block, the
    other rows of its pair table; each kind only when it has a pair to offer."""
    others = [row.pair for row in step.top_pairs if row.pair != step.pair]
    tied = [pair for pair in others if pair in set(step.ties)]
    found = {"tie": tied, "block": [step.pair], "pick": others}
    return {kind: pairs for kind, pairs in found.items() if pairs}


def check(what_if: WhatIf, step: MergeStep) -> None:
    """A ValueError (a plain sentence) unless ``what_if`` is one of :func:`choices` at ``step``."""
    offered = choices(step).get(what_if.kind, [])
    if what_if.pair not in offered:
        if what_if.kind == "tie" and not step.tied:
            raise ValueError(f"merge {step.index} had no tie to break")
        chosen = pair_label(step.left, step.right)
        what = {
            "tie": "a pair that tied with",
            "block": "the pair merged there,",
            "pick": "another pair than",
        }
        raise ValueError(
            f"at merge {step.index} this run merged {chosen} (ids {step.pair}); "
            f"{what_if.pair} is not {what[what_if.kind]} {chosen}"
        )


def start_branch(real: TrainingRun, what_if: WhatIf) -> TrainingRun:
    """The branch of ``real`` for ``what_if``, at the position before its step (ValueError: why not)."""
    while real.pulled < what_if.step and real.pull():
        pass
    if real.pulled < what_if.step:
        raise ValueError(
            f"this run stops after {real.pulled} merges ({real.stop_reason}), before merge {what_if.step}"
        )
    check(what_if, real.records[what_if.step - 1])
    block = [what_if.pair] if what_if.kind == "block" else []  # tie and pick force the pair instead
    trainer = real.trainer.branch(
        what_if.step, block=block, force=None if block else {what_if.step: what_if.pair}
    )
    identity = RunIdentity(text_digest=real.identity.text_digest, settings=trainer.options)
    records = list(real.records[: what_if.step - 1])  # the real run's, up to the branch point
    return TrainingRun(trainer=trainer, identity=identity, records=records, position=what_if.step - 1)
