"""The card that explains the chosen merge, as HTML (pure; for ``st.html``).

>>> from bpe_core import train_steps
>>> step = next(train_steps("aaabdaaabac", vocab_size=300, pattern="none"))
>>> card = merge_card_html(step)
>>> "Merge 1" in card and "<b>4</b> adjacent" in card and "<b>2</b> replaced" in card
True
"""

from __future__ import annotations

import html

from bpe_core import MergeStep
from bpe_core.byte_level import readable as label
from bpe_core.training import TIE_BREAK_HELP
from mergescope_ui.shared.token_html import TOKEN_CSS, token_span

from .tables import crosses_word_boundary, pair_label

CARD_CSS = """
<style>
.ms-card{border:2px solid #e8590c;border-radius:.8rem;padding:.8rem 1.1rem;background:rgba(232,89,12,.05);
  font-size:var(--ms-card-size,1.05rem);}
.ms-card h4{margin:0 0 .4rem 0;font-size:1.1em;font-weight:700;color:#d9480f;}
.ms-card .ms-tokens{border:none;max-height:none;padding:.2rem 0;font-size:1.9em;overflow:visible;
  contain:none;}
.ms-card .ms-op{font-size:.8em;color:#495057;padding:0 .3em;}
.ms-card p{margin:.25rem 0;}
.ms-card .ms-note{color:#495057;font-size:.92em;}
.ms-card code{font-size:.95em;}
</style>
"""


def _code(text: str) -> str:
    return f"<code>{html.escape(text, quote=True)}</code>"


def merge_card_html(step: MergeStep, *, special_ids: frozenset[int] = frozenset(), css: bool = True) -> str:
    """The chosen pair → new token, its id and bytes, count vs replaced, and the tie rule's say.

    With ``css=False`` the style blocks are left out (the page already has
    them once, see :func:`mergescope_ui.shared.theme.page_css`).
    """
    left_id, right_id = step.pair
    pieces = [
        CARD_CSS + TOKEN_CSS if css else "",
        '<div class="ms-card">',
        f"<h4>Merge {step.index}</h4>",
        '<div class="ms-tokens">',
        token_span(left_id, step.left, special=left_id in special_ids),
        '<span class="ms-op">+</span>',
        token_span(right_id, step.right, special=right_id in special_ids),
        '<span class="ms-op">→</span>',
        token_span(step.new_id, step.token, emphasize=True),
        "</div>",
        f"<p>New token id <b>{step.new_id}</b> · {len(step.token)} bytes {_code(step.token.hex(' ').upper())}"
        f" · readable {_code(label(step.token))}</p>",
        f"<p><b>{step.count:,}</b> adjacent occurrences counted · <b>{step.replaced:,}</b> replaced · "
        f"corpus tokens {step.tokens_before:,} → {step.tokens_after:,}</p>",
    ]
    if step.replaced < step.count:
        example = f" (in {_code(label(step.left * 3))} it occurs twice)" if step.left == step.right else ""
        pieces.append(
            f'<p class="ms-note">Fewer replaced than counted: the pair overlaps itself{example}, '
            "and merging left to right uses each token only once.</p>"
        )
    if step.tied:
        others = [pc for pc in step.top_pairs if pc.pair in set(step.ties) and pc.pair != step.pair]
        names = ", ".join(_code(pair_label(pc.left, pc.right)) for pc in others[:6])
        more = (
            f" and {len(step.ties) - 1 - len(others[:6])} more"
            if len(step.ties) - 1 > len(others[:6])
            else ""
        )
        rule = TIE_BREAK_HELP.get(step.tie_break, "")
        pieces.append(
            f"<p>⚖️ <b>Tie</b>: {len(step.ties)} pairs occur {step.count:,} times (also {names}{more}). "
            f"The <b>{html.escape(step.tie_break)}</b> rule chose: {html.escape(rule)}.</p>"
        )
    else:
        pieces.append('<p class="ms-note">No tie: this pair is the single most frequent one.</p>')
    if crosses_word_boundary(step.token):
        pieces.append(
            f"<p>🚩 {_code(label(step.token))} runs past the end of a word; a word-splitting "
            "pre-tokenizer (gpt2, gpt4) would prevent this token.</p>"
        )
    pieces.append("</div>")
    return "".join(pieces)
