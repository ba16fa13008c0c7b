"""WordPiece and Unigram tokens on the Tokenize page: clickable spans and one token's details (pure).

Their ids are pieces of a vocabulary of strings, not bytes (``##s``, ``▁the``); the unknown token
(``[UNK]``, ``<unk>``) stands for whatever text it swallowed, which the round trip loses.  Each span
carries its position (``data-i``, :mod:`.clickable_tokens`); every piece, text and tooltip is escaped.

>>> from bpe_core.wordpiece import WordPieceTokenizer
>>> from mergescope_ui.shared.html.schemes import cut
>>> tok = WordPieceTokenizer(["[UNK]", "hug", "##s"])
>>> page = clickable_pieces_html(cut(tok, "hugs <b>"), start=10)
>>> page.count('data-i="'), 'data-i="12"' in page, "<b>" in page, "&lt;" in page
(5, True, False, True)
>>> d = wordpiece_detail(tok, cut(tok, "hugs <b>")[1])
>>> d.piece, d.role, d.covers
('##s', 'continues a word (## : glued to the piece before it)', 's')
"""

from __future__ import annotations

import html
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import pandas as pd

from bpe_core import PieceBpeTokenizer, PipelineTokenizer, SchemeTokenizer
from bpe_core.byte_level import readable
from bpe_core.unigram import SPACE, UnigramTokenizer
from bpe_core.wordpiece import WordPieceTokenizer
from mergescope_ui.shared.html.schemes import SCHEME_CSS, Cut
from mergescope_ui.shared.html.tokens import PALETTE_SIZE

from .assets import style

PIECE_CSS = SCHEME_CSS + style("pieces.css")


def marked(s: str, *, marks: bool = True) -> str:
    """``s`` with white space shown as ␣ ↵ ⇥ (``marks``) and invisible characters named, as byte-level
    tokens are shown; not yet escaped.

    >>> marked("a b\\n"), marked("a b", marks=False), marked("\\u202eab")
    ('a␣b↵', 'a b', '⟨U+202E⟩ab')
    """
    return readable(s.encode("utf-8", "surrogatepass"), mark_whitespace=marks)


def piece_title(c: Cut, *, score: float | None = None, special: bool = False) -> str:
    """The tooltip of one piece: id, the piece, its score, and the text it covers (or lost).

    >>> piece_title(Cut(3, "▁the", 0, 3, "the", False), score=-2.5)
    'id 3 · “▁the” · score -2.5 · covers characters 0–3: “the”'
    >>> piece_title(Cut(0, "[UNK]", 5, 8, "<b>", True))
    'id 0 · unknown token · stands for “<b>”, which is lost'
    """
    if c.unknown:
        return f"id {c.id} · unknown token · stands for “{marked(c.text)}”, which is lost"
    kind = " · special token" if special else ""
    scored = "" if score is None else f" · score {score:.4g}"
    where = f"covers characters {c.start}–{c.end}: “{marked(c.text)}”"
    return f"id {c.id} · “{marked(c.label)}”{scored}{kind} · {where}"


def piece_span(c: Cut, *, score: float | None = None, special: bool = False, marks: bool = True) -> str:
    """One ``<span>`` (escaped label and tooltip; the unknown token marked ``ms-unk``)."""
    if c.unknown:
        classes = "ms-t ms-unk"
    elif special:
        classes = "ms-t ms-piece-special"
    else:
        classes = f"ms-t ms-c{c.id % PALETTE_SIZE}"
    title = html.escape(piece_title(c, score=score, special=special), quote=True)
    label = html.escape(marked(c.label, marks=marks), quote=True)
    return f'<span class="{classes}" title="{title}">{label}</span>'


def clickable_pieces_html(
    cuts: Sequence[Cut],
    *,
    start: int = 0,
    special_ids: Collection[int] = (),
    scores: Sequence[float] | None = None,
    max_tokens: int = 5000,
    marks: bool = True,
) -> str:
    """``<div class="ms-tokens">`` with one span per token, ``data-i`` = its position + ``start``
    (``scores``: each id's score, for Unigram's tooltips)."""
    special = set(special_ids)
    parts = ['<div class="ms-tokens">']
    for pos, c in enumerate(cuts[:max_tokens], start=start):
        score = scores[c.id] if scores is not None and not c.unknown else None
        span = piece_span(c, score=score, special=c.id in special, marks=marks)
        parts.append(f'<span data-i="{pos}"{span[5:]}')  # span starts with "<span"
    if not cuts:
        parts.append('<span class="ms-empty">(empty text)</span>')
    if len(cuts) > max_tokens:
        parts.append(f'<span class="ms-more"> … {len(cuts) - max_tokens:,} more tokens not shown</span>')
    parts.append("</div>")
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class PieceDetail:
    """What the details panel shows about one WordPiece or Unigram token at one place in the text.

    ``role``: what the piece does in a word; ``covers``: the text this occurrence covers; ``score`` and
    ``rank`` (1 = the most probable): Unigram's; ``kind``: SentencePiece's piece type (``normal``...).
    """

    id: int
    piece: str
    scheme: str
    role: str
    covers: str
    start: int
    end: int
    unknown: bool
    special: bool = False
    score: float | None = None
    rank: int | None = None
    kind: str | None = None


