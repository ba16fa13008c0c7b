"""What a notebook shows of the engine's records (``_repr_html_``): static HTML, inline styles, escaped.

A notebook viewer (GitHub's, VS Code's) drops scripts and ``<style>`` blocks: the HTML must hold neither,
and no string of a text or a token may become markup.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from bpe_core import CharTokenizer, Trainer, TrainOptions, train_unigram, train_wordpiece
from bpe_core.tokenizer import TokenSpans
from bpe_core.tokenizer.notebook_html import MAX_MERGES, MAX_TOKENS, tokens_html

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "</script><img src=x onerror=alert(1)> <style>*{}</style>"
SAFE_TAGS = {"div", "span", "b", "i", "br", "table", "caption", "thead", "tbody", "tr", "th", "td"}


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text += data


def _parse(markup: str) -> Tags:
    tags = Tags()
    tags.feed(markup)
    return tags


def _static(markup: str) -> Tags:
    """The HTML holds only plain tags, with no attribute but a tooltip and an inline style."""
    tags = _parse(markup)
    assert {t for t, _ in tags.tags} <= SAFE_TAGS, {t for t, _ in tags.tags}
    assert all(set(a) <= {"title", "style"} for _, a in tags.tags)
    return tags


def test_a_hostile_text_stays_text_in_every_scheme() -> None:
    text = f"{HOSTILE} {HOSTILE} plain words"
    trainer = Trainer(text, TrainOptions(vocab_size=300, pattern="none")).run()
    tokenizers = [
        trainer.tokenizer(),
        train_wordpiece(text, vocab_size=80),
        train_unigram(text, vocab_size=40),
        CharTokenizer(text),
    ]
    for tok in tokenizers:
        spans = tok.token_spans(text)
        assert isinstance(spans, TokenSpans) and isinstance(spans, list)
        tags = _static(spans._repr_html_())
        assert len([t for t, _ in tags.tags if t == "span"]) == len(spans), type(tok).__name__
        assert "onerror=alert(1)>" in tags.text.replace("␣", " "), "the text is there, as text"


def test_a_step_is_a_card_with_its_figures() -> None:
    trainer = Trainer("low low low lower <b>", TrainOptions(vocab_size=262, pattern="none"))
    steps = list(trainer)
    step = steps[0]
    tags = _static(step._repr_html_())
    assert f"Merge {step.index}" in tags.text and f"new token id {step.new_id}" in tags.text
    assert f"{step.count:,} counted · {step.replaced:,} replaced" in tags.text
    assert f"tokens {step.tokens_before:,} → {step.tokens_after:,}" in tags.text
    table = _static(trainer._repr_html_())
    rows = [t for t, _ in table.tags if t == "tr"]
    assert len(rows) == len(steps) + 1 and trainer.stop_reason in table.text


def test_a_long_text_or_run_is_cut_and_says_so() -> None:
    markup = tokens_html((i % 256, bytes([i % 256])) for i in range(MAX_TOKENS + 5))
    assert markup.count("<span") == MAX_TOKENS and "5 more tokens" in markup
    story = (ROOT / "corpora" / "lighthouse_story.txt").read_text(encoding="utf-8")
    trainer = Trainer(story, TrainOptions(vocab_size=256 + MAX_MERGES + 20, pattern="none")).run()
    table = _static(trainer._repr_html_())
    assert len([t for t, _ in table.tags if t == "tr"]) == MAX_MERGES + 1
    assert f"the latest {MAX_MERGES} of {len(trainer.merges)} merges" in table.text


@pytest.mark.parametrize("token", [b"\n", b"\t", b" ", b"\xe4\xbd"])
def test_invisible_and_partial_tokens_show(token: bytes) -> None:
    text = _static(tokens_html([(7, token)])).text
    assert text.split("tokens ", 1)[1].strip() in {"↵", "⇥", "␣", "\\xe4\\xbd"}
