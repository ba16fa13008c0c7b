"""GPT-2 / HF files: ``vocab.json`` + ``merges.txt`` (+ ``special_tokens_map.json``).

- ``vocab.json``: ``{token: id}``, each ordinary token written in GPT-2's
  byte-to-unicode alphabet (``" the"`` is ``"Ġthe"``), each special token as
  its literal string (GPT-2's own file has ``"<|endoftext|>": 50256``).
- ``merges.txt``: an optional ``#version: 0.2`` header line, then one merge per
  line, its two tokens separated by one space, highest priority first.
- ``special_tokens_map.json``: HF transformers' form, ``{"eos_token":
  "<|endoftext|>", "additional_special_tokens": [...]}``; a value may be a
  string or an object with ``"content"``.

On load, a token is special when ``special_tokens_map.json`` names it, or when
it is not a single byte and no merge makes or uses it (no text could ever
encode to it otherwise): that is how GPT-2's ``<|endoftext|>`` is found.
These files do not record the split pattern; the loader's caller passes it.

>>> vocab = {b: bytes([b]) for b in range(256)} | {256: b"<|endoftext|>", 257: b" t"}
>>> data = TokenizerData(vocab, [(32, 116)], {"<|endoftext|>": 256}, "gpt2")
>>> merges_txt(data)
'#version: 0.2\\nĠ t\\n'
>>> vocab_json(data).splitlines()[-3:]
['  "<|endoftext|>": 256,', '  "Ġt": 257', '}']
>>> special_tokens_map_json(data)
'{\\n  "eos_token": "<|endoftext|>"\\n}\\n'
>>> back = read_gpt2_text(vocab_json(data), merges_txt(data), special_tokens_map_json(data))
>>> back.merges, back.special_tokens, back.vocab[257]
([(32, 116)], {'<|endoftext|>': 256}, b' t')
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..byte_level import BYTE_TO_UNICODE, from_unicode_string, to_unicode_string
from ..pretokenizer import excerpt
from ..pretokenizer.text import MAX_SPECIAL_TOKENS
from .data import TokenizerData, TokenizerLike, first_missing_id, merge_results
from .safe_io import MAX_FILE_BYTES, TokenizerFileError, expect_int, parse_json, read_text

VOCAB_JSON = "vocab.json"
MERGES_TXT = "merges.txt"
SPECIAL_TOKENS_MAP_JSON = "special_tokens_map.json"
MERGES_HEADER = "#version: 0.2"
EOS = "<|endoftext|>"


@dataclass(frozen=True, slots=True)
class MergeLine:
    """One merge as written in a file: its two token strings and where it was."""

    left: str
    right: str
    where: str


# ----- reading -----
def read_gpt2(
    vocab_path: str | os.PathLike[str],
    merges_path: str | os.PathLike[str],
    special_tokens_map_path: str | os.PathLike[str] | None = None,
    *,
    max_bytes: int = MAX_FILE_BYTES,
) -> TokenizerData:
    """Read ``vocab.json`` + ``merges.txt`` (+ ``special_tokens_map.json``); ``pattern`` is None."""
    specials = None
    if special_tokens_map_path is not None:
        specials = parse_special_tokens_map(
            read_text(special_tokens_map_path, max_bytes=max_bytes), special_tokens_map_path
        )
    return read_gpt2_text(
        read_text(vocab_path, max_bytes=max_bytes),
        read_text(merges_path, max_bytes=max_bytes),
        None,
        vocab_path=vocab_path,
        merges_path=merges_path,
        named_specials=specials,
        special_tokens_map_path=special_tokens_map_path,
    )


def read_gpt2_text(
    vocab_text: str,
    merges_text: str,
    special_tokens_map_text: str | None = None,
    *,
    vocab_path: str | os.PathLike[str] = VOCAB_JSON,
    merges_path: str | os.PathLike[str] = MERGES_TXT,
    named_specials: list[str] | None = None,
    special_tokens_map_path: str | os.PathLike[str] | None = None,
) -> TokenizerData:
    """Like :func:`read_gpt2` from the files' texts (the paths only label errors)."""
    map_path = special_tokens_map_path or SPECIAL_TOKENS_MAP_JSON
    if special_tokens_map_text is not None:
        named_specials = parse_special_tokens_map(special_tokens_map_text, map_path)
    vocab = parse_vocab_json(vocab_text, vocab_path)
    merges = parse_merges_txt(merges_text, merges_path)
    named = {}
    for s in named_specials or []:
        if s not in vocab:
            raise TokenizerFileError(
                map_path,
                repr(s),
                f"names a special token that {Path(vocab_path).name} does not have; add it there with an id",
            )
        named[s] = vocab[s]
    return build_byte_level(
        vocab, merges, named, vocab_path=vocab_path, merges_path=merges_path, vocab_where="key"
    )


