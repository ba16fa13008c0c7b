"""Pure parts of the Tokenize page: records, specs, URL state, ribbon, genealogy, file bundle."""

from __future__ import annotations

import doctest
import io
import zipfile
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import CharTokenizer, train
from bpe_core.byte_level import readable as screen_label
from bpe_core.formats.tiktoken_registry import ENCODINGS
from mergescope_ui.shared.inputs.tokenizer_files import load_uploaded
from mergescope_ui.tokenize import (
    chat,
    clickable_tokens,
    compare_tab,
    details,
    file_bundle,
    results,
    ribbon,
    share,
    specs,
)
from mergescope_ui.tokenize.chat import ChatMessage, render_chat
from mergescope_ui.tokenize.clickable_tokens import clickable_spans_html
from mergescope_ui.tokenize.details import children_map, descendant_count, genealogy, leaves, token_detail
from mergescope_ui.tokenize.file_bundle import tokenizer_bundle
from mergescope_ui.tokenize.results import compare_table, page_of, tokenize
from mergescope_ui.tokenize.ribbon import byte_ribbon_html, char_cells, ribbon_lines
from mergescope_ui.tokenize.share import MAX_SHARED_CHARS, ShareState, from_query, to_query
from mergescope_ui.tokenize.specs import (
    KINDS,
    BytesSpec,
    CharSpec,
    HfSpec,
    QuickSpec,
    SessionSpec,
    TextCharsSpec,
    TiktokenSpec,
    UploadSpec,
    parse,
)

CORPUS = (
    "The keeper lit the lamp. 机器学习是人工智能的一个分支。 naïve café 👨‍👩‍👧 "
    "def f(x):\n    return x  # done\n"
) * 3
TOK = train(CORPUS, vocab_size=400, pattern="gpt2", special_tokens=["<|eot|>"])
TEXTS = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)


@pytest.mark.parametrize(
    "module",
    [results, details, file_bundle, ribbon, share, specs, chat, clickable_tokens, compare_tab],
)
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


# --- records -------------------------------------------------------------------------


@given(TEXTS)
@settings(max_examples=60, deadline=None)
def test_counts_match_the_text_and_the_engine(text):
    r = tokenize(TOK, text, label="t")
    assert r.ok and list(r.ids) == TOK.encode(text)
    assert (r.counts.characters, r.counts.bytes, r.counts.tokens) == (
        len(text),
        len(text.encode()),
        len(TOK.encode(text)),
    )
    if text:
        assert r.counts.bytes_per_token == pytest.approx(len(text.encode()) / len(r.ids))


def test_char_baseline_error_is_a_result():
    r = tokenize(CharTokenizer("abc"), "abz", label="chars")
    assert not r.ok and "'z'" in r.error and r.counts.tokens is None and r.counts.bytes_per_token is None


@settings(deadline=None)  # size 1 over 30,000 tokens is 30,000 pages: slow on a busy machine, not wrong
@given(st.integers(0, 30_000), st.integers(-3, 10), st.integers(1, 7000))
def test_pages_cover_every_token_once(total, page, size):
    p = page_of(total, page=page, size=size)
    assert 1 <= p.number <= p.pages and 0 <= p.start <= p.stop <= total
    covered = sum(
        page_of(total, page=k, size=size).stop - page_of(total, page=k, size=size).start
        for k in range(1, p.pages + 1)
    )
    assert covered == total


def test_compare_table_one_row_per_tokenizer_in_order():
    text = "the keeper 机器"
    results = [
        tokenize(TOK, text, label="bpe"),
        tokenize(CharTokenizer(CORPUS), text, label="chars"),
        tokenize(CharTokenizer("abc"), text, label="tiny"),
    ]
    table = compare_table(results)
    assert table["tokenizer"].tolist() == ["bpe", "chars", "tiny"]
    assert table["tokens"].iloc[0] == len(TOK.encode(text)) and table["tokens"].iloc[1] == len(text)
    assert table["note"].iloc[2].startswith("character 't'") and table["tokens"].isna().iloc[2]


