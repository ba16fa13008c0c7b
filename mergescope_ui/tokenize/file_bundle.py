"""Every file format ``bpe_core`` writes, for one tokenizer, in one zip (pure; no Streamlit).

Formats that cannot record the split pattern or the special tokens (``vocab.json`` + ``merges.txt``,
``.tiktoken``) get a note, and the zip a ``README.txt`` saying that ``encoding.json`` holds what they lack.

>>> from bpe_core import train
>>> bundle = tokenizer_bundle(train("the cat in the hat", vocab_size=262, pattern="gpt2"))
>>> sorted(bundle.files)[:3]
['encoding.json', 'merges.txt', 'special_tokens_map.json']
>>> bundle.notes  # doctest: +NORMALIZE_WHITESPACE
('tokenizer.tiktoken records neither the split pattern (gpt2) nor the special tokens:
  encoding.json beside it does (pat_str and special_tokens, as tiktoken.Encoding takes them);
  MergeScope reads encoding.json when it is in the same folder or uploaded with the files',)
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from bpe_core import Tokenizer, save_tokenizer
from bpe_core.formats import ENCODING_JSON, unrecorded, write_format

README_TXT = "README.txt"


@dataclass(frozen=True, slots=True)
class FileBundle:
    """The files of one tokenizer (name -> bytes) and notes on formats that could not be written."""

    files: dict[str, bytes]
    notes: tuple[str, ...] = field(default=())

    def zip_bytes(self) -> bytes:
        """All files in one zip, with a ``README.txt`` of the notes (the same tokenizer, the same zip)."""
        files = dict(self.files)
        if self.notes:
            files[README_TXT] = readme(self.notes).encode("utf-8")
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for name in sorted(files):
                info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, files[name])
        return buffer.getvalue()


def tokenizer_bundle(tok: Tokenizer) -> FileBundle:
    """Every file ``save_tokenizer`` writes, plus ``tokenizer.model`` (minbpe) when its ids fit minbpe."""
    notes = format_notes(tok)
    with tempfile.TemporaryDirectory(prefix="mergescope-save-") as tmp:
        paths = save_tokenizer(tok, tmp)
        try:
            paths += write_format(tok, "minbpe", Path(tmp) / "tokenizer.model")
        except ValueError as exc:
            notes.append(f"tokenizer.model (minbpe) left out: {exc}")
        files = {p.name: p.read_bytes() for p in paths}
    return FileBundle(files=files, notes=tuple(notes))


def format_notes(tok: Tokenizer) -> list[str]:
    """One note per format whose files alone would reload ``tok`` as another tokenizer."""
    notes = []
    where = f"MergeScope reads {ENCODING_JSON} when it is in the same folder or uploaded with the files"
    lost = unrecorded(tok, "gpt2")
    if lost:
        notes.append(
            f"vocab.json + merges.txt do not record {' or '.join(lost)}: {ENCODING_JSON} beside them "
            f"does (HF's GPT2Tokenizer would split with gpt2's pattern); {where}"
        )
    lost = unrecorded(tok, "tiktoken")
    if len(lost) == 1:
        lost.append("the special tokens")  # tiktoken must be told them even when there are none
    notes.append(
        f"tokenizer.tiktoken records neither {' nor '.join(lost)}: {ENCODING_JSON} beside it does "
        f"(pat_str and special_tokens, as tiktoken.Encoding takes them); {where}"
    )
    return notes


def readme(notes: tuple[str, ...] | list[str]) -> str:
    """The zip's ``README.txt``: what each file is for, then the notes."""
    lines = [
        "Tokenizer files written by MergeScope.",
        "",
        "tokenizer.json: Hugging Face tokenizers (records everything).",
        "vocab.json + merges.txt (+ special_tokens_map.json): GPT-2 / HF transformers files.",
        "tokenizer.tiktoken: tiktoken's rank file.",
        f"{ENCODING_JSON}: the split pattern and special tokens for the two above.",
        "vocab.txt: every token, readable (not loadable).",
        "",
        *(f"Note: {n}" for n in notes),
    ]
    return "\n".join(lines) + "\n"
