"""The Tokenize page with WordPiece and Unigram tokenizers (issue 25), headless (streamlit AppTest).

Each kind of file (BERT's ``vocab.txt``, a WordPiece or Unigram ``tokenizer.json``, a SentencePiece
``.model``) is built in the test (:mod:`tests.ui.tokenize.scheme_files`), uploaded, and checked
against the engine reading the same bytes: the pieces shown, the counts, the unknown tokens, the round
trip, one token's details, ids back to text, Compare beside byte-level BPE, and a Hugging Face model
fetched by name from a local server.  The vocabularies hold hostile pieces (markup, Markdown links,
an RTL override): nothing of them may reach the page unescaped.
"""

from __future__ import annotations

import html

import pytest
from streamlit.testing.v1 import AppTest

from bpe_core.tokenizer.scheme import lost
from mergescope_ui.shared.inputs.tokenizer_files import load_uploaded_any
from mergescope_ui.tokenize import keys
from mergescope_ui.tokenize.main_view import DETAILS_TAB, PickedToken
from mergescope_ui.tokenize.piece_html import marked
from mergescope_ui.tokenize.resolve import local_tokenizers
from mergescope_ui.tokenize.results import round_trip, what_is_lost
from mergescope_ui.tokenize.results import tokenize as tokenize_result
from tests.file_server import file_server, serve_hub_tokenizer
from tests.ui.test_markup import markdown_strings
from tests.ui.tokenize import scheme_files as sf
from tests.ui.tokenize.fake_caches import no_caches
from tests.ui.tokenize.test_page import (
    COMPARE_TAB,
    Cells,
    app,
    component_data,
    main_html,
    main_spans,
    spans_of,
    tokens_metric,
)

IDS_TAB = "🔢 Token ids"


def metric(at: AppTest, name: str) -> str:
    """The value of the metric labelled ``name`` (the first one)."""
    return next(m.value for m in at.metric if m.label == name)


RIBBON_TAB = "🧬 Byte ribbon"
FILES_TAB = "💾 Files"


def _files() -> dict[str, tuple[str, bytes]]:
    return {
        "bert-vocab": ("vocab.txt", sf.bert_vocab()),
        "wordpiece-json": ("tokenizer.json", sf.wordpiece_json()),
        "unigram-json": ("tokenizer.json", sf.unigram_json()),
        "sentencepiece": ("tiny.model", sf.sentencepiece_model()),
    }


KINDS = ["bert-vocab", "wordpiece-json", "unigram-json", "sentencepiece"]


@pytest.fixture(scope="module")
def files() -> dict[str, tuple[str, bytes]]:
    return _files()


def uploaded(name: str, data: bytes, text: str = sf.TEXT) -> AppTest:
    at = app(**{keys.TEXT: text, keys.KIND: "upload"}).run()
    at.file_uploader(key=keys.FILES).set_value((name, data, "application/octet-stream")).run()
    assert not at.exception
    return at


def open_tab(at: AppTest, tab: str) -> AppTest:
    at.session_state[keys.TABS] = tab
    return at.run()


def no_markup(page: str) -> None:
    """No hostile piece of the vocabularies or the text reaches the HTML ``page`` as markup (``st.html``
    renders no Markdown: a ``[x](http...)`` there is text)."""
    assert not spans_of(page).bad
    for raw in ("<script>", "<b>", "<i"):
        assert raw not in page, raw


