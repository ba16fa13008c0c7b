"""Watch it encode: a text's encode trace as the stage's records (pure: no Streamlit).

The engine's trace records step 0 (the chunks the split pattern cut, each named by the pattern part
that cut it), then one step per merge rank that fires, at all its places.  This module turns it into
the stage's records (:mod:`mergescope_ui.shared.stage.contract`): each step's card and chunks column
as escaped HTML, and the tokens around each place it merged as spans.

>>> from bpe_core import train
>>> tok = train("low low low lower lowest", vocab_size=259, pattern="gpt2")
>>> views = EncodeViews(trace_encode(tok, "slow low"), tok)
>>> views.view(0).heading, views.view(1).heading
('Step 0: the text cut into 2 chunks', 'Step 1 of 3: merge rank 0')
>>> [(p.number, p.token) for p in views.view(1).places.items]
[(1, (Span(ids=(256,), mark='new', was=(111, 119)),)), (2, (Span(ids=(256,), mark='new', was=(111, 119)),))]
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence

import regex

from bpe_core import Tokenizer
from bpe_core.bpe import Chunk, EncodeStep, EncodeTrace, TraceReplay, trace_encode
from bpe_core.byte_level import readable
from bpe_core.pretokenizer import pattern_name
from mergescope_ui.shared.html.tokens import clip_label, stage_label, token_class, token_title
from mergescope_ui.shared.stage.contract import (
    LABEL_COLUMNS,
    PLACES_PER_STEP,
    ButtonTitles,
    Place,
    Places,
    Spans,
    StepView,
    TokenLabel,
    Wording,
    spans,
)
from mergescope_ui.shared.stage.producer import StageProducer

from .assets import style

__all__ = ["ENCODE_CSS", "EncodeViews", "trace_encode"]

HEAD_TOKENS = 400  # the text from its start: tokens shown (the trace holds tokens, not the text's characters)
CARD_COLUMNS = 12  # columns each token of the card's big line may take
CHUNKS_SHOWN = 40  # step 0's card: chunks shown with their part names
CHUNKS_LISTED = 5  # a step's card and column: chunks named where it merged
PATTERN_TITLES = {
    "gpt2": "GPT-2's",
    "gpt4": "GPT-4's (cl100k)",
    "o200k": "GPT-4o's (o200k)",
    "whitespace": "the whitespace",
    "none": "no",
}

TITLES = ButtonTitles(
    back="The step before (← key)",
    next="The next merge to fire (→ key)",
    play="Step on its own, a step a second (P key)",
    reset="Back to step 0: the chunks, as bytes",
)
# The card and the chunks column (the token colours are the page's, shared/html/tokens.py; the text colours
# the theme's variables, shared/html/theme.py, so they keep 4.5:1 in the light and the dark theme).
ENCODE_CSS = style("watch_encode.css")


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _region(classes: str, name: str) -> str:
    """A block's opening tag: a region the keyboard can reach and a screen reader can name (in presenter
    mode the card and the column scroll inside; axe-core: scrollable-region-focusable)."""
    return f'<div class="{classes}" tabindex="0" role="region" aria-label="{_e(name)}">'


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


# One emoji or more (each shown as a picture: emoji presentation, or a pictograph asking for it with U+FE0F,
# with its modifiers and joiners), spaces around them allowed; © or ™ alone are not.
_EMOJI = regex.compile(
    r"\s*(?:(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F)"
    r"[\p{Emoji_Component}\p{Extended_Pictographic}\u200D\uFE0F]*)+\s*"
)


def chunk_name(chunk: Chunk) -> str:
    """What a chunk is, for a person: its pattern part's name, but "emoji" for a chunk of emoji that the
    pattern's punctuation part cut (GPT-2's ``?[^\\s\\p{L}\\p{N}]+`` takes 😀 too).

    >>> from bpe_core import train
    >>> chunks = trace_encode(train("ab", vocab_size=256, pattern="gpt2"), "ab 🎉 ! © 👩‍💻").chunks
    >>> [(c.part, chunk_name(c)) for c in chunks]  # doctest: +NORMALIZE_WHITESPACE
    [('letters', 'letters'), ('punctuation', 'emoji'), ('punctuation', 'punctuation'),
     ('punctuation', 'punctuation'), ('punctuation', 'emoji')]
    """
    if chunk.part == "punctuation" and not chunk.special and _EMOJI.fullmatch(chunk.text):
        return "emoji"
    return chunk.part


class EncodeViews(StageProducer):
    """Each step's view of one trace, built on demand and kept (and the replay that finds the places)."""

    # A trace's steps come from one replay in memory, quick to build: the stage holds more of them, so
    # stepping on asks the server less often.
    behind, ahead = 6, 12
    finished = True  # the whole trace is made at once

    def __init__(self, trace: EncodeTrace, tokenizer: Tokenizer) -> None:
        super().__init__()  # a session's own (a trace is cheap to make again)
        self.trace = trace
        self.vocab = tokenizer.vocab
        self.special_ids = frozenset(tokenizer.special_tokens.values())
        self.replay = TraceReplay(trace)
        self.bytes = trace.chunks[-1].byte_end if trace.chunks else 0
        self.pattern_title = PATTERN_TITLES.get(pattern_name(trace.pattern), "a custom")

    @property
    def last(self) -> int:
        return len(self.trace.steps)

    @property
    def max_steps(self) -> int:
        return self.last

    def replay_step(self) -> int:
        return self.replay.step

    # ----- one step -----
    def build(self, k: int, start: int) -> StepView:
        trace, replay = self.trace, self.replay
        replay.move_to(k)
        flat = replay.flat()
        head = flat[:HEAD_TOKENS]
        more = len(flat) > HEAD_TOKENS or trace.traced_chars < trace.total_chars
        if k == 0:
            return StepView(
                step=0,
                heading=f"Step 0: the text cut into {_plural(len(trace.chunks), 'chunk')}",
                status=(
                    "👉 Each chunk is encoded on its own, starting from its bytes. "
                    "Press Next ▶ (or the → key) for the first merge."
                    if trace.steps
                    else "No merge of this tokenizer fires on this text: every token is a byte."
                ),
                card=self._chunks_card(),
                pairs=self._parts_column(),
                figures=self._figures(0),
                before_caption="",
                after_caption="The text as bytes, from its start",
                head=spans(head),
                head_more=more,
                places=None,
            )
        step = trace.steps[k - 1]
        offsets = replay.offsets()
        at = [offsets[p.chunk] + p.after for p in step.places]  # where each new token stands in flat
        new_at = set(at)

        def line(lo: int, hi: int) -> Spans:
            return spans(flat[lo:hi], {n - lo: ("new", step.pair) for n in range(lo, hi) if n in new_at})

        items = []
        shown = at[start : start + PLACES_PER_STEP]
        for n, g in enumerate(shown):
            lo, hi = self._context(flat, g)
            nxt = shown[n + 1] if n + 1 < len(shown) else None
            items.append(
                Place(
                    number=start + n + 1,
                    lead=line(lo, g),
                    token=line(g, g + 1),
                    tail=line(g + 1, hi),
                    link=line(g + 1, nxt) if nxt is not None and nxt < hi else None,
                    cut_before=lo > 0,
                    cut_after=hi < len(flat) or trace.traced_chars < trace.total_chars,
                )
            )
        return StepView(
            step=k,
            heading=f"Step {k:,} of {self.last:,}: merge rank {step.rank:,}",
            status="",
            card=self._merge_card(step),
            pairs=self._where_column(step),
            figures=self._figures(k),
            before_caption=f"Before step {k:,}",
            after_caption=f"After step {k:,}",
            head=line(0, len(head)),
            head_more=more,
            places=Places(total=len(step.places), start=start, items=tuple(items)),
        )

    def _context(self, flat: Sequence[int], g: int) -> tuple[int, int]:
        """The tokens around position ``g`` that fit :data:`CONTEXT_COLUMNS` on each side (one at least)."""
        lo = g - self.fit(flat[j] for j in range(g - 1, -1, -1))
        return lo, g + 1 + self.fit(flat[j] for j in range(g + 1, len(flat)))

    def _figures(self, k: int) -> str:
        tokens = self.trace.steps[k - 1].tokens_after if k else sum(len(c.ids) for c in self.trace.chunks)
        return (
            f"{_plural(tokens, 'token')} for {_plural(self.bytes, 'byte')} · "
            f"{self.bytes / max(tokens, 1):.2f} bytes per token · {_plural(len(self.trace.chunks), 'chunk')}"
        )

    # ----- the HTML blocks -----
    def _token(self, i: int, *, columns: int = CARD_COLUMNS, extra: str = "") -> str:
        token = self.vocab[i]
        special = i in self.special_ids
        text = clip_label(token.decode("utf-8") if special else readable(token), columns)
        return (
            f'<span class="{token_class(i, token, special=special)}{extra}" '
            f'title="{_e(token_title(i, token, special=special))}">{_e(text)}</span>'
        )

    def _chunks_card(self) -> str:
        trace = self.trace
        chips = []
        for c in trace.chunks[:CHUNKS_SHOWN]:
            label = clip_label(c.text if c.special else readable(c.text.encode("utf-8")), LABEL_COLUMNS)
            kind = "ms-special" if c.special else f"ms-c{c.index % 2 * 2}"
            size = c.byte_end - c.byte_start
            name = chunk_name(c)
            title = f"chunk {c.index + 1} · {name} · characters {c.start}–{c.end} · {_plural(size, 'byte')}"
            chips.append(
                f'<span class="ms-enc-chunk"><span class="ms-t {kind}" title="{_e(title)}">{_e(label)}</span>'
                f'<span class="ms-enc-part">{_e(name)}</span></span>'
            )
        rest = len(trace.chunks) - CHUNKS_SHOWN
        more = f'<p class="ms-note">… and {_plural(rest, "more chunk")}.</p>' if rest > 0 else ""
        if not trace.chunks:
            chips.append('<span class="ms-note">The text is empty: there is nothing to cut.</span>')
        pattern = _e(self.pattern_title)
        what = (
            "The text is not split (pattern none): each stretch between special tokens is one chunk."
            if not trace.parts
            else f"{pattern} split pattern cut the text; no token ever crosses a chunk's edge."
        )
        return (
            f"{_region('ms-card ms-enc-card', 'step 0: the chunks')}<h4>Step 0: the chunks</h4>"
            f"<p>{what[0].upper() + what[1:]}</p>"
            f'<div class="ms-tokens ms-enc-chunks">{"".join(chips)}</div>{more}</div>'
        )

    def _parts_column(self) -> str:
        """The pattern's parts: each one's regex and how many chunks it cut."""
        trace = self.trace
        counts = Counter(c.part for c in trace.chunks)
        regexes: dict[str, list[str]] = {}  # each part's name -> its regexes, in the pattern's order
        for part in trace.parts:
            regexes.setdefault(part.name, []).append(f"<code>{_e(part.source)}</code>")
        for name in sorted(set(counts) - set(regexes)):  # special tokens, a whole text, what no part matched
            regexes[name] = []
        rows = "".join(
            f"<tr><td>{_e(name)}{'<br>' if codes else ''}{' '.join(codes)}</td>"
            f'<td class="ms-num">{counts[name]:,}</td></tr>'
            for name, codes in regexes.items()
        )
        return (
            f"{_region('ms-enc-col', 'the pattern parts')}<h5>The pattern's parts</h5>"
            f"<table><tbody>{rows}</tbody></table>"
            '<p class="ms-note">Chunks each part cut. The regex tries its parts in order at each '
            "place.</p></div>"
        )

    def _merge_card(self, step: EncodeStep) -> str:
        a, b = step.pair
        chunks = sorted({p.chunk for p in step.places})
        named = ", ".join(f"{n + 1} ({_e(chunk_name(self.trace.chunks[n]))})" for n in chunks[:CHUNKS_LISTED])
        if len(chunks) > CHUNKS_LISTED:
            named += f" and {len(chunks) - CHUNKS_LISTED:,} more"
        where = (
            f"at {_plural(len(step.places), 'place')} in {_plural(len(chunks), 'chunk')}: "
            f"chunk{'' if len(chunks) == 1 else 's'} {named}"
        )
        return (
            f"{_region('ms-card ms-enc-card', f'merge rank {step.rank:,}')}<h4>Merge rank {step.rank:,}</h4>"
            f'<div class="ms-tokens ms-enc-big">{self._token(a)}<span class="ms-op">+</span>'
            f'{self._token(b)}<span class="ms-op">→</span>{self._token(step.new_id, extra=" ms-new")}</div>'
            f"<p>Makes token id <b>{step.new_id:,}</b> ({len(self.vocab[step.new_id])} bytes), {where}.</p>"
            '<p class="ms-note">The lowest-ranked merge whose pair stands anywhere in the text now: '
            "it fires at every place, left to right in each chunk.</p></div>"
        )

    def _where_column(self, step: EncodeStep) -> str:
        """The chunks it merged in: each one's tokens after the step, the new ones outlined."""
        rows = []
        chunks = sorted({p.chunk for p in step.places})
        for n in chunks[:CHUNKS_LISTED]:
            ids = self.replay.chunk_ids[n]
            tokens = "".join(
                self._token(i, columns=LABEL_COLUMNS, extra=" ms-new" if i == step.new_id else "")
                for i in ids[:12]
            ) + ("…" if len(ids) > 12 else "")
            rows.append(
                f'<tr><td class="ms-num">{n + 1}</td><td>{_e(chunk_name(self.trace.chunks[n]))}'
                f'<div class="ms-tokens">{tokens}</div></td></tr>'
            )
        rest = len(chunks) - CHUNKS_LISTED
        more = f'<p class="ms-note">… and {_plural(rest, "more chunk")}.</p>' if rest > 0 else ""
        return (
            f"{_region('ms-enc-col', 'the chunks it merged in')}<h5>The chunks it merged in</h5>"
            f"<table><tbody>{''.join(rows)}</tbody></table>{more}</div>"
        )

    # ----- token labels and sentences -----
    def label(self, token_id: int) -> tuple[TokenLabel, int]:
        return stage_label(token_id, self.vocab[token_id], special=token_id in self.special_ids)

    def wording(self) -> Wording:
        last = self.last
        end = (
            f"🏁 Encoded in {_plural(last, 'step')}: {_plural(len(self.trace.ids), 'token')}, "
            "the tokenizer's own ids."
            if self.trace.whole
            else f"🏁 The trace ends at step {last:,}. {self.trace.note}"
        )
        return Wording(
            heading=f"Step {{step}} of {last:,}",
            waiting="Loading step {step}…",
            waiting_card="Step {step}",
            past_end=f"The text is encoded after step {last:,}; showing it.",
            past_limit=f"The text is encoded after step {last:,}; showing it.",
            finished=end,
        )

    def titles(self) -> ButtonTitles:
        return TITLES