# --- specs and the URL -------------------------------------------------------------------


KIND_SPECS = {
    SessionSpec: st.builds(SessionSpec, step=st.one_of(st.none(), st.integers(0, 10_000))),
    QuickSpec: st.builds(
        QuickSpec,
        corpus=st.sampled_from(["lighthouse-story", "a_b.c"]),
        vocab_size=st.integers(256, 5000),
        pattern=st.sampled_from(["none", "gpt2", "gpt4", "o200k"]),
    ),
    CharSpec: st.builds(CharSpec, corpus=st.sampled_from(["mixed-scripts"])),
    BytesSpec: st.builds(BytesSpec, pattern=st.sampled_from(["none", "gpt2"])),
    UploadSpec: st.one_of(
        st.just(UploadSpec()),
        st.builds(UploadSpec, digest=st.text("0123456789abcdef", min_size=16, max_size=16)),
    ),
    TiktokenSpec: st.builds(TiktokenSpec, name=st.sampled_from(sorted(ENCODINGS))),
    HfSpec: st.builds(
        HfSpec, name=st.sampled_from(["openai-community/gpt2", "Qwen/Qwen2.5-0.5B", "gpt2", "a_b/c.d-e"])
    ),
    TextCharsSpec: st.just(TextCharsSpec()),
}
SPECS = st.one_of(*KIND_SPECS.values())


def test_every_kind_round_trips():
    # the round trip below draws every registered kind: a new kind joins KIND_SPECS
    assert set(KIND_SPECS) == set(KINDS.values())


@given(SPECS)
def test_spec_round_trips(spec):
    assert parse(spec.key()) == spec


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "quick",
        "quick:x:abc:gpt2",
        "quick:x:300:nope",
        "quick:../x:300:gpt2",
        "session:-1",
        "session:1:2",
        "char:",
        "teleport:1",
        "quick:x:255:gpt2",
        "tiktoken:cl200k_base",
        "hf:../../etc/passwd",
        "hf:",
        "upload:nothex",
    ],
)
def test_bad_specs_say_what_is_wrong(bad):
    with pytest.raises(ValueError, match=r"in '|kind|should read"):
        parse(bad)


@given(
    st.dictionaries(
        st.sampled_from(["t", "tok", "cmp", "page", "other"]),
        st.one_of(st.text(max_size=30), st.lists(st.text(max_size=10))),
    )
)
def test_from_query_never_raises(params):
    state, notes = from_query(params)
    assert isinstance(state, ShareState) and all(isinstance(n, str) for n in notes)
    assert len(state.compare) <= 4 and state.page >= 1


@given(TEXTS, SPECS, st.lists(SPECS, max_size=4, unique_by=lambda s: s.key()), st.integers(1, 99))
def test_share_state_round_trips(text, spec, compare, page):
    state = ShareState(text=text or None, spec=spec.key(), compare=tuple(s.key() for s in compare), page=page)
    assert from_query(to_query(state)) == (state, [])


def test_long_text_stays_out_of_the_link():
    state = ShareState(text="x" * (MAX_SHARED_CHARS + 1), spec="bytes:gpt2")
    assert "t" not in to_query(state)
    _, notes = from_query({"t": "x" * (MAX_SHARED_CHARS + 1)})
    assert notes and "over the" in notes[0]


# --- the byte ribbon ---------------------------------------------------------------------


