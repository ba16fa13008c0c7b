"""The card that explains the chosen merge, as HTML (pure; for the stage).

A long token is shortened in the middle in the big "left + right → new" line,
and written out whole (wrapping) with its length in the card's details.

>>> from bpe_core import train_steps
>>> step = next(train_steps("aaabdaaabac", vocab_size=300, pattern="none"))
>>> card = merge_card_html(step)
>>> "Merge 1" in card and "<b>4</b> counted" in card and "<b>2</b> replaced" in card
True
"""

from __future__ import annotations

import html
from collections.abc import Mapping

from bpe_core import MergeStep
from bpe_core.bpe import TIE_BREAK_HELP
from bpe_core.byte_level import partial_note
from bpe_core.byte_level import readable as label
from mergescope_ui.shared.html.tokens import TITLE_HEX_BYTES, clip_apart, clip_label, label_width, token_span

from .tables import crosses_word_boundary

CARD_COLUMNS = 12  # columns each token of the big line may take before it is shortened
TIE_COLUMNS = 8  # columns each token of a tied pair's name may take
SHORT_BYTES = 8  # a token this long or shorter has its bytes on the card's line; longer, in its details
# What each tie rule does, short enough for the card (the whole sentence is in the rule's tooltip).
RULE_GIST = {
    "lexicographic": "the greatest byte strings win",
    "lowest-id": "the smallest ids win",
    "first-seen": "the pair seen first wins",
    "hf": "HF tokenizers' order",
}

CARD_CSS = """
<style>
.ms-card{border:2px solid var(--ms-accent-line);border-radius:.8rem;padding:.55rem .9rem;
  background:rgba(232,89,12,.05);
  font-size:var(--ms-card-size,1rem);min-width:0;overflow-wrap:anywhere;}
.ms-card h4{margin:0 0 .15rem 0;font-size:1.1em;font-weight:700;color:var(--ms-accent-text);padding:0;
  line-height:1.3;}
.ms-card .ms-tokens{border:none;max-height:none;padding:.1rem 0;font-size:1.7em;overflow:visible;
  contain:none;line-height:1.6;word-break:normal;display:flex;flex-wrap:wrap;align-items:center;}
.ms-card .ms-tokens.ms-long{font-size:1.3em;}
.ms-card .ms-tokens.ms-longer{font-size:1.05em;}
.ms-card .ms-fl,.ms-card .ms-fr,.ms-card .ms-fn{display:inline-block;max-width:100%;}
.ms-card details,.ms-card details summary{display:inline;cursor:pointer;}
.ms-card details summary{text-decoration:underline dotted;}
.ms-card details[open] summary{margin-right:.3em;}
/* The merges so far beside the longest tokens only where the merges' ten columns have room. */
.ms-split-room{container-type:inline-size;}
@container (max-width: 64rem){.ms-split-room .ms-wide-split{grid-template-columns:minmax(0,1fr);gap:0;}}
.ms-card .ms-op{font-size:.8em;color:var(--ms-note);padding:0 .25em;}
.ms-card p{margin:.15rem 0;line-height:1.4;}
.ms-card .ms-note{color:var(--ms-note);font-size:.92em;}
.ms-card code{font-size:.92em;overflow-wrap:anywhere;white-space:break-spaces;padding:0 .1em;}
.ms-card code.ms-pairname{display:inline-block;max-width:100%;white-space:nowrap;overflow:hidden;
  text-overflow:ellipsis;vertical-align:bottom;}
.ms-card code.ms-hex{white-space:normal;}
</style>
"""


def _code(text: str) -> str:
    return f"<code>{html.escape(text, quote=True)}</code>"


