"""WordPiece and Unigram uploads on the Tokenize page in a real browser, at 1280x720 (issue 25).

A BERT ``vocab.txt`` and a Unigram ``tokenizer.json`` (built in the test, with hostile pieces) are
uploaded through the page's uploader: the pieces show as the engine cuts them (``##`` and ``▁``
visible, the unknown token marked), no script from the text or the files runs and no link or image
from them appears, a click on the unknown token shows what it lost, typing is followed (on the
server: the browser's encoder is byte-level BPE only), Compare shows them beside raw bytes, and
nothing sticks out of the 1280x720 page.  Screenshots go to ``artifacts/`` (git-ignored).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote_plus

import pytest

from bpe_core.tokenizer.scheme import lost
from mergescope_ui.shared.inputs.tokenizer_files import load_uploaded_any
from mergescope_ui.tokenize.piece_html import marked
from tests.browser.support import chromium_page, full_screenshot, streamlit_server, wait_idle
from tests.browser.test_tokenize import SPANS, _errors, _settled, _wait_tokens
from tests.ui.tokenize import scheme_files as sf
from tests.ui.tokenize.fake_caches import no_caches

TEXT = f'hugs pugs <script>window.__pwned=1</script> [x](http://evil.example) ☃ "q" {sf.RTL}ab'
CASES = {
    "wordpiece": ("vocab.txt", sf.bert_vocab, "WordPiece"),
    "unigram": ("tokenizer.json", sf.unigram_json, "Unigram"),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(env=no_caches(tmp_path_factory.mktemp("no-caches"))) as url:
        yield url


def _no_live_markup(pg) -> None:
    assert pg.evaluate("() => window.__pwned") is None
    main = pg.locator('[data-testid="stMain"]')
    assert main.locator("script:not([src])").filter(has_text="__pwned").count() == 0
    assert main.locator('a[href*="evil"]').count() == 0 and main.locator('img[src*="evil"]').count() == 0


@pytest.mark.parametrize("scheme", list(CASES))
def test_an_upload_shows_its_pieces_details_and_compare_at_1280(server, tmp_path: Path, scheme: str):
    name, data, word = CASES[scheme]
    path = tmp_path / name
    path.write_bytes(data())
    tok = load_uploaded_any([(name, data())])  # the engine reading the same bytes
    ids = tok.encode(TEXT)
    with chromium_page(width=1280, height=720) as pg:
        errors = _errors(pg)
        pg.goto(f"{server}/tokenize?t={quote_plus(TEXT)}")
        pg.get_by_text("Tokenize: paste text").first.wait_for(timeout=60_000)
        wait_idle(pg, timeout=60_000)
        pg.get_by_text("Load tokenizer files").first.click()
        wait_idle(pg)
        pg.locator('[data-testid="stMain"] input[type="file"]').first.set_input_files(str(path))
        pg.get_by_text(f"Loaded {name}: {word}").first.wait_for(timeout=60_000)
        wait_idle(pg)
        _wait_tokens(pg, len(ids), timeout=10.0)
        spans = pg.locator(SPANS)
        assert spans.all_text_contents() == [marked(tok.piece(i)) for i in ids]
        unk = ids.index(tok.unk_id)
        assert "ms-unk" in (spans.nth(unk).get_attribute("class") or "")
        _no_live_markup(pg)
        assert _settled(pg) == []
        full_screenshot(pg, f"tokenize_{scheme}_upload_1280")
        # the unknown token: a click shows what it lost
        spans.nth(unk).click()
        pg.get_by_text("Lost here").first.wait_for(timeout=10_000)
        wait_idle(pg)
        facts = pg.locator(".ms-facts").first.inner_text()
        covered = [TEXT[s.start : s.end] for s in tok.token_spans(TEXT)][unk]
        assert "lost here" in facts and covered in facts
        assert _settled(pg) == []
        full_screenshot(pg, f"tokenize_{scheme}_unknown_details_1280")
        # the round trip, decoded, as the scheme's decoder writes it
        pg.get_by_text("Decoded back: lossy").first.wait_for(timeout=10_000)
        assert lost(tok, TEXT).decoded in pg.locator('[data-testid="stExpander"] code').first.inner_text()
        # typing: the server's engine follows the box (no encoder table for these schemes)
        box = pg.get_by_role("textbox", name="Text to tokenize")
        box.fill("pugs hugs")
        _wait_tokens(pg, len(tok.encode("pugs hugs")), timeout=10.0)
        wait_idle(pg)
        assert spans.all_text_contents() == [marked(tok.piece(i)) for i in tok.encode("pugs hugs")]
        box.fill(TEXT)
        _wait_tokens(pg, len(ids), timeout=10.0)
        # Compare: beside raw bytes, the pieces with ## / ▁ and the unknown token marked
        pg.get_by_role("tab", name="⚖️ Compare").click()
        pg.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=30_000)
        wait_idle(pg)
        table = pg.locator('[data-testid="stDataFrame"]').first
        table.wait_for(timeout=10_000)
        unknowns = pg.locator(".ms-tokens .ms-unk")
        assert unknowns.count() >= 1
        _no_live_markup(pg)
        # The table's resize handle: an invisible 20 px grip that Streamlit sets 10 px past its corner.
        pg.evaluate("() => document.querySelectorAll('[style*=\"se-resize\"]').forEach(e => e.remove())")
        out = _settled(pg)
        full_screenshot(pg, f"tokenize_{scheme}_compare_1280")
        assert out == [], out
        assert not errors, errors