class _Cells(HTMLParser):
    """Collects (class, text, title) of every ribbon cell and notes any script tag."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[list[str]] = []
        self.scripts = 0
        self._open: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            self.scripts += 1
        if tag == "div" and "grid-column" in (a.get("style") or ""):
            self._open = [a.get("class", ""), "", a.get("title") or ""]

    def handle_data(self, data):
        if self._open is not None:
            self._open[1] += data

    def handle_endtag(self, tag):
        if tag == "div" and self._open is not None:
            self.cells.append(self._open)
            self._open = None


@given(TEXTS)
@settings(max_examples=80, deadline=None)
def test_ribbon_marks_exactly_the_characters_a_token_boundary_cuts(text):
    ids = TOK.encode(text)
    data = text.encode()
    parser = _Cells()
    parser.feed(byte_ribbon_html(data, ids, TOK.vocab, max_bytes=10_000))
    # independently: token boundaries in byte offsets, characters by their byte ranges
    ends, pos = set(), 0
    for i in ids:
        pos += len(TOK.vocab[i])
        ends.add(pos)
    starts, pos = [], 0
    for ch in text:
        starts.append((pos, pos + len(ch.encode())))
        pos += len(ch.encode())
    expected_split = sum(any(b in ends for b in range(s + 1, e)) for s, e in starts)
    chars = [c for c in parser.cells if "ms-rc" in c[0]]
    assert len(chars) == len(text)
    assert sum("ms-split" in c[0] for c in chars) == expected_split
    assert [c[1] for c in parser.cells if "ms-rb" in c[0]] == [f"{b:02X}" for b in data]
    tokens = [c for c in parser.cells if "ms-rt" in c[0]]
    assert len([c for c in tokens if "ms-cont-l" not in c[0]]) == len(ids)  # one cell per token, or
    assert sum("ms-cont-r" in c[0] for c in tokens) == sum("ms-cont-l" in c[0] for c in tokens)  # pieces
    assert parser.scripts == 0


def test_ribbon_escapes_and_names_invisible_characters():
    text = '<script>alert("x")</script> & \u200d'
    parser = _Cells()
    html = byte_ribbon_html(text.encode(), TOK.encode(text), TOK.vocab)
    parser.feed(html)
    assert parser.scripts == 0 and "<script" not in html
    labels = [c[1] for c in parser.cells if "ms-rc" in c[0]]
    assert labels[:8] == ["<", "s", "c", "r", "i", "p", "t", ">"] and "U+200D" in labels


@given(TEXTS, st.integers(1, 30))
@settings(max_examples=80, deadline=None)
def test_ribbon_lines_break_where_a_token_and_a_character_end_and_stay_short(text, width):
    ids = TOK.encode(text)
    lines = ribbon_lines(text.encode(), [(i, TOK.vocab[i]) for i in ids], line_bytes=width)
    assert sum(line.n_bytes for line in lines) == len(text.encode())
    for line in lines:
        assert sum(c.width for c in line.chars) == line.n_bytes == sum(c.width for c in line.tokens)
        if line.n_bytes > width:  # only when no place to break exists inside the line
            token_ends = {c.first + c.width - 1 for c in line.tokens}
            char_ends = {c.first + c.width - 1 for c in line.chars}
            inside = (token_ends & char_ends) - {line.n_bytes}
            assert not inside or min(inside) > width, (text, width)


def test_a_token_longer_than_a_line_breaks_after_a_character_and_says_it_goes_on():
    zh = "机器学习是人工智能的一个分支"  # 14 characters, 42 bytes
    tok = train(zh * 30 + " ok", vocab_size=300, pattern="gpt2")  # learns the whole sentence
    ids = tok.encode(zh + " ok")
    longest = max(len(tok.vocab[i]) for i in ids)
    assert longest > 24, "the test needs a token longer than a line"
    lines = ribbon_lines((zh + " ok").encode(), [(i, tok.vocab[i]) for i in ids], line_bytes=24)
    assert all(line.n_bytes <= 24 for line in lines)
    pieces = [c for line in lines for c in line.tokens]
    assert any("ms-cont-r" in c.classes for c in pieces) and any("ms-cont-l" in c.classes for c in pieces)
    assert all(c.width % 3 == 0 for c in pieces if "ms-cont" in c.classes)  # cut after a whole character
    assert "".join(c.label for c in pieces if "ms-c" in c.classes).startswith(zh[:8])
    assert all("goes on in the next line" in c.title for c in pieces if "ms-cont-r" in c.classes)


def test_ribbon_escapes_whole_tags_inside_one_token():
    tok = train('<script>x</script> & "q" ' * 40, vocab_size=300, pattern="none")
    text = '<script>x</script> & "q" '
    ids = tok.encode(text)
    assert any(tok.vocab[i].startswith(b"<script") for i in ids)  # a token holds a whole tag
    parser = _Cells()
    parser.feed(byte_ribbon_html(text.encode(), ids, tok.vocab))
    assert parser.scripts == 0
    labels: list[str] = []  # a token longer than a line is drawn in pieces: join them
    for css, label, _ in (c for c in parser.cells if "ms-rt" in c[0]):
        if "ms-cont-l" in css:
            labels[-1] += label
        else:
            labels.append(label)
    assert labels == [screen_label(tok.vocab[i]) for i in ids]
    assert all(c[2].startswith("id ") for c in parser.cells if "ms-rt" in c[0])


def test_ribbon_lines_of_a_long_cjk_text():
    text = "机器学习是人工智能的一个分支 " * 6
    lines = ribbon_lines(text.encode(), [(i, TOK.vocab[i]) for i in TOK.encode(text)], line_bytes=12)
    assert len(lines) > 6


def test_ribbon_caps_bytes_with_a_notice():
    text = "the keeper " * 200
    html = byte_ribbon_html(text.encode(), TOK.encode(text), TOK.vocab, max_bytes=100)
    assert "more tokens not in the ribbon" in html and html.count("ms-rb") <= 101


def test_char_cells():
    assert char_cells("a😀".encode()) == [(0, 1), (1, 5)]


# --- details -----------------------------------------------------------------------------


def test_genealogy_of_every_token_goes_down_to_its_bytes():
    for token_id, token in TOK.vocab.items():
        node = genealogy(TOK, token_id)
        assert b"".join(leaves(node)) == token
        if TOK.merge_step_of(token_id):
            a, b = TOK.merges[TOK.merge_step_of(token_id) - 1]
            assert (node.parts[0].id, node.parts[1].id) == (a, b)


def test_later_tokens_contain_the_token():
    kids = children_map(TOK)
    for token_id in list(TOK.vocab)[:400]:
        for child in kids.get(token_id, []):
            assert TOK.vocab[token_id] in TOK.vocab[child]
            assert TOK.merge_step_of(child) > (TOK.merge_step_of(token_id) or 0)
    byte_e = TOK.id_of(b"e")
    assert descendant_count(kids, byte_e) >= len(kids.get(byte_e, [])) > 0


def test_token_detail_reads_the_count_of_its_merge():
    counts = list(range(100, 100 + len(TOK.merges)))
    last = TOK.merge_ids[-1]
    d = token_detail(TOK, last, counts=counts)
    assert d.step == len(TOK.merges) and d.count == counts[-1] and d.children == ()
    special = token_detail(TOK, TOK.special_tokens["<|eot|>"])
    assert special.special and special.step is None and special.readable == "<|eot|>"
    with pytest.raises(ValueError, match="not in this tokenizer's vocab"):
        token_detail(TOK, 10**6)


# --- files -------------------------------------------------------------------------------


def test_bundle_zip_holds_every_format_and_each_loads_back():
    bundle = tokenizer_bundle(TOK)
    with zipfile.ZipFile(io.BytesIO(bundle.zip_bytes())) as z:
        names = set(z.namelist())
        assert {"vocab.json", "merges.txt", "tokenizer.json", "tokenizer.tiktoken", "vocab.txt"} <= names
        files = {n: z.read(n) for n in names}
    assert bundle.zip_bytes() == tokenizer_bundle(TOK).zip_bytes()  # deterministic
    text = "The keeper 机器学习 café<|eot|> 👨‍👩‍👧"
    want = TOK.encode(text)
    assert load_uploaded([("tokenizer.json", files["tokenizer.json"])]).encode(text) == want
    pair = [
        ("vocab.json", files["vocab.json"]),
        ("merges.txt", files["merges.txt"]),
        ("special_tokens_map.json", files["special_tokens_map.json"]),
    ]
    assert load_uploaded(pair).encode(text) == want
    if "tokenizer.model" in files:
        assert load_uploaded([("tokenizer.model", files["tokenizer.model"])]).encode(text) == want
    ordinary = "The keeper 机器学习 café"
    assert load_uploaded([("t.tiktoken", files["tokenizer.tiktoken"])], pattern="gpt2").encode(
        ordinary
    ) == TOK.encode(ordinary)


# --- clickable spans -----------------------------------------------------------------------


class _Numbered(HTMLParser):
    """(data-i, text) of every token span, and any tag or attribute that should never appear."""

    def __init__(self) -> None:
        super().__init__()
        self.spans: list[list] = []
        self.bad: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in {"script", "iframe", "img", "a"} or any(k.startswith("on") for k in a):
            self.bad.append(tag)
        if tag == "span" and "data-i" in a:
            self.spans.append([int(a["data-i"]), ""])
            self._depth = 1

    def handle_data(self, data):
        if self._depth:
            self.spans[-1][1] += data

    def handle_endtag(self, tag):
        if tag == "span":
            self._depth = 0


@given(TEXTS, st.integers(0, 50_000))
@settings(max_examples=60, deadline=None)
def test_clickable_spans_number_every_token_and_escape_it(text, start):
    text = text + '<img src=x onerror=alert(1)> "q" &amp;'
    ids = TOK.encode(text)
    parser = _Numbered()
    parser.feed(clickable_spans_html(ids, TOK.vocab, start=start, special_ids=TOK.special_tokens.values()))
    assert not parser.bad
    assert [i for i, _ in parser.spans] == list(range(start, start + len(ids)))
    assert [t for _, t in parser.spans] == [
        TOK.vocab[i].decode() if i in TOK.special_tokens.values() else screen_label(TOK.vocab[i]) for i in ids
    ]


# --- the chat ------------------------------------------------------------------------------

MESSAGES = [
    ChatMessage("system", "Be brief."),
    ChatMessage("user", "Hi <|im_end|>?"),
    ChatMessage("assistant", "Hello."),
]


@pytest.mark.parametrize(
    ("specials", "form", "starts"),
    [
        (
            ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|im_sep|>"],
            "ChatML",
            "<|im_start|>system<|im_sep|>Be",
        ),
        (["<|im_start|>", "<|im_end|>"], "ChatML", "<|im_start|>system\nBe"),
        (
            ["<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"],
            "Llama 3",
            "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe",
        ),
        (["<|system|>", "<|user|>", "<|assistant|>", "<|end|>"], "role tokens", "<|system|>\nBe"),
        (["<|pad|>", "<|endoftext|>"], "its own special token", "system: Be brief.<|endoftext|>"),
        ([], "plain text", "system: Be brief.\n"),
    ],
)
def test_each_chat_form(specials, form, starts):
    rendered = render_chat(MESSAGES, specials)
    assert rendered.form == form and rendered.text.startswith(starts)
    for m in MESSAGES:
        assert m.content in rendered.text
    assert rendered.text.rstrip("\n").endswith(
        ("assistant<|im_sep|>", "assistant", "assistant<|end_header_id|>", "<|assistant|>", "assistant:")
    )


def test_chatml_tokens_are_one_token_each_with_a_tokenizer_that_has_them():
    tok = train(CORPUS, vocab_size=300, special_tokens=["<|im_start|>", "<|im_end|>", "<|im_sep|>"])
    rendered = render_chat(MESSAGES, tok.special_tokens)
    ids = tok.encode(rendered.text)
    start, end = tok.special_tokens["<|im_start|>"], tok.special_tokens["<|im_end|>"]
    assert ids.count(start) == len(MESSAGES) + 1  # and the assistant's turn to come
    assert ids.count(end) == len(MESSAGES) + 1  # one typed inside a message counts too
    assert tok.decode(ids) == rendered.text


def test_a_superscript_digit_is_not_a_page_or_a_step():
    state, notes = from_query({"page": "²", "tok": "session:²"})
    assert state.page == 1 and len(notes) == 2


def test_two_kinds_cannot_share_a_prefix():
    with pytest.raises(ValueError, match="two tokenizer kinds use the prefix 'bytes'; give one another"):

        class Twin(BytesSpec):
            prefix = "bytes"
