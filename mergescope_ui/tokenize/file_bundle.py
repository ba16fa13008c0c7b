"""Every file format ``bpe_core`` writes, for one tokenizer, in one zip (pure; no Streamlit).

The files come from ``Tokenizer.save``, plus minbpe's ``tokenizer.model`` when
the ids allow it; the Tokenize page offers them as one download.

>>> import io, zipfile
>>> from bpe_core import train
>>> from mergescope_ui.shared.tokenizer_files import load_uploaded
>>> tok = train("the cat in the hat", vocab_size=262, pattern="gpt2")
>>> bundle = tokenizer_bundle(tok)
>>> sorted(bundle.files)[:3]
['merges.txt', 'special_tokens_map.json', 'tokenizer.json']
>>> back = load_uploaded([("tokenizer.json", bundle.files["tokenizer.json"])])
>>> back.encode("the hat") == tok.encode("the hat")
True
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from bpe_core import Tokenizer, save_tokenizer
from bpe_core.formats import write_format


@dataclass(frozen=True, slots=True)
class FileBundle:
    """The files of one tokenizer (name -> bytes) and notes on formats that could not be written."""

    files: dict[str, bytes]
    notes: tuple[str, ...] = field(default=())

    def zip_bytes(self) -> bytes:
        """All files in one zip (stored in sorted order, so the same tokenizer gives the same zip)."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for name in sorted(self.files):
                info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, self.files[name])
        return buffer.getvalue()


def tokenizer_bundle(tok: Tokenizer) -> FileBundle:
    """Every file ``save_tokenizer`` writes, plus ``tokenizer.model`` (minbpe) when its ids fit minbpe."""
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="mergescope-save-") as tmp:
        paths = save_tokenizer(tok, tmp)
        try:
            paths += write_format(tok, "minbpe", Path(tmp) / "tokenizer.model")
        except ValueError as exc:
            notes.append(f"tokenizer.model (minbpe) left out: {exc}")
        files = {p.name: p.read_bytes() for p in paths}
    return FileBundle(files=files, notes=tuple(notes))