def merge_card_html(
    step: MergeStep, *, special_ids: frozenset[int] = frozenset(), chars: Mapping[str, int] | None = None
) -> str:
    """The chosen pair → new token, its id, bytes and whole text, count vs replaced, the tie rule's say;
    ``chars`` (the text's characters of more than one byte) ties the bytes of one cut in two to it."""
    left_id, right_id = step.pair
    cut = " …" if len(step.token) > TITLE_HEX_BYTES else ""
    hexes = html.escape(step.token[:TITLE_HEX_BYTES].hex(" ").upper() + cut)
    plural = "byte" if len(step.token) == 1 else "bytes"
    labels = [label(step.left), label(step.right), label(step.token)]
    # Cut so that the three never read the same (newest…west␣ + newest…west␣ → newest…west␣).
    shown = clip_apart(labels, CARD_COLUMNS)
    if left_id in special_ids or right_id in special_ids:
        shown = ["", "", shown[2]]  # a special token keeps its own label (never merged anyway)
    columns = sum(label_width(t or clip_label(f, CARD_COLUMNS)) for t, f in zip(shown, labels))
    size = "" if columns <= 14 else " ms-long" if columns <= 26 else " ms-longer"
    about = f'<code class="ms-hex">{hexes}</code>'
    if label_width(labels[2]) > CARD_COLUMNS or len(step.token) > SHORT_BYTES:
        # Shortened in the big line, or many bytes: the whole of it, folded into the card's details.
        about = f"<details><summary>the whole token</summary>{_code(labels[2])} {about}</details>"
    ids, tokens = (left_id, right_id, step.new_id), (step.left, step.right, step.token)
    left, right, new = (
        token_span(
            i,
            t,
            emphasize=n == 2,
            special=i in special_ids,
            clip=CARD_COLUMNS,
            breaks=False,
            shown=s,
            words=True,
        )
        for n, (i, t, s) in enumerate(zip(ids, tokens, shown, strict=True))
    )
    pieces = [
        f'<div class="ms-card"><h4>Merge {step.index}</h4><div class="ms-tokens{size}">',
        f'<span class="ms-fl">{left}</span><span class="ms-op">+</span><span class="ms-fr">{right}</span>',
        f'<span class="ms-op">→</span><span class="ms-fn">{new}</span></div>',
        f"<p>New token id <b>{step.new_id}</b> · {len(step.token)} {plural} · {about}</p>",
        f"<p><b>{step.count:,}</b> counted · <b>{step.replaced:,}</b> replaced · "
        f"tokens {step.tokens_before:,} → {step.tokens_after:,}</p>",
    ]
    partial = partial_note(step.token, chars) if chars else ""
    if partial:
        pieces.append(f'<p class="ms-part">🧩 {html.escape(partial)}</p>')
    if step.replaced < step.count:
        whole = label(step.left)  # the example only for a short token: the card must stay short
        short = step.left == step.right and label_width(whole) <= TIE_COLUMNS // 2
        example = f" ({_code(whole * 3)} holds it twice)" if short else ""
        pieces.append(
            f'<p class="ms-note">Fewer replaced than counted: the pair overlaps itself{example}; '
            "merging left to right uses each token once.</p>"
        )
    if step.tied:
        others = [pc for pc in step.top_pairs if pc.pair in set(step.ties) and pc.pair != step.pair]
        named = [" + ".join(clip_apart([label(pc.left), label(pc.right)], TIE_COLUMNS)) for pc in others[:2]]
        names = ", ".join(f'<code class="ms-pairname">{html.escape(n)}</code>' for n in named)
        rest = step.tie_count - 1 - len(others[:2])
        more = f" and {rest} more" if rest > 0 else ""
        rule = html.escape(TIE_BREAK_HELP.get(step.tie_break, ""), quote=True)
        gist = html.escape(RULE_GIST.get(step.tie_break, "its own order"))
        pieces.append(
            f"<p>⚖️ <b>Tie</b> at {step.count:,} with {names}{more}: "
            f'the <b title="{rule}">{html.escape(step.tie_break)}</b> rule chose this one ({gist}).</p>'
        )
    else:
        pieces.append('<p class="ms-note">No tie: the single most frequent pair.</p>')
    if crosses_word_boundary(step.token):
        pieces.append(
            '<p title="gpt2 and gpt4 pre-tokenization split the text into words first">'
            "🚩 It crosses a word boundary (gpt2 prevents that).</p>"
        )
    pieces.append("</div>")
    return "".join(pieces)


def intro_card_html(*, special_ids: frozenset[int] = frozenset()) -> str:
    """Step 0's card: what BPE is about to do."""
    specials = " Special tokens stay one token each and are never merged." if special_ids else ""
    return (
        '<div class="ms-card"><h4>No merge yet</h4>'
        "<p>Every token is one byte. BPE counts how often each pair of adjacent tokens occurs, "
        f"merges the most frequent pair into a new token, and repeats.{specials}</p>"
        '<p class="ms-note">Press <b>Next ▶</b> (or the → key) for the first merge.</p></div>'
    )
