"""The browser's encoder (``mergescope_ui/tokenize/live_assets/encoder.js``) against the server's engine.

The JavaScript runs in chromium (no Streamlit server): the same ids as ``Tokenizer.encode`` (and
``encode_ordinary`` with special tokens off) for thousands of random texts (emoji and ZWJ sequences,
CJK, whitespace runs, CRLF, every kind of Unicode space, case-folding letters, special tokens,
random code points from the whole range), on tokenizers trained here with every named pattern, on
the real GPT-2 files and on cl100k_base when they are on this machine (those two skip otherwise).
The spans it draws are the spans Python draws (classes, tooltip, label, line breaks), with
whitespace marks on and off.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from bpe_core import Tokenizer, train
from bpe_core.formats.gpt2 import read_gpt2
from bpe_core.formats.tiktoken import read_tiktoken
from mergescope_ui.shared.stage.contract import wire
from mergescope_ui.tokenize.clickable_tokens import clickable_spans_html
from mergescope_ui.tokenize.encoder_table import encoder_table
from tests.browser.support import ROOT, chromium_page

ENCODER_JS = ROOT / "mergescope_ui" / "tokenize" / "live_assets" / "encoder.js"
REFERENCE = ROOT.parent / "shared" / "reference"  # beside the repo (read-only; its tests skip without it)
SPECIALS = ["<|endoftext|>", "<|a|>", "<|a|>b"]
TEXTS = 800  # random texts per tokenizer (twice: special tokens on and off)

PIECES = [
    "the",
    " the",
    "The",
    " lighthouse",
    "keeper",
    "HELLO",
    "ſ",
    "K",
    "İ",
    "ǅ",
    "Ǆungla",
    "ПРИВЕТ",
    "привет",
    "it's",
    "IT'S",
    "we'll",
    "they'RE",
    "I'm",
    "'d",
    "'Ve",
    "'",
    "''",
    "2024",
    "1,234,567",
    "3.14159",
    "١٢٣",
    "Ⅻ",
    "½",
    "!!",
    "...",
    "?!",
    "$",
    "/",
    "//",
    "<",
    ">",
    "&",
    '"',
    "(",
    ")",
    "[",
    "]",
    " ",
    "  ",
    "   ",
    "\t",
    "\t\t",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    " \n",
    "\n ",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x85",
    "\xa0",
    "\u2009",
    "\u3000",
    "\ufeff",
    "\u200b",
    "\u2028",
    "\u2029",
    "机器学习",
    "人工智能",
    "日本語",
    "한국어",
    "ไทย",
    "العربية",
    "हिन्दी",
    "é",
    "e\u0301",
    "ﬁ",
    "👋",
    "👋🏽",
    "👨‍👩‍👧‍👦",
    "🇯🇵",
    "❤️",
    "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
    "\x00",
    "\x7f",
    "\u034f",
    "\ufe0f",
    "\U000e0101",
    *SPECIALS,
    "<|endoftext",
    "<|a|",
    "|>",
]


def random_text(rng: random.Random) -> str:
    """A text of random pieces, random code points and whitespace runs (never a lone surrogate)."""
    out: list[str] = []
    for _ in range(rng.randint(0, 40)):
        roll = rng.random()
        if roll < 0.7:
            out.append(rng.choice(PIECES))
        elif roll < 0.8:
            out.append(rng.choice(" \t\n\r\u3000\xa0") * rng.randint(1, 12))
        elif roll < 0.9:
            cp = rng.randint(0, 0x10FFFF)
            out.append(chr(cp) if not 0xD800 <= cp <= 0xDFFF else "x")
        else:
            cp = rng.choice([rng.randint(0x20, 0x7E), rng.randint(0xA0, 0x2FFF), rng.randint(0x4E00, 0x9FFF)])
            out.append(chr(cp) * rng.randint(1, 30))
    return "".join(out)


def texts(seed: int, n: int = TEXTS) -> list[str]:
    rng = random.Random(seed)
    fixed = [
        "",
        " ",
        "a" * 300,
        " " * 300,
        "机" * 200,
        "\r\n" * 40,
        "x\n\n\ny  \n z",
        "<|a|>b<|a|><|endoftext|>",
    ]
    return fixed + [random_text(rng) for _ in range(n)]


_RNG = random.Random(99)
CORPUS = "".join(_RNG.choice(PIECES) for _ in range(20_000)) + " ".join(random_text(_RNG) for _ in range(100))


@pytest.fixture(scope="module")
def page() -> Iterator[object]:
    with chromium_page(width=800, height=600) as pg:
        pg.set_content("<!doctype html><html><body></body></html>")
        pg.add_script_tag(content=ENCODER_JS.read_text(encoding="utf-8"))
        yield pg


def browser_ids(page, tok: Tokenizer, batch: list[str], *, specials: bool) -> list[list[int]]:
    table = encoder_table(tok, key=f"test-{id(tok)}")
    assert table is not None, "the browser encodes this tokenizer"
    return page.evaluate(
        """([table, texts, specials]) => {
            const enc = globalThis.msEncoder.get(table.key, table);
            return texts.map((t) => enc.encode(t, specials));
        }""",
        [wire(table), batch, specials],
    )


def check_same_ids(page, tok: Tokenizer, batch: list[str]) -> None:
    for specials in (True, False):
        got = browser_ids(page, tok, batch, specials=specials)
        for text, ids in zip(batch, got, strict=True):
            want = tok.encode(text) if specials else tok.encode_ordinary(text)
            assert ids == want, f"specials={specials} text={text!r}"


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4", "o200k", "whitespace", "none"])
def test_the_browser_gives_the_servers_ids_on_a_tokenizer_trained_here(page, pattern: str) -> None:
    tok = train(CORPUS, vocab_size=700, pattern=pattern, special_tokens=SPECIALS)
    assert len(tok.merges) > 300
    check_same_ids(page, tok, texts(seed=len(pattern)))


def test_the_browser_gives_the_servers_ids_on_the_real_gpt2_files(page) -> None:
    folder = REFERENCE / "cs336"
    if not (folder / "gpt2_vocab.json").exists():
        pytest.skip("the real GPT-2 files are not on this machine")
    data = read_gpt2(folder / "gpt2_vocab.json", folder / "gpt2_merges.txt")
    tok = Tokenizer(data.vocab, data.merges, special_tokens={"<|endoftext|>": 50256}, pattern="gpt2")
    batch = texts(seed=2) + [(REFERENCE / "tinyshakespeare.txt").read_text(encoding="utf-8")[:10_000]]
    check_same_ids(page, tok, batch)


def test_the_browser_gives_the_servers_ids_on_cl100k(page) -> None:
    path = REFERENCE / "cl100k_base.tiktoken"
    if not path.exists():
        pytest.skip("cl100k_base.tiktoken is not on this machine")
    data = read_tiktoken(path, special_tokens={"<|endoftext|>": 100257, "<|fim_prefix|>": 100258})
    tok = Tokenizer(data.vocab, data.merges, special_tokens=data.special_tokens, pattern="gpt4")
    check_same_ids(page, tok, texts(seed=3, n=400))


def test_the_browser_draws_the_spans_python_draws(page) -> None:
    tok = train(CORPUS, vocab_size=600, pattern="gpt4", special_tokens=SPECIALS)
    table = encoder_table(tok, key="spans")
    assert table is not None
    batch = texts(seed=5, n=300)
    for marks in (True, False):
        want = [
            clickable_spans_html(
                tok.encode(t), tok.vocab, special_ids=tok.special_tokens.values(), marks=marks, max_tokens=50
            )
            for t in batch
        ]
        bad = page.evaluate(
            """([table, texts, want, marks]) => {
                const enc = globalThis.msEncoder.get(table.key, table);
                // HTML parsing turns CR LF and a lone CR into LF (the server's spans arrive as HTML).
                const shape = (root) => Array.from(root.querySelectorAll("span, br"), (e) =>
                    [e.tagName, e.getAttribute("data-i"), e.className, e.title,
                     e.textContent.replace(/\\r\\n?/g, "\\n")]);
                const bad = [];
                texts.forEach((t, k) => {
                    const mine = enc.spans(enc.encode(t, true), marks, 50);
                    const theirs = document.createElement("template");
                    theirs.innerHTML = want[k];
                    const a = shape(mine), b = shape(theirs.content);
                    const at = a.findIndex((x, i) => JSON.stringify(x) !== JSON.stringify(b[i]));
                    if (at >= 0 || a.length !== b.length) bad.push([t, at, a[at], b[at]]);
                });
                return bad.slice(0, 3);
            }""",
            [wire(table), batch, want, marks],
        )
        assert bad == [], json.dumps(bad, ensure_ascii=False)[:3000]


def test_the_drift_check_would_see_a_wrong_id(page) -> None:
    """The comparison can fail: a table with one merge's id changed gives other ids."""
    tok = train(CORPUS, vocab_size=400, pattern="gpt2")
    table = encoder_table(tok, key="broken")
    assert table is not None
    ids = list(table.merge_ids)
    ids[0] = ids[1]
    broken = wire(table) | {"merge_ids": ids}
    got = page.evaluate(
        "([t, s]) => globalThis.msEncoder.get(t.key, t).encode(s, true)", [broken, CORPUS[:2000]]
    )
    assert got != tok.encode(CORPUS[:2000])


