"""Token names in words for screen readers: ␣ ↵ ⇥ are said "space", "newline", "tab" in the stage's
Before/After labels and in the merge card, while the glyphs stay on screen."""

from __future__ import annotations

import html
import re

import bpe_core
from bpe_core.byte_level import readable, spoken
from mergescope_ui.shared.html.tokens import stage_label
from mergescope_ui.train.cards import merge_card_html
from mergescope_ui.train.scheme_run import SchemeSettings, start_scheme_run
from mergescope_ui.train.unigram_stage import UnigramViews


def test_spoken_names_every_white_space_marker_in_words() -> None:
    label = readable(b" a\tb\n\r")
    assert label == "␣a⇥b↵↤"
    assert spoken(label) == "space a tab b newline carriage return"
    assert spoken("lower") == "lower"


def test_stage_labels_carry_their_words_and_keep_their_glyphs() -> None:
    space, _ = stage_label(32, b" ", special=False)
    assert (space.text, space.spoken) == ("␣", "space")
    word, _ = stage_label(300, b"low\n", special=False)
    assert (word.text, word.spoken) == ("low↵", "low newline")
    plain, _ = stage_label(104, b"h", special=False)
    assert plain.spoken == ""  # read as it is shown
    special, _ = stage_label(50_000, b"<|endoftext|>", special=True)
    assert special.spoken == ""


def test_scheme_labels_carry_their_words() -> None:
    text = "ab\nab\ncd\n" * 4
    run = start_scheme_run(text, SchemeSettings(scheme="unigram", vocab_size=8))
    views = UnigramViews(run, text)
    newline = next(i for i in range(1, len(views.pieces) + 1) if "\n" in views.piece(i))
    label, _ = views.label(newline)
    assert "↵" in label.text and label.spoken == spoken(label.text) and "newline" in label.spoken


def test_the_merge_card_names_its_tokens_in_words() -> None:
    steps = list(bpe_core.train_steps("the cat the hat the mat " * 3, vocab_size=256 + 6, pattern="none"))
    step = next(s for s in steps if b" " in s.token)
    card = merge_card_html(step)
    tokens = card.split('<div class="ms-tokens', 1)[1].split("</div>", 1)[0]
    heard = [html.unescape(w) for w in re.findall(r'<span class="ms-sr">([^<]*)</span>', tokens)]
    assert spoken(readable(step.token)) in heard and all("␣" not in w for w in heard)
    hidden = [html.unescape(g) for g in re.findall(r'<span aria-hidden="true">([^<]*)</span>', tokens)]
    assert readable(step.token) in hidden  # the glyphs stay, out of the screen reader's way