def no_live_markdown(at: AppTest) -> None:
    """No hostile piece reaches an element that renders Markdown as a live link or image."""
    live = [m for m in markdown_strings(at) if "](http" in m or "![" in m]
    assert not live, live


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_file_shows_its_pieces_as_the_engine_cuts_them(files, kind):
    name, data = files[kind]
    tok = load_uploaded_any([(name, data)])
    at = uploaded(name, data)
    (success,) = [s.value for s in at.success]
    assert ("WordPiece" if tok.scheme == "wordpiece" else "Unigram") in success
    ids = tok.encode(sf.TEXT)
    spans = main_spans(at)
    assert tokens_metric(at) == len(ids) and len(spans.texts) == len(ids)
    unknown = tok.unk_id
    # each span: the piece as the vocabulary writes it (## and ▁ visible), its id in the tooltip
    assert spans.texts == [marked(tok.piece(i)) for i in ids]
    assert [t.split(" ·")[0] for t in spans.titles] == [f"id {i}" for i in ids]
    assert metric(at, "Unknown tokens") == str(ids.count(unknown)) and ids.count(unknown) >= 1
    # the unknown token says what it swallowed; the others what they cover
    covered = [sf.TEXT[s.start : s.end] for s in tok.token_spans(sf.TEXT)]
    for i, title, text in zip(ids, spans.titles, covered):
        assert (f"stands for “{marked(text)}”" if i == unknown else f"“{marked(text)}”") in title
    (drawn,) = component_data(at, "mergescope_clickable_tokens")  # the counts drawn with the tokens
    assert (drawn["bytes"], drawn["tokens"]) == (len(sf.TEXT.encode()), len(ids))
    no_markup(main_html(at))
    no_markup(" ".join(h.value for h in at.html))
    # the RTL override (a piece of every vocabulary here, or lost as unknown) is named, never raw
    assert sf.RTL not in main_html(at) and "⟨U+202E⟩" in main_html(at)
    assert not any(sf.RTL in h.value for h in at.html)
    for tab in (DETAILS_TAB, IDS_TAB, COMPARE_TAB):
        no_live_markdown(open_tab(at, tab))


@pytest.mark.parametrize("kind", ["bert-vocab", "unigram-json"])
def test_the_round_trip_shows_the_decoded_text_and_what_it_lost(files, kind):
    name, data = files[kind]
    tok = load_uploaded_any([(name, data)])
    at = uploaded(name, data)
    loss = lost(tok, sf.TEXT)
    assert not loss.round_trip and loss.unknown
    (expander,) = [e for e in at.expander if e.label.startswith("Decoded back")]
    assert expander.label.startswith("Decoded back: lossy")
    assert [c.value for c in expander.code] == [loss.decoded]
    summary = " ".join(c.value for c in expander.caption)
    assert f"{loss.unknown_chars} of {len(sf.TEXT)} characters became the unknown token" in summary
    marked_lost = " ".join(h.value for h in expander.get("html"))
    gone = [html.escape(sf.TEXT[a:b]) for a, b in loss.unknown]
    assert all(f'title="lost: became the unknown token">{g}</span>' in marked_lost for g in gone), gone
    no_markup(marked_lost)


def test_an_exact_round_trip_says_so():
    tok = sf.unigram()
    at = uploaded("tokenizer.json", sf.unigram_json(), text="hugs pugs")
    assert lost(tok, "hugs pugs").round_trip
    (expander,) = [e for e in at.expander if e.label.startswith("Decoded back")]
    assert expander.label == "Decoded back: exact (Unigram)"
    assert "Nothing is lost" in " ".join(c.value for c in expander.caption)


def _details(at: AppTest, position: int) -> tuple[dict[str, str], str]:
    """The details tab on the token at ``position``: its facts, and the whole tab's HTML."""
    signature = next(iter(component_data(at, "mergescope_clickable_tokens")))["sig"].rsplit("|", 2)[0]
    at.session_state[keys.PICKED] = PickedToken(signature, position)
    at.session_state[keys.TABS] = DETAILS_TAB
    at.run()
    assert not at.exception
    panel = next(h.value for h in at.html if "ms-facts" in h.value)
    cells = Cells()
    cells.feed(panel)
    return dict(zip(cells.cells[::2], cells.cells[1::2])), " ".join(h.value for h in at.html)