def parse_vocab_json(text: str, path: str | os.PathLike[str]) -> dict[str, int]:
    """``{token string: id}`` from a ``vocab.json`` text, ids checked (whole numbers, no repeats)."""
    data = parse_json(text, path)
    if not isinstance(data, dict):
        raise TokenizerFileError(
            path, "", f"must be a JSON object {{token: id}}, not a {type(data).__name__}"
        )
    if not data:
        raise TokenizerFileError(path, "", "has no tokens")
    return check_vocab_ids(data, path, "key")


def check_vocab_ids(data: Mapping[str, Any], path: str | os.PathLike[str], where: str) -> dict[str, int]:
    """Check ``{token: id}``: ids are whole numbers in range and no id is used twice."""
    owner: dict[int, str] = {}
    for key, value in data.items():
        i = expect_int(value, path, f"{where} {excerpt(key)}")
        if i in owner:
            raise TokenizerFileError(
                path,
                f"{where} {excerpt(key)}",
                f"id {i} is already used by {excerpt(owner[i])}; each id may name one token",
            )
        owner[i] = key
    return dict(data)


def parse_merges_txt(text: str, path: str | os.PathLike[str]) -> list[MergeLine]:
    """The merges of a ``merges.txt`` text; blank lines and a ``#version`` header are skipped."""
    out: list[MergeLine] = []
    for n, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line or (n == 1 and line.startswith("#version")):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise TokenizerFileError(
                path,
                f"line {n}",
                f"{excerpt(line)} is not a merge: expected two tokens separated by one space",
            )
        out.append(MergeLine(parts[0], parts[1], f"line {n}"))
    return out


def parse_special_tokens_map(text: str, path: str | os.PathLike[str]) -> list[str]:
    """Every token a ``special_tokens_map.json`` names, in order, each once."""
    data = parse_json(text, path)
    if not isinstance(data, dict):
        raise TokenizerFileError(path, "", 'must be a JSON object like {"eos_token": "<|endoftext|>"}')
    out: list[str] = []

    def add(value: Any, where: str) -> None:
        if isinstance(value, dict):
            value = value.get("content")
        if not isinstance(value, str) or not value:
            raise TokenizerFileError(
                path, where, 'each value must be a token string or an object with a "content" string'
            )
        if value not in out:
            out.append(value)

    for key, value in data.items():
        if isinstance(value, list):
            for k, item in enumerate(value):
                add(item, f"key {excerpt(key)}[{k}]")
        elif value is not None:
            add(value, f"key {excerpt(key)}")
    return out


