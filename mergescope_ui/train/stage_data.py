"""What the stage shows at each step, as plain data for the stage component (pure: no Streamlit).

The stage (:mod:`.stage`) steps through a window of steps in the browser, so
the server sends it each step of the window at once: the merge card and the
pair chart as escaped HTML, the figures, and the token ids of the sequence
around the merge (the first places where the new token now stands in the
whole text, and the text from its start).  Token labels travel once per
window in a table: id -> escaped label, CSS classes, escaped tooltip.

>>> from bpe_core import Trainer, TrainOptions
>>> from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
>>> text, options = "low low lower", TrainOptions(vocab_size=260, pattern="none", tie_break="lowest-id")
>>> run = TrainingRun(Trainer(text, options), identity=RunIdentity.of(text, options))
>>> views = StageViews(run, text)
>>> run.jump(2), views.view(2)["places"]["total"], views.view(2)["places"]["items"][0]["token"]
(2, 3, 257)
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from bpe_core.byte_level import readable
from bpe_core.training.places import Place, TextReplay
from mergescope_ui.shared.token_html import clip_label, label_width, token_class, token_title
from mergescope_ui.shared.training_run import TrainingRun

from .cards import intro_card_html, merge_card_html
from .pair_bars import pair_bars_html

PLACES_PER_STEP = 6  # places sent with each step; the stage shows a few at a time and asks for more
CONTEXT_COLUMNS = 12  # text shown on each side of a place, in columns (a CJK character takes two)
HEAD_CHARS = 600  # the text from its start: characters shown
TOKEN_COLUMNS = 14  # columns a token's label may take in the sequences before it is shortened
BEHIND, AHEAD = 4, 8  # steps sent before and after the current one
MAX_VIEWS = 400  # step views kept per run


@dataclass(frozen=True, slots=True)
class StageOptions:
    """How the stage runs: presenter sizes, the quiz, the animation, Play's seconds per step."""

    large: bool = False
    quiz: bool = False
    animate: bool = True
    speed: float = 1.0