def test_wordpiece_details_show_the_continuation_and_what_unk_lost(files):
    name, data = files["bert-vocab"]
    tok = load_uploaded_any([(name, data)])
    at = uploaded(name, data)
    ids = tok.encode(sf.TEXT)
    s = ids.index(tok.vocab["##s"])
    facts, _ = _details(at, s)
    assert facts["piece"] == "##s" and facts["what it is"].startswith("continues a word (##")
    assert facts["covers here"] == "s (characters 3–4)" and facts["scheme"] == "WordPiece"
    assert at.selectbox(key=keys.PIECE_DETAIL).value == s
    unk = ids.index(tok.unk_id)
    facts, page = _details(at, unk)
    (start, end), *_ = [(c.start, c.end) for c in tok.token_spans(sf.TEXT) if c.id == tok.unk_id]
    assert (
        facts["piece"] == "[UNK]" and facts["lost here"] == f"{sf.TEXT[start:end]} (characters {start}–{end})"
    )
    assert "Lost here" in " ".join(m.value for m in at.markdown)
    no_markup(page)


def test_unigram_details_show_the_score_its_rank_and_the_word_start(files):
    name, data = files["unigram-json"]
    tok = sf.unigram()
    at = uploaded(name, data)
    ids = tok.encode(sf.TEXT)
    position = ids.index(tok.pieces.index("▁pug"))
    facts, page = _details(at, position)
    assert facts["piece"] == "▁pug" and facts["score (log probability)"] == "-2.5"
    normal = sorted((s for s, k in zip(tok.scores, tok.kinds) if k == "normal"), reverse=True)
    assert facts["rank by score"] == f"{normal.index(-2.5) + 1} of {len(normal)}"
    assert facts["what it is"].startswith("starts a word (▁ stands for the space")
    # the hostile piece the text holds is shown escaped in the details as well
    hostile = ids.index(tok.pieces.index("[x](http://evil.example)"))
    facts, page = _details(at, hostile)
    assert facts["piece"] == "[x](http://evil.example)"
    no_markup(page)


@pytest.mark.parametrize("kind", ["bert-vocab", "sentencepiece"])
def test_ids_back_to_text_use_the_schemes_decoder(files, kind):
    name, data = files[kind]
    tok = load_uploaded_any([(name, data)])
    at = open_tab(uploaded(name, data), IDS_TAB)
    ids = tok.encode(sf.TEXT)
    at.text_input(key=keys.DECODE).input(", ".join(map(str, ids[:12])) + ", 999999").run()
    assert not at.exception
    assert at.code[-1].value == tok.decode(ids[:12])
    assert any("999999" in e.value and "not in this tokenizer" in e.value for e in at.error)


def test_the_byte_ribbon_and_files_tabs_say_why_they_have_nothing(files):
    name, data = files["unigram-json"]
    at = open_tab(uploaded(name, data), RIBBON_TAB)
    assert any("cut between characters" in i.value for i in at.info)
    at = open_tab(at, FILES_TAB)
    assert any("loaded from its own files" in i.value for i in at.info)


def test_compare_puts_wordpiece_and_unigram_beside_byte_level_bpe(files):
    at = uploaded(*files["bert-vocab"])
    bert_key = f"upload:{at.session_state[keys.LAST_UPLOAD]}"
    at.file_uploader(key=keys.FILES).set_value((*files["unigram-json"], "application/json")).run()
    unigram_key = f"upload:{at.session_state[keys.LAST_UPLOAD]}"
    at = open_tab(at, COMPARE_TAB)
    at.multiselect(key=keys.COMPARE).set_value([bert_key, unigram_key, "bytes:gpt2"]).run()
    assert not at.exception
    table = at.dataframe[0].value.set_index("tokenizer")
    bert, unigram = sf.bert_tokenizer(), sf.unigram()
    want = {
        "uploaded vocab.txt": tokenize_result(bert, sf.TEXT, label="b"),
        "uploaded tokenizer.json": tokenize_result(unigram, sf.TEXT, label="u"),
    }
    for label, result in want.items():
        row = table.loc[label]
        assert row["tokens"] == len(result.ids) and row["unknown tokens"] == result.unknown
        assert row["round trip"] == round_trip(result) == "lossy"
        assert row["note"] == what_is_lost(result) and row["note"].startswith("lost: ")
    raw = table.loc["raw bytes (no merges)"]
    assert raw["tokens"] == len(sf.TEXT.encode()) and raw["round trip"] == "exact" and raw["note"] == ""
    assert str(raw["unknown tokens"]) == "<NA>"
    # the spans: each scheme's pieces (## and ▁ visible, [UNK] marked), escaped
    pages = [h.value for h in at.html if "ms-scheme-cut" in h.value or "ms-unk" in h.value]
    joined = " ".join(pages)
    assert "##s" in joined and "▁pug" in joined and 'class="ms-t ms-unk"' in joined
    assert sf.RTL not in joined and "⟨U+202E⟩" in joined
    no_markup(joined)