def build_byte_level(
    vocab: Mapping[str, int],
    merges: Iterable[MergeLine],
    named_specials: Mapping[str, int],
    *,
    vocab_path: str | os.PathLike[str],
    merges_path: str | os.PathLike[str],
    vocab_where: str,
) -> TokenizerData:
    """Turn byte-level strings into bytes and ids, checking everything a merge needs.

    ``vocab`` maps token strings to ids (ids already checked distinct);
    ``named_specials`` are the tokens the file declares special (their ids).
    """
    merges = merges if isinstance(merges, Sequence) else list(merges)
    merge_pairs: list[tuple[int, int]] = []
    seen_merge: dict[tuple[str, str], str] = {}
    made: set[str] = set()
    used: set[str] = set()
    for k, m in enumerate(merges):
        for part in (m.left, m.right):
            if part not in vocab:
                _raise_if_mismatched(vocab, merges, k, part, vocab_path=vocab_path, merges_path=merges_path)
                raise TokenizerFileError(
                    merges_path,
                    m.where,
                    f"merge {excerpt(m.left)} + {excerpt(m.right)}: {excerpt(part)} is not in the vocab; "
                    "add it or drop the merge",
                )
            if part in named_specials:
                raise TokenizerFileError(
                    merges_path,
                    m.where,
                    f"merge {excerpt(m.left)} + {excerpt(m.right)} uses the special token "
                    f"{excerpt(part)}; special tokens are "
                    "never merged",
                )
        merged = m.left + m.right
        if merged not in vocab:
            _raise_if_mismatched(vocab, merges, k, merged, vocab_path=vocab_path, merges_path=merges_path)
            raise TokenizerFileError(
                merges_path,
                m.where,
                f"merge {excerpt(m.left)} + {excerpt(m.right)} makes {excerpt(merged)}, which is not in "
                "the vocab; add it or "
                "drop the merge",
            )
        if merged in named_specials:
            raise TokenizerFileError(
                merges_path,
                m.where,
                f"merge {excerpt(m.left)} + {excerpt(m.right)} makes the special token {excerpt(merged)}; "
                "a special token cannot "
                "be a merge result",
            )
        parts = (m.left, m.right)
        if parts in seen_merge:
            raise TokenizerFileError(
                merges_path,
                m.where,
                f"merge {excerpt(m.left)} + {excerpt(m.right)} repeats {seen_merge[parts]}; list each merge "
                "once",
            )
        seen_merge[parts] = m.where
        made.add(merged)
        used.update(parts)
        merge_pairs.append((vocab[m.left], vocab[m.right]))

    byte_chars = set(BYTE_TO_UNICODE.values())
    specials: dict[str, int] = dict(named_specials)
    out_vocab: dict[int, bytes] = {}
    for key, i in vocab.items():
        if key in specials:
            out_vocab[i] = key.encode("utf-8")
            continue
        if key not in byte_chars and key not in made and key not in used:
            specials[key] = i  # unreachable by merges: only usable as a special token
            out_vocab[i] = key.encode("utf-8")
            continue
        try:
            out_vocab[i] = from_unicode_string(key)
        except ValueError as exc:
            raise TokenizerFileError(vocab_path, f"{vocab_where} {excerpt(key)}", f"{exc}") from None
    unreachable = len(specials) - len(named_specials)
    if len(specials) > MAX_SPECIAL_TOKENS:
        example = next(s for s in specials if s not in named_specials)
        raise TokenizerFileError(
            vocab_path,
            "",
            f"has {unreachable:,} tokens that no merge makes or uses (such as {excerpt(example)}); they can "
            f"only be special tokens, and a tokenizer may have at most {MAX_SPECIAL_TOKENS:,}: do the "
            "merges belong to this vocab?",
        )
    for b, char in BYTE_TO_UNICODE.items():
        if char not in vocab or char in named_specials:
            raise TokenizerFileError(
                vocab_path,
                "",
                f"has no token for byte 0x{b:02X} ({char!r}); a byte-level vocab needs all 256 "
                "(with HF's trainer pass initial_alphabet=pre_tokenizers.ByteLevel.alphabet())",
            )
    missing = first_missing_id(out_vocab, specials)
    if missing is not None:
        raise TokenizerFileError(
            vocab_path,
            "",
            f"no token has id {missing}: ids must run 0..N-1 without gaps (only special tokens may sit "
            "above the rest)",
        )
    specials = dict(sorted(specials.items(), key=lambda kv: kv[1]))
    return TokenizerData(out_vocab, merge_pairs, specials, None)


