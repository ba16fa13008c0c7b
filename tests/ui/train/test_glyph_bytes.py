"""Glyphs tied to bytes (issue #40, item 10): a byte-level token cut inside a UTF-8 character carries the
bytes on either side of the cut (``TokenLabel.closes`` / ``opens``), so the stage can join them along a
line and show each character above the byte tokens that make it."""

from __future__ import annotations

from bpe_core import Trainer, TrainOptions
from bpe_core.byte_level import utf8_width
from mergescope_ui.shared.html.tokens import stage_label
from mergescope_ui.shared.stage.contract import TokenLabel, wire
from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.train.stage_data import StageViews

TEXT = "能力 😀 ok, 机器学习 👩‍💻 café. " * 12


def _views(merges: int) -> tuple[StageViews, TrainingRun]:
    options = TrainOptions(vocab_size=256 + merges, pattern="none", tie_break="lowest-id")
    run = TrainingRun(Trainer(TEXT, options), identity=RunIdentity.of(TEXT, options))
    run.jump(merges)
    return StageViews(run, TEXT), run


def _joined(labels: list[TokenLabel]) -> list[str]:
    """The characters the labels' cut bytes make along a line, as the stage joins them (stage.js Glyphs)."""
    out: list[str] = []
    pending: list[int] = []
    for t in labels:
        if pending and t.closes:
            pending += t.closes
            if len(pending) >= utf8_width(pending[0]):
                out.append(bytes(pending).decode("utf-8"))
                pending = []
            else:
                continue
        pending = list(t.opens)
    return out


def _cut_characters(pieces: list[bytes]) -> list[str]:
    """The characters of the text the tokens ``pieces`` spell whose bytes lie in two or more tokens."""
    ends, at = set(), 0
    for p in pieces:
        at += len(p)
        ends.add(at)
    text, out, at = b"".join(pieces).decode("utf-8"), [], 0
    for char in text:
        width = len(char.encode())
        if any(at < e < at + width for e in ends):
            out.append(char)
        at += width
    return out


def test_a_token_cut_inside_a_character_carries_the_bytes_on_each_side_of_the_cut() -> None:
    whole, _ = stage_label(300, "能".encode(), special=False)
    assert (whole.closes, whole.opens) == ((), ()), "a whole character: nothing to join"
    first, _ = stage_label(1, "能".encode()[:1], special=False)
    middle, _ = stage_label(2, "能".encode()[1:2], special=False)
    shared, _ = stage_label(301, "能力".encode()[2:4], special=False)
    assert (first.closes, first.opens) == ((), (0xE8,))
    assert (middle.closes, middle.opens) == ((0x83,), ())
    assert (shared.closes, shared.opens) == ((0xBD,), (0xE5,)), "the end of 能 and the start of 力"
    special, _ = stage_label(302, b"<|x|>", special=True)
    assert (special.closes, special.opens) == ((), ())
    assert wire(shared)["closes"] == [0xBD] and wire(shared)["opens"] == [0xE5], "sent as lists of bytes"


def test_the_labels_of_every_step_join_into_the_characters_their_tokens_cut() -> None:
    views, run = _views(40)
    window = views.window(position=20, serial=0, settings=StageSettings())
    vocab = run.trainer.vocab
    checked = 0
    for view in window.views:
        ids = [i for span in view.head for i in span.ids]
        joined = _joined([window.labels[str(i)] for i in ids])
        expected = _cut_characters([vocab[i] for i in ids])
        assert joined == expected, f"step {view.step}"
        checked += len(joined)
    assert checked > 100, "the text's Chinese and emoji are cut across tokens at these steps"
    late, _ = _views(120)
    last = late.window(position=120, serial=0, settings=StageSettings())
    head = [last.labels[str(i)] for span in last.views[-1].head for i in span.ids]
    assert "能" not in _joined(head), "a merge joined all of 能's bytes: its token shows it, no glyph"