def test_the_browser_encoder_is_not_asked_for_other_schemes(files):
    """WordPiece and Unigram go to the server's engine as the character baseline does: no table,
    the same box followed."""
    at = uploaded(*files["unigram-json"])
    (data,) = component_data(at, "mergescope_clickable_tokens")
    assert data["table_key"] == "" and data["table"] is None and data["box"] == keys.TEXT_BOX
    # typing (the box reports the text): the server's tokens follow
    at.session_state[keys.TEXT] = "pugs hugs"
    at.run()
    assert main_spans(at).texts == ["▁pug", "s", "▁hug", "s"]


def test_a_pattern_chosen_for_bpe_is_not_used_for_a_wordpiece_upload(files):
    at = app(**{keys.TEXT: "hugs", keys.KIND: "upload", keys.LOAD_PATTERN: "gpt4"}).run()
    at.file_uploader(key=keys.FILES).set_value((*files["bert-vocab"], "text/plain")).run()
    assert not at.exception and tokens_metric(at) == 2
    assert any("(gpt4) is not used" in c.value.replace("\\", "") for c in at.caption)


def test_a_malformed_scheme_file_is_one_line_and_the_page_goes_on():
    at = uploaded("tokenizer.json", b'{"model": {"type": "Unigram", "vocab": [["<unk>", "x"]]}}')
    (error,) = [e.value for e in at.error]
    assert error.startswith("Could not load tokenizer") and "/tmp" not in error and "\n" not in error
    at.radio(key=keys.KIND).set_value("bytes").run()
    assert not at.exception and tokens_metric(at) == len(sf.TEXT.encode())


@pytest.fixture()
def hub(tmp_path, monkeypatch):
    with file_server() as s:
        for k, v in no_caches(tmp_path).items():
            monkeypatch.setenv(k, v)
        monkeypatch.setenv("MERGESCOPE_HF_URL", s.url)
        monkeypatch.delenv("MERGESCOPE_FETCH", raising=False)
        local_tokenizers.clear()
        yield s
    local_tokenizers.clear()


@pytest.mark.parametrize("kind", ["wordpiece-json", "unigram-json"])
def test_a_hub_model_named_is_fetched_and_shown_as_its_scheme(hub, files, kind):
    name = f"org/{kind}"
    serve_hub_tokenizer(hub, name, files[kind][1], large=False)
    at = app(**{keys.TEXT: sf.TEXT, keys.KIND: "local"}).run()
    at.text_input(key=keys.HF_NAME).input(name).run()
    at.button(key=keys.FETCH).click().run()
    assert not at.exception and not at.error
    scheme = "WordPiece" if kind.startswith("wordpiece") else "Unigram"
    assert at.selectbox(key=keys.LOCAL).value == f"hf:{name}"
    tok = sf.wordpiece() if scheme == "WordPiece" else sf.unigram()
    assert main_spans(at).texts == [marked(tok.piece(i)) for i in tok.encode(sf.TEXT)]
    assert any(f"{scheme}, {tok.vocab_size} pieces" in c.value for c in at.caption)


def test_compare_without_wordpiece_or_unigram_keeps_its_columns():
    from mergescope_ui.tokenize.results import COMPARE_COLUMNS, PIECE_COLUMNS

    at = app(**{keys.TEXT: "hugs", keys.KIND: "bytes", keys.TABS: COMPARE_TAB}).run()
    table = at.dataframe[0].value
    assert list(table.columns) == [c for c in COMPARE_COLUMNS if c not in PIECE_COLUMNS]