def _raise_if_mismatched(
    vocab: Mapping[str, int],
    merges: Sequence[MergeLine],
    k: int,
    missing: str,
    *,
    vocab_path: str | os.PathLike[str],
    merges_path: str | os.PathLike[str],
) -> None:
    """Raise the "these two files do not belong together" error when the vocab and the merges are two
    files and more than one merge needs a token the vocab lacks (one bad line reads as a damaged file).

    ``k`` is the 0-based index of the first such merge, ``missing`` the token it needs.
    """
    if Path(vocab_path) == Path(merges_path):
        return
    bad = sum(
        1
        for m in merges[k:]
        if m.left not in vocab or m.right not in vocab or (m.left + m.right) not in vocab
    )
    if bad < 2:
        return
    v, mt = Path(vocab_path).name, Path(merges_path).name
    m = merges[k]
    need = "makes" if missing == m.left + m.right else "uses"
    raise TokenizerFileError(
        merges_path,
        m.where,
        f"{v} ({len(vocab):,} tokens) and {mt} ({len(merges):,} merges) come from different tokenizers: "
        f"merge {k + 1} ({m.left!r} + {m.right!r}) {need} {missing!r}, which {v} does not have "
        f"({bad:,} of the {len(merges):,} merges need tokens it lacks); load the vocab and merges files "
        "of one tokenizer",
    )


# ----- writing -----
def token_strings(tok: TokenizerLike) -> dict[int, str]:
    """id -> the string a vocab file shows: special tokens literal, others byte-to-unicode."""
    special_of = {i: s for s, i in tok.special_tokens.items()}
    out: dict[int, str] = {}
    seen: dict[str, int] = {}
    for i in sorted(tok.vocab):
        s = special_of[i] if i in special_of else to_unicode_string(tok.vocab[i])
        if s in seen:
            raise ValueError(
                f"ids {seen[s]} and {i} would both be written as {excerpt(s)} in a vocab file; rename the "
                "special "
                "token"
            )
        seen[s] = i
        out[i] = s
    return out


def check_writable(tok: TokenizerLike) -> None:
    """A tokenizer whose ids leave gaps cannot be written to the HF files (they would not load)."""
    missing = first_missing_id(tok.vocab, tok.special_tokens)
    if missing is not None:
        raise ValueError(
            f"no token has id {missing}, so vocab files would have a gap; if these ids belong to special "
            "tokens (a .tiktoken file does not list them), load it with special_tokens={...: id}"
        )


def vocab_json(tok: TokenizerLike) -> str:
    """The ``vocab.json`` text: one ``"token": id`` per line, in id order."""
    check_writable(tok)
    strings = token_strings(tok)
    body = ",\n".join(f"  {json.dumps(s, ensure_ascii=False)}: {i}" for i, s in strings.items())
    return "{\n" + body + "\n}\n"


def merges_txt(tok: TokenizerLike) -> str:
    """The ``merges.txt`` text, with the ``#version: 0.2`` header HF writes."""
    merge_results(tok)  # every merge must make a vocab token
    lines = [MERGES_HEADER] + [
        f"{to_unicode_string(tok.vocab[a])} {to_unicode_string(tok.vocab[b])}" for a, b in tok.merges
    ]
    return "\n".join(lines) + "\n"


def special_tokens_map_json(tok: TokenizerLike) -> str:
    """``special_tokens_map.json``: ``<|endoftext|>`` as ``eos_token``, the rest (id order) as additional."""
    names = [s for s, _ in sorted(tok.special_tokens.items(), key=lambda kv: kv[1])]
    data: dict[str, Any] = {}
    if EOS in names:
        data["eos_token"] = EOS
        names.remove(EOS)
    if names:
        data["additional_special_tokens"] = names
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