def test_a_patched_view_is_the_view_drawn_afresh(page) -> None:
    """Typing changes a few lines of the view in place; after each edit it is what a fresh draw gives."""
    tok = train(CORPUS, vocab_size=500, pattern="gpt2", special_tokens=SPECIALS)
    table = encoder_table(tok, key="patch")
    assert table is not None
    rng = random.Random(7)
    text = "\n".join(random_text(rng) for _ in range(30))
    edits: list[str] = []
    for _ in range(150):
        at = rng.randint(0, len(text))
        roll = rng.random()
        if roll < 0.5:
            text = text[:at] + rng.choice(PIECES) + text[at:]
        elif roll < 0.9:
            text = text[:at] + text[at + rng.randint(1, 5) :]
        else:
            text = random_text(rng)
        edits.append(text)
    bad = page.evaluate(
        """([table, edits]) => {
            const enc = globalThis.msEncoder.get(table.key, table);
            const shape = (root) => JSON.stringify(Array.from(root.querySelectorAll("span, br"), (e) =>
                [e.tagName, e.getAttribute("data-i"), e.className, e.title, e.textContent]));
            const box = enc.spans([], true, 5000);
            document.body.appendChild(box);
            const bad = [];
            edits.forEach((t, k) => {
                const marks = k % 40 < 30, specials = k % 25 < 20;
                const ids = enc.encode(t, specials);
                enc.patch(box, ids, marks, 300);
                if (shape(box) !== shape(enc.spans(ids, marks, 300))) bad.push([k, t]);
            });
            box.remove();
            return bad.slice(0, 3);
        }""",
        [wire(table), edits],
    )
    assert bad == []
