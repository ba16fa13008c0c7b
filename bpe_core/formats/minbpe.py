"""karpathy/minbpe's ``.model`` file.

Layout (``minbpe v1``)::

    minbpe v1
    <split regex, or an empty line for no split>
    <number of special tokens>
    <special token> <id>        (one line each)
    <id1> <id2>                 (one line per merge, in order)

Byte ``b`` is id ``b``; merge ``i`` (0-based) makes id ``256 + i``.  Special
tokens cannot contain whitespace.  Writing a tokenizer whose ids follow
another layout (MergeScope puts special tokens at 256...) needs
``renumber=True``: merges then take 256... and special tokens follow them,
so the ids change (the tokens and merges do not).

>>> vocab = {b: bytes([b]) for b in range(256)} | {256: b"ab"}
>>> text = minbpe_model(TokenizerData(vocab, [(97, 98)], {}, "none"))
>>> text
'minbpe v1\\n\\n0\\n97 98\\n'
>>> back = read_minbpe_text(text, "m.model")
>>> back.pattern, back.merges, back.vocab[256]
('none', [(97, 98)], b'ab')
"""

from __future__ import annotations

import os

from ..pretokenizer import excerpt, pattern_name, resolve_pattern
from .data import TokenizerData, TokenizerLike, merge_results, ordinary_ids
from .safe_io import MAX_FILE_BYTES, TokenizerFileError, read_text, whole_number

MINBPE_HEADER = "minbpe v1"
MINBPE_MODEL = "tokenizer.model"


# ----- reading -----
def read_minbpe(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES) -> TokenizerData:
    """Read a minbpe ``.model`` file (its pattern included)."""
    return read_minbpe_text(read_text(path, max_bytes=max_bytes), path)