def wordpiece_detail(tok: WordPieceTokenizer, c: Cut) -> PieceDetail:
    """The details of the WordPiece token ``c`` (one occurrence of it in the text)."""
    piece = tok.piece(c.id)
    special = piece in tok.special_tokens
    if c.unknown:
        role = f"the unknown token: the word “{marked(c.text)}” could not be cut into pieces"
    elif special:
        role = "a special token (the text holds it as written)"
    elif piece.startswith(tok.prefix):
        role = f"continues a word ({tok.prefix} : glued to the piece before it)"
    else:
        role = "starts a word (a space or a word's start comes before it)"
    return PieceDetail(c.id, piece, tok.scheme, role, c.text, c.start, c.end, c.unknown, special)


def unigram_detail(tok: UnigramTokenizer, c: Cut) -> PieceDetail:
    """The details of the Unigram token ``c`` (one occurrence of it in the text).

    >>> u = UnigramTokenizer([("<unk>", 0.0), ("▁the", -1.0), ("t", -3.0), ("▁", -2.0)])
    >>> from mergescope_ui.shared.html.schemes import cut
    >>> d = unigram_detail(u, cut(u, "the")[0])
    >>> d.piece, d.score, d.rank, d.role
    ('▁the', -1.0, 1, 'starts a word (▁ stands for the space before it)')
    """
    piece = tok.piece(c.id)
    kind = tok.kinds[c.id]
    score = None if c.unknown else tok.score(c.id)
    rank = None
    if score is not None and kind == "normal":
        rank = 1 + sum(1 for s, k in zip(tok.scores, tok.kinds) if k == "normal" and s > score)
    if c.unknown:
        role = f"the unknown token: “{marked(c.text)}” is in no piece, so it is lost"
    elif kind == "byte":
        role = "one byte of a character no piece holds (byte fallback)"
    elif kind in ("control", "user_defined"):
        role = "a user-defined piece (always cut as itself)" if kind == "user_defined" else "a control piece"
    elif piece.startswith(SPACE):
        role = f"starts a word ({SPACE} stands for the space before it)"
    else:
        role = "inside a word (no space before it)"
    return PieceDetail(
        c.id, piece, tok.scheme, role, c.text, c.start, c.end, c.unknown, False, score, rank, kind
    )


def _byte_piece(piece: str) -> bool:
    return len(piece) == 6 and piece.startswith("<0x") and piece.endswith(">")


def pipeline_detail(tok: PipelineTokenizer, c: Cut) -> PieceDetail:
    """The details of a token of a tokenizer read stage by stage (an HF ``tokenizer.json``).

    >>> from bpe_core.pipeline.models import WordPieceModel
    >>> p = PipelineTokenizer(model=WordPieceModel({"[UNK]": 0, "hug": 1, "##s": 2}))
    >>> from mergescope_ui.shared.html.schemes import cut
    >>> pipeline_detail(p, cut(p, "hugs")[1]).role
    'continues a word (## : glued to the piece before it)'
    """
    piece = tok.piece(c.id)
    special = c.id in tok.special_ids
    prefix = getattr(tok.model, "continuing_subword_prefix", None)
    if c.unknown:
        role = f"the unknown token: “{marked(c.text)}” could not be cut into pieces, so it is lost"
    elif _byte_piece(piece):
        role = "one byte of a character no piece holds (byte fallback)"
    elif special:
        role = "a special token (the text holds it as written)"
    elif tok.family == "wordpiece" and prefix and piece.startswith(prefix):
        role = f"continues a word ({prefix} : glued to the piece before it)"
    elif tok.family == "wordpiece":
        role = "starts a word (a space or a word's start comes before it)"
    elif piece.startswith(SPACE):
        role = f"starts a word ({SPACE} stands for the space before it)"
    else:
        role = "a piece of the text (its model's cut)"
    return PieceDetail(c.id, piece, tok.scheme, role, c.text, c.start, c.end, c.unknown, special)


def pipeline_summary(tok: PipelineTokenizer) -> str:
    """What was loaded, in a few words: the model and each stage in order (not escaped: names only).

    >>> from bpe_core.pipeline.models import WordPieceModel
    >>> from bpe_core.pipeline.normalizers import BertNormalizer
    >>> pipeline_summary(PipelineTokenizer(model=WordPieceModel({"[UNK]": 0}), normalizer=BertNormalizer()))
    'tokenizer.json pipeline, vocab 1: normalizer BertNormalizer → model WordPiece'
    """
    stages = " → ".join(f"{s.place} {s.kind}" for s in tok.stages())
    return f"tokenizer.json pipeline, vocab {tok.vocab_size:,}: {stages}"