class StageViews:
    """Each step's view for one run, built on demand and kept (and the replay that finds the places)."""

    def __init__(self, run: TrainingRun, text: str) -> None:
        trainer = run.trainer
        self.run = run
        self.special_ids = frozenset(trainer.special_tokens.values())
        self.replay = TextReplay(text, trainer.pretokenizer, special_tokens=trainer.special_tokens)
        self.head_bytes = len(text[:HEAD_CHARS].encode("utf-8"))
        self.text_chars = len(text)
        self.place_start: dict[int, int] = {}  # step -> the first place the stage asked to see
        self._views: dict[tuple[int, int], dict[str, Any]] = {}
        self._merges: list[tuple[tuple[int, int], int]] = []
        self._labels: dict[int, list[Any]] = {}

    # ----- one step -----
    def _merges_so_far(self) -> list[tuple[tuple[int, int], int]]:
        records = self.run.records
        self._merges.extend((s.pair, s.new_id) for s in records[len(self._merges) :])
        return self._merges

    def view(self, k: int) -> dict[str, Any]:
        """The view of step ``k`` (0: the raw bytes), built once per first place shown."""
        start = self.place_start.get(k, 0)
        key = (k, start)
        if key not in self._views:
            if len(self._views) >= MAX_VIEWS:
                self._views.pop(next(iter(self._views)))
            self._views[key] = self._build(k, start)
        return self._views[key]

    def _build(self, k: int, start: int) -> dict[str, Any]:
        run, replay = self.run, self.replay
        replay.move_to(k, self._merges_so_far())
        head = replay.head(max_bytes=self.head_bytes)
        view: dict[str, Any] = {
            "figures": self._figures(k),
            "head": head,
            "headMore": self.text_chars > HEAD_CHARS,
        }
        if k == 0:
            upcoming = run.records[0] if run.records else None
            view |= {
                "card": intro_card_html(special_ids=self.special_ids),
                "pairs": "" if upcoming is None else pair_bars_html(upcoming, name_winner=False),
                "pair": None,
                "new": None,
                "places": None,
            }
            return view
        step = run.records[k - 1]
        # Enough bytes for the columns on each side (a byte shown as <XX> takes four), then cut to them.
        places = [
            self._trim(p)
            for p in replay.places(
                step.new_id, start=start, limit=PLACES_PER_STEP, context_bytes=3 * CONTEXT_COLUMNS
            )
        ]
        view |= {
            "card": merge_card_html(step, special_ids=self.special_ids),
            "pairs": pair_bars_html(step),
            "pair": list(step.pair),
            "new": step.new_id,
            "places": {
                "total": step.replaced,
                "start": start,
                "items": [
                    {
                        "left": list(p.left),
                        "token": p.token,
                        "right": list(p.right),
                        "ts": p.text_start,
                        "te": p.text_end,
                        "chunk": p.chunk,
                        "at": p.at,
                    }
                    for p in places
                ],
            },
        }
        return view

    def _columns(self, token_id: int) -> int:
        return self.labels([token_id])[str(token_id)][4]

    def _trim(self, place: Place) -> Place:
        """``place`` with its context cut to :data:`CONTEXT_COLUMNS` on each side (at least one token)."""
        left, right = list(place.left), list(place.right)
        keep_left = keep_right = 0
        used = 0
        for i in reversed(left):
            used += self._columns(i)
            if keep_left and used > CONTEXT_COLUMNS:
                break
            keep_left += 1
        used = 0
        for i in right:
            used += self._columns(i)
            if keep_right and used > CONTEXT_COLUMNS:
                break
            keep_right += 1
        return replace(
            place,
            left=tuple(left[len(left) - keep_left :]),
            right=tuple(right[:keep_right]),
            text_start=place.text_start and keep_left == len(left),
            text_end=place.text_end and keep_right == len(right),
        )

    def _figures(self, k: int) -> dict[str, str]:
        trainer, step = self.run.trainer, self.run.records[k - 1] if k else None
        tokens = step.tokens_after if step else trainer.initial_tokens
        return {
            "vocab": f"{256 + len(self.special_ids) + k:,}",
            "tokens": f"{tokens:,}",
            "saved": f"{step.replaced:,}" if step else "",
            "bpt": f"{trainer.corpus_bytes / max(tokens, 1):.3f}",
        }

    # ----- token labels -----
    def labels(self, ids: Iterable[int]) -> dict[str, list[Any]]:
        """id -> [escaped label, classes, escaped tooltip, newlines in it, columns] for the stage's spans."""
        # Every token made so far: the replay's vocab holds only those up to the step it is at.
        vocab = self.run.trainer.vocab
        out: dict[str, list[Any]] = {}
        for i in ids:
            entry = self._labels.get(i)
            if entry is None:
                token = vocab[i]
                special = i in self.special_ids
                text = clip_label(token.decode("utf-8") if special else readable(token), TOKEN_COLUMNS)
                entry = self._labels[i] = [
                    html.escape(text, quote=True),
                    token_class(i, token, special=special),
                    html.escape(token_title(i, token, special=special), quote=True),
                    0 if special else min(2, token.count(b"\n")),
                    label_width(text),
                ]
            out[str(i)] = entry
        return out

    # ----- the window -----
    def payload(
        self, *, position: int, serial: int, options: StageOptions, notice: str = ""
    ) -> dict[str, Any]:
        """Everything the stage needs around ``position`` (in the quiz, no step after it)."""
        run = self.run
        lo = max(0, position - BEHIND)
        hi = position if options.quiz else min(run.pulled, position + AHEAD)
        views = {str(k): self.view(k) for k in self._order(lo, hi)}
        if options.quiz and "0" in views:  # before the first guess, the counts would give it away
            views["0"] = views["0"] | {"pairs": ""}
        ids: set[int] = set()
        for v in views.values():
            ids.update(v["head"])
            if v["pair"]:
                ids.update(v["pair"])
            for p in (v["places"] or {}).get("items", ()):
                ids.update(p["left"])
                ids.update(p["right"])
                ids.add(p["token"])
        settings = run.identity.settings
        return {
            "serial": serial,
            "position": position,
            "lo": lo,
            "hi": hi,
            "views": views,
            "tokens": self.labels(sorted(ids)),
            "last": run.pulled,
            "finished": run.finished,
            "stop": run.stop_reason or "",
            "maxMerges": settings.max_merges,
            "quiz": options.quiz,
            "animate": options.animate,
            "speed": options.speed,
            "large": options.large,
            "notice": notice,
        }

    def _order(self, lo: int, hi: int) -> list[int]:
        """Steps lo..hi, the nearest to the replay's step first (so it moves as little as it can)."""
        steps = list(range(lo, hi + 1))
        return steps if self.replay.step <= lo else steps[::-1] if self.replay.step >= hi else steps