def read_minbpe_text(text: str, path: str | os.PathLike[str]) -> TokenizerData:
    """Like :func:`read_minbpe` from the file's text (``path`` labels errors)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [ln.rstrip("\r") for ln in lines]
    if not lines or lines[0].strip() != MINBPE_HEADER:
        raise TokenizerFileError(
            path,
            "line 1",
            f"expected {MINBPE_HEADER!r}, found {excerpt(lines[0])}; is this a minbpe .model file?"
            if lines
            else "is empty",
        )
    if len(lines) < 3:
        raise TokenizerFileError(
            path,
            f"line {len(lines) + 1}",
            "the file ends before the pattern and special-token count (truncated?)",
        )
    source = lines[1].strip()
    if source:
        try:
            resolve_pattern(source)
        except ValueError as exc:
            raise TokenizerFileError(path, "line 2", str(exc)) from None
    pattern = "none" if not source else (pattern_name(source) if pattern_name(source) != "custom" else source)
    n_special = whole_number(lines[2].strip(), path, "line 3", what="the number of special tokens", digits=9)
    if len(lines) < 3 + n_special:
        raise TokenizerFileError(
            path,
            f"line {len(lines) + 1}",
            f"the file ends after {len(lines) - 3} of {n_special} special tokens (truncated?)",
        )

    vocab: dict[int, bytes] = {b: bytes([b]) for b in range(256)}
    specials: dict[str, int] = {}
    special_line: dict[int, int] = {}
    for n in range(4, 4 + n_special):
        fields = lines[n - 1].split()
        if len(fields) != 2:
            raise TokenizerFileError(
                path, f"line {n}", f"{excerpt(lines[n - 1])} is not '<special token> <id>'"
            )
        s, i = fields[0], whole_number(fields[1], path, f"line {n}", what="the id")
        if s in specials:
            raise TokenizerFileError(path, f"line {n}", f"special token {excerpt(s)} is listed twice")
        if i in special_line or i < 256 or i >= 2**31:
            why = (
                f"already used on line {special_line[i]}"
                if i in special_line
                else "a byte's id"
                if i < 256
                else "out of range"
            )
            raise TokenizerFileError(path, f"line {n}", f"id {i} of {excerpt(s)} is {why}")
        specials[s] = i
        special_line[i] = n

    merges: list[tuple[int, int]] = []
    made_at: dict[bytes, int] = {}
    for n in range(4 + n_special, len(lines) + 1):
        fields = lines[n - 1].split()
        if not fields:
            continue
        if len(fields) != 2:
            raise TokenizerFileError(
                path, f"line {n}", f"{excerpt(lines[n - 1])} is not a merge '<id1> <id2>'"
            )
        a, b = (whole_number(f, path, f"line {n}", what="the merge's id") for f in fields)
        new_id = 256 + len(merges)
        for part in (a, b):
            if part not in vocab:
                raise TokenizerFileError(
                    path,
                    f"line {n}",
                    f"merge {a} {b} uses id {part}, which no byte or earlier merge made (ids so far "
                    f"0..{new_id - 1})",
                )
        if new_id in special_line:
            raise TokenizerFileError(
                path,
                f"line {special_line[new_id]}",
                f"special token id {new_id} is also the id of the merge on line {n}; move the special token "
                "above the merges",
            )
        token = vocab[a] + vocab[b]
        if token in made_at or len(token) == 1:
            raise TokenizerFileError(
                path,
                f"line {n}",
                f"merge {a} {b} makes {excerpt(token)} again (line {made_at.get(token)}); each token is "
                "made once",
            )
        made_at[token] = n
        vocab[new_id] = token
        merges.append((a, b))
    for s, i in specials.items():
        vocab[i] = s.encode("utf-8")
    return TokenizerData(vocab, merges, specials, pattern)


# ----- writing -----
def minbpe_model(tok: TokenizerLike, *, renumber: bool = False) -> str:
    """The ``.model`` text; ids must follow minbpe's layout unless ``renumber``."""
    source = resolve_pattern(tok.pattern)
    if source is not None and ("\n" in source or "\r" in source or source != source.strip()):
        raise ValueError(
            "the split pattern has line breaks or outer spaces, which a minbpe .model line cannot hold"
        )
    for s in tok.special_tokens:
        if len(s.split()) != 1 or s != s.strip():
            raise ValueError(
                f"special token {excerpt(s)} contains whitespace, which a minbpe .model cannot hold"
            )
    results = merge_results(tok)
    if len(results) != len(set(results)):
        raise ValueError("a token is made by two merges, which a minbpe .model cannot hold")
    by_bytes = ordinary_ids(tok)
    made = set(results)
    for t, i in by_bytes.items():
        if len(t) > 1 and i not in made:
            raise ValueError(
                f"token {i} ({excerpt(t)}) is not made by any merge, which a minbpe .model cannot hold"
            )
    layout_ok = (
        all(by_bytes.get(bytes([b])) == b for b in range(256))
        and results == list(range(256, 256 + len(results)))
        and all(i >= 256 + len(results) for i in tok.special_tokens.values())
    )
    if layout_ok:
        new_id = {i: i for i in tok.vocab}
    elif renumber:
        new_id = {by_bytes[bytes([b])]: b for b in range(256)}
        new_id.update({old: 256 + k for k, old in enumerate(results)})
        top = 256 + len(results)
        for k, (_, old) in enumerate(sorted(tok.special_tokens.items(), key=lambda kv: kv[1])):
            new_id[old] = top + k
    else:
        raise ValueError(
            "the ids do not follow minbpe's layout (byte b is id b, merge i makes id 256+i, special tokens "
            "after the merges); "
            "write it with renumber=True (CLI: --renumber) to renumber them"
        )
    lines = [MINBPE_HEADER, source or "", str(len(tok.special_tokens))]
    lines += [f"{s} {new_id[i]}" for s, i in sorted(tok.special_tokens.items(), key=lambda kv: new_id[kv[1]])]
    lines += [f"{new_id[a]} {new_id[b]}" for a, b in tok.merges]
    return "\n".join(lines) + "\n"