def piece_bpe_summary(tok: PieceBpeTokenizer) -> str:
    """What was loaded, in a few words.

    >>> piece_bpe_summary(PieceBpeTokenizer([("<unk>", 0.0), ("▁a", -1.0)]))
    'SentencePiece BPE, vocab 2, no byte fallback'
    """
    fallback = "byte fallback (<0x00>…<0xFF>)" if tok.byte_fallback else "no byte fallback"
    return f"SentencePiece BPE, vocab {tok.vocab_size:,}, {fallback}"


def piece_facts(d: PieceDetail, *, name: str, vocab_size: int, pieces: int = 0) -> pd.DataFrame:
    """The facts of ``d`` as (field, value) strings (``pieces``: how many normal pieces rank, for Unigram).

    >>> d = PieceDetail(7, "##s", "wordpiece", "continues a word", "s", 3, 4, False)
    >>> facts = piece_facts(d, name="WordPiece", vocab_size=30)
    >>> facts.set_index("field")["value"].to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'id': '7', 'piece': '##s', 'scheme': 'WordPiece', 'what it is': 'continues a word',
     'covers here': 's (characters 3–4)', 'vocab size': '30'}
    """
    rows = {
        "id": str(d.id),
        "piece": d.piece,
        "scheme": name,
        "what it is": d.role,
        ("lost here" if d.unknown else "covers here"): f"{marked(d.covers)} (characters {d.start}–{d.end})",
    }
    if d.score is not None:
        rows["score (log probability)"] = f"{d.score:.6g}"
    if d.rank is not None:
        rows["rank by score"] = f"{d.rank:,} of {pieces:,}" if pieces else f"{d.rank:,}"
    if d.kind is not None and d.kind != "normal":
        rows["piece type"] = d.kind
    rows["vocab size"] = f"{vocab_size:,}"
    return pd.DataFrame({"field": list(rows), "value": list(rows.values())})


def lost_summary(
    text_chars: int, *, unknown_chars: int, unknown_spans: int, spacing: int, changed: int
) -> str:
    """What the round trip loses, in one sentence (not escaped: numbers only).

    >>> lost_summary(20, unknown_chars=3, unknown_spans=1, spacing=2, changed=0)
    '3 of 20 characters became the unknown token (1 place); white space comes back otherwise at 2 places.'
    >>> lost_summary(5, unknown_chars=0, unknown_spans=0, spacing=0, changed=0)
    'Nothing is lost: decoding the tokens gives the text back exactly.'
    """
    parts = []
    if unknown_chars:
        places = f"{unknown_spans:,} place{'' if unknown_spans == 1 else 's'}"
        parts.append(f"{unknown_chars:,} of {text_chars:,} characters became the unknown token ({places})")
    if spacing:
        parts.append(f"white space comes back otherwise at {spacing:,} place{'' if spacing == 1 else 's'}")
    if changed:
        parts.append(f"normalization changed {changed:,} character{'' if changed == 1 else 's'}")
    if not parts:
        return "Nothing is lost: decoding the tokens gives the text back exactly."
    text = "; ".join(parts) + "."
    return text[0].upper() + text[1:]


def decode_pieces(tok: SchemeTokenizer, ids: list[int]) -> tuple[str, tuple[int, ...]]:
    """The text of the ids this tokenizer knows (as its decoder writes it), and the ids it does not.

    >>> from bpe_core.wordpiece import WordPieceTokenizer
    >>> decode_pieces(WordPieceTokenizer(["[UNK]", "hug", "##s"]), [1, 2, 9, 0])
    ('hugs [UNK]', (9,))
    """
    known = [i for i in ids if _has(tok, i)]
    unknown = tuple(dict.fromkeys(i for i in ids if not _has(tok, i)))
    return tok.decode(known), unknown


def _has(tok: SchemeTokenizer, token_id: int) -> bool:
    try:
        tok.piece(token_id)
    except ValueError:
        return False
    return True


def wordpiece_summary(tok: WordPieceTokenizer) -> str:
    """What was loaded, in a few words (not escaped: it names the file's special tokens)."""
    continuing = sum(1 for t in tok.vocab if t.startswith(tok.prefix))
    specials = " ".join(tok.special_tokens[:6]) + (" …" if len(tok.special_tokens) > 6 else "")
    shown = f", special tokens {specials}" if specials else ""
    return f"WordPiece, vocab {tok.vocab_size:,} ({continuing:,} continuation pieces {tok.prefix}){shown}"


def unigram_summary(tok: UnigramTokenizer) -> str:
    """What was loaded, in a few words.

    >>> unigram_summary(UnigramTokenizer([("<unk>", 0.0), ("▁a", -1.0)]))
    'Unigram, vocab 2, scores -1 to -1, no byte fallback'
    """
    normal = [s for s, k in zip(tok.scores, tok.kinds) if k == "normal"]
    scores = f", scores {min(normal):.4g} to {max(normal):.4g}" if normal else ""
    fallback = "byte fallback" if tok.byte_fallback else "no byte fallback"
    return f"Unigram, vocab {tok.vocab_size:,}{scores}, {fallback}"
