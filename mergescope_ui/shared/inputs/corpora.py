"""The built-in corpora: ``corpora/index.toml`` lists them, one file each.

>>> [c.id for c in load_index()][:2]
['low_lowest_newest', 'low_lower_newest_widest']
>>> load_text(find_corpus("aaabdaaabac"))
'aaabdaaabac'
>>> default_id(["low_lowest_newest", "lighthouse-story"], "lighthouse_story")
'lighthouse-story'
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

CORPORA_DIR = Path(__file__).resolve().parents[3] / "corpora"
INDEX_FILE = "index.toml"


@dataclass(frozen=True, slots=True)
class Corpus:
    """One built-in text: a stable id, its file, a title and a one-line description."""

    id: str
    file: Path
    title: str
    description: str


def load_index(directory: Path = CORPORA_DIR) -> list[Corpus]:
    """The corpora listed in ``directory/index.toml``, in file order.

    A missing file, a missing field or a duplicate id is a ValueError naming it.
    """
    index = directory / INDEX_FILE
    try:
        data = tomllib.loads(index.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{index} is missing; it lists the built-in corpora ([[corpus]] tables)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{index} is not valid TOML ({exc}); fix the file") from None
    out: list[Corpus] = []
    seen: set[str] = set()
    for n, entry in enumerate(data.get("corpus", []), start=1):
        missing = [k for k in ("id", "file", "title", "description") if not str(entry.get(k, "")).strip()]
        if missing:
            raise ValueError(
                f"{index}: corpus #{n} lacks {', '.join(missing)}; give every [[corpus]] all four"
            )
        if entry["id"] in seen:
            raise ValueError(f"{index}: corpus id {entry['id']!r} is used twice; ids must be unique")
        path = directory / entry["file"]
        if not path.is_file():
            raise ValueError(f"{index}: corpus {entry['id']!r} points to {path}, which does not exist")
        seen.add(entry["id"])
        out.append(Corpus(id=entry["id"], file=path, title=entry["title"], description=entry["description"]))
    if not out:
        raise ValueError(f"{index} lists no corpus; add at least one [[corpus]] table")
    return out


def find_corpus(corpus_id: str, *, directory: Path = CORPORA_DIR) -> Corpus:
    """The corpus with this id; an unknown id is a ValueError listing the known ones."""
    corpora = load_index(directory)
    for corpus in corpora:
        if corpus.id == corpus_id:
            return corpus
    raise ValueError(f"no built-in corpus {corpus_id!r}; choose one of {[c.id for c in corpora]}")


def load_text(corpus: Corpus) -> str:
    """The text of ``corpus`` (UTF-8, newlines kept exactly as in the file)."""
    with open(corpus.file, encoding="utf-8", newline="") as handle:
        return handle.read()


def find_id(ids: Sequence[str], wanted: str) -> str | None:
    """The id in ``ids`` that is ``wanted`` up to ``-`` vs ``_`` (corpus ids have used both), or None.

    >>> find_id(["mixed-scripts", "aaabdaaabac"], "mixed_scripts")
    'mixed-scripts'
    """
    norm = wanted.replace("-", "_")
    return next((i for i in ids if i.replace("-", "_") == norm), None)


def default_id(ids: Sequence[str], wanted: str) -> str:
    """The one rule for a page's default built-in text: ``wanted`` (up to ``-`` vs ``_``), else the first.

    Each page names the text it starts with (the Train page the classroom
    string, the Tokenize page the English story, the lab its training and
    held-out texts); when the index no longer has it, the page starts from
    the first corpus of ``corpora/index.toml``.
    """
    if not ids:
        raise ValueError("there is no built-in corpus to choose from; list one in corpora/index.toml")
    found = find_id(ids, wanted)
    return ids[0] if found is None else found
