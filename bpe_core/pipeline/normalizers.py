"""Normalizers, the pipeline's first stage: the text made uniform before it is cut (HF's ``normalizers``).

Each is a small frozen record with one method, ``normalize(Aligned) -> Aligned``, which keeps track of
where every character came from (:class:`~.aligned.Aligned`); ``kind`` is its ``type`` in a
``tokenizer.json``.  In the order a reader meets them in real files:

- :class:`BertNormalizer` (every BERT): control characters out, white space to spaces, a space around each
  CJK ideograph, accents stripped and lower case (uncased models);
- :class:`Precompiled`: SentencePiece's rules compiled into a trie (``nmt_nfkc``: T5, ALBERT, XLNet);
- :class:`Prepend` and :class:`Replace` (Llama-2's ``▁`` in front and for each space);
- the Unicode forms :class:`NFC`, :class:`NFD`, :class:`NFKC`, :class:`NFKD`; :class:`Lowercase`,
  :class:`StripAccents`, :class:`Strip`, :class:`Nmt`; and :class:`Sequence`, several in turn.

>>> Sequence((NFD(), StripAccents(), Lowercase())).normalize(Aligned.of("Héllo")).text
'hello'
>>> BertNormalizer().normalize(Aligned.of("Ünïcode 中文\\t!")).text
'unicode  中  文  !'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence as Seq
from dataclasses import dataclass, field
from itertools import pairwise
from typing import ClassVar, Protocol

import regex

from ..tokenizer.unigram_normalizer import charsmap_trie, shortest_rule
from .aligned import Aligned

WHITE_SPACE = regex.compile(r"\p{White_Space}")
"""Rust's ``char::is_whitespace`` (the Unicode White_Space property), which HF's stages test."""


def is_white_space(c: str) -> bool:
    """Whether ``c`` is white space as HF tests it (``\\x1c`` is not, unlike Python's ``isspace``).

    >>> is_white_space("\\u3000"), is_white_space("\\x1c"), "\\x1c".isspace()
    (True, False, True)
    """
    return WHITE_SPACE.fullmatch(c) is not None


# Oniguruma's Unicode \w as HF's build has it: letters, marks, Nd, Nl, Pc, and Latin-1's other numbers
# (² ½, but not ①); the `regex` module's \w adds the zero-width joiner and every other number
_ONIG_WORD = r"\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\u00b2\u00b3\u00b9\u00bc-\u00be"


def hf_regex(source: str) -> regex.Pattern[str]:
    """A regex of a ``tokenizer.json`` (HF compiles ``Split`` and ``Replace`` patterns with Oniguruma)
    compiled for the ``regex`` module, with Oniguruma's ``\\w`` and ``\\W`` (see ``_ONIG_WORD``).

    >>> [hf_regex(r"\\w+").findall(t) for t in ("a\u200db", "½x", "a①")]
    [['a', 'b'], ['½x'], ['a']]
    """
    out: list[str] = []
    in_class = 0
    i = 0
    while i < len(source):
        c = source[i]
        if c == "\\" and i + 1 < len(source):
            nxt = source[i + 1]
            if nxt in "wW":
                if in_class:
                    out.append(_ONIG_WORD if nxt == "w" else f"[^{_ONIG_WORD}]")
                else:
                    out.append(f"[{_ONIG_WORD}]" if nxt == "w" else f"[^{_ONIG_WORD}]")
            else:
                out.append(source[i : i + 2])
            i += 2
            continue
        if c == "[":
            in_class += 1
        elif c == "]" and in_class:
            in_class -= 1
        out.append(c)
        i += 1
    return regex.compile("".join(out), regex.V1)


class Normalizer(Protocol):
    """What every normalizer offers."""

    kind: ClassVar[str]

    def normalize(self, text: Aligned) -> Aligned: ...


def _unicode_form(text: Aligned, form: str) -> Aligned:
    """``text`` in a Unicode normal form, each output character aligned to the run it came from.

    A run starts at each character that is a starter on its own (combining class 0); normalizing run by
    run gives the whole text's form unless a composition crosses runs (Hangul jamo), and then the whole
    text is one run (its characters all aligned to the whole).
    """
    s = text.text
    whole = unicodedata.normalize(form, s)  # type: ignore[arg-type]
    if whole == s:
        return text
    cuts = [i for i, c in enumerate(s) if i == 0 or unicodedata.combining(c) == 0] + [len(s)]
    groups = [(i, j, unicodedata.normalize(form, s[i:j])) for i, j in pairwise(cuts)]  # type: ignore[arg-type]
    if "".join(out for _, _, out in groups) != whole:
        groups = [(0, len(s), whole)]
    return text.map_groups(groups)


@dataclass(frozen=True, slots=True)
class NFC:
    """Canonical composition: ``e`` + U+0301 becomes ``é``.

    >>> NFC().normalize(Aligned.of("e\\u0301")).text
    'é'
    """

    kind: ClassVar[str] = "NFC"

    def normalize(self, text: Aligned) -> Aligned:
        return _unicode_form(text, "NFC")


@dataclass(frozen=True, slots=True)
class NFD:
    """Canonical decomposition: ``é`` becomes ``e`` + U+0301 (both aligned to ``é``).

    >>> len(NFD().normalize(Aligned.of("é")).text)
    2
    """

    kind: ClassVar[str] = "NFD"

    def normalize(self, text: Aligned) -> Aligned:
        return _unicode_form(text, "NFD")


@dataclass(frozen=True, slots=True)
class NFKC:
    """Compatibility composition: ``ﬁ`` becomes ``fi``, full-width ``Ａ`` becomes ``A``.

    >>> NFKC().normalize(Aligned.of("ﬁＡ")).text
    'fiA'
    """

    kind: ClassVar[str] = "NFKC"

    def normalize(self, text: Aligned) -> Aligned:
        return _unicode_form(text, "NFKC")


@dataclass(frozen=True, slots=True)
class NFKD:
    """Compatibility decomposition: ``ﬁ`` becomes ``fi``, ``é`` becomes ``e`` + U+0301.

    >>> NFKD().normalize(Aligned.of("ﬁé")).text == "fie\\u0301"
    True
    """

    kind: ClassVar[str] = "NFKD"

    def normalize(self, text: Aligned) -> Aligned:
        return _unicode_form(text, "NFKD")


@dataclass(frozen=True, slots=True)
class Lowercase:
    """Each character lower-cased on its own (``İ`` becomes ``i`` + U+0307, ``Σ`` always ``σ``).

    >>> Lowercase().normalize(Aligned.of("HÉLLO Σ")).text
    'héllo σ'
    """

    kind: ClassVar[str] = "Lowercase"

    def normalize(self, text: Aligned) -> Aligned:
        return text.map_chars(str.lower)


@dataclass(frozen=True, slots=True)
class StripAccents:
    """Every combining mark (category M) removed; after :class:`NFD`, accents go.

    >>> StripAccents().normalize(NFD().normalize(Aligned.of("café"))).text
    'cafe'
    """

    kind: ClassVar[str] = "StripAccents"

    def normalize(self, text: Aligned) -> Aligned:
        return text.map_chars(lambda c: "" if unicodedata.category(c).startswith("M") else c)


@dataclass(frozen=True, slots=True)
class Replace:
    """Every match of ``pattern`` replaced by ``content``: a string, or a regex when ``is_regex``.

    >>> Replace(" ", "▁").normalize(Aligned.of("a b")).text
    'a▁b'
    """

    pattern: str
    content: str
    is_regex: bool = False
    kind: ClassVar[str] = "Replace"
    _compiled: regex.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        compiled = hf_regex(self.pattern) if self.is_regex else regex.compile(regex.escape(self.pattern))
        object.__setattr__(self, "_compiled", compiled)

    def normalize(self, text: Aligned) -> Aligned:
        groups: list[tuple[int, int, str]] = []
        pos = 0
        for m in self._compiled.finditer(text.text):
            if m.start() == m.end():
                continue
            groups.extend((k, k + 1, text.text[k]) for k in range(pos, m.start()))
            groups.append((m.start(), m.end(), self.content))
            pos = m.end()
        if not groups:
            return text
        groups.extend((k, k + 1, text.text[k]) for k in range(pos, len(text.text)))
        return text.map_groups(groups)


@dataclass(frozen=True, slots=True)
class Prepend:
    """``prepend`` put in front of a text that is not empty (Llama-2: ``▁``).

    >>> Prepend("▁").normalize(Aligned.of("hi")).text, Prepend("▁").normalize(Aligned.of("")).text
    ('▁hi', '')
    """

    prepend: str
    kind: ClassVar[str] = "Prepend"

    def normalize(self, text: Aligned) -> Aligned:
        return text.prepend(self.prepend)


@dataclass(frozen=True, slots=True)
class Strip:
    """White space removed at the start (``left``) and the end (``right``).

    >>> Strip().normalize(Aligned.of("  hi\\t")).text
    'hi'
    """

    left: bool = True
    right: bool = True
    kind: ClassVar[str] = "Strip"

    def normalize(self, text: Aligned) -> Aligned:
        s = text.text
        i, j = 0, len(s)
        while self.left and i < j and is_white_space(s[i]):
            i += 1
        while self.right and j > i and is_white_space(s[j - 1]):
            j -= 1
        return text.slice(i, j)


_CHINESE = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)


def _is_chinese(c: str) -> bool:
    k = ord(c)
    return any(a <= k <= b for a, b in _CHINESE)


@dataclass(frozen=True, slots=True)
class BertNormalizer:
    """BERT's normalizer, in its order: ``clean_text`` (NUL, U+FFFD and control characters out, white
    space to a space), ``handle_chinese_chars`` (a space each side of a CJK ideograph), ``strip_accents``
    (NFD, then nonspacing marks out; when None, as ``lowercase``), ``lowercase``.

    >>> BertNormalizer(lowercase=False).normalize(Aligned.of("Café\\x00")).text
    'Café'
    """

    clean_text: bool = True
    handle_chinese_chars: bool = True
    strip_accents: bool | None = None
    lowercase: bool = True
    kind: ClassVar[str] = "BertNormalizer"

    def normalize(self, text: Aligned) -> Aligned:
        if self.clean_text:
            text = text.map_chars(_bert_clean)
        if self.handle_chinese_chars:
            text = text.map_chars(lambda c: f" {c} " if _is_chinese(c) else c)
        if self.lowercase if self.strip_accents is None else self.strip_accents:
            text = _unicode_form(text, "NFD").map_chars(
                lambda c: "" if unicodedata.category(c) == "Mn" else c
            )
        if self.lowercase:
            text = text.map_chars(str.lower)
        return text


_BERT_CONTROL = ("Cc", "Cf", "Co")  # HF's `is_other` (unicode_categories): not Cn, unassigned characters stay


def _bert_clean(c: str) -> str:
    if c in "\t\n\r":
        return " "
    if c in "\x00\ufffd" or unicodedata.category(c) in _BERT_CONTROL:
        return ""
    return " " if is_white_space(c) else c


_NMT_DROP = frozenset([*range(0x01, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F, 0x8F, 0x9F])
_NMT_SPACE = frozenset(
    [0x09, 0x0A, 0x0C, 0x0D, 0x1680, *range(0x200B, 0x2010), 0x2028, 0x2029, 0x2581, 0xFEFF, 0xFFFD]
)


@dataclass(frozen=True, slots=True)
class Nmt:
    """SentencePiece's ``nmt`` clean-up: control characters out, odd spaces (tab, zero-width, ``▁``) to one
    space.

    >>> Nmt().normalize(Aligned.of("a\\tb\\x01c")).text
    'a bc'
    """

    kind: ClassVar[str] = "Nmt"

    def normalize(self, text: Aligned) -> Aligned:
        return text.map_chars(lambda c: "" if ord(c) in _NMT_DROP else " " if ord(c) in _NMT_SPACE else c)


_GRAPHEME = regex.compile(r"\X")


@dataclass(frozen=True, slots=True)
class Precompiled:
    """SentencePiece's rules as a ``precompiled_charsmap`` (a trie of UTF-8 strings and what each becomes),
    applied as HF applies them: grapheme by grapheme; a grapheme under 6 bytes is replaced whole when a rule
    matches its start (the shortest such rule), otherwise each character by its own rule.

    The rules come from a SentencePiece model (``nmt_nfkc``: NFKC plus a few rules for the web); an empty
    charsmap changes nothing.
    """

    charsmap: bytes
    kind: ClassVar[str] = "Precompiled"
    _trie: tuple[tuple[int, ...], bytes] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_trie", charsmap_trie(self.charsmap) if self.charsmap else None)

    def normalize(self, text: Aligned) -> Aligned:
        trie = self._trie
        if trie is None:
            return text
        groups: list[tuple[int, int, str]] = []
        changed = False
        for m in _GRAPHEME.finditer(text.text):
            g = m.group()
            if len(g.encode("utf-8", "surrogatepass")) < 6:
                rule = shortest_rule(trie, g.encode("utf-8", "surrogatepass"))
                if rule is not None:
                    groups.append((m.start(), m.end(), rule))
                    changed = True
                    continue
            for k in range(m.start(), m.end()):
                rule = shortest_rule(trie, text.text[k].encode("utf-8", "surrogatepass"))
                changed = changed or rule is not None
                groups.append((k, k + 1, text.text[k] if rule is None else rule))
        return text.map_groups(groups) if changed else text


@dataclass(frozen=True, slots=True)
class Sequence:
    """Several normalizers, each on what the one before made.

    >>> Sequence((Prepend("▁"), Replace(" ", "▁"))).normalize(Aligned.of("a b")).text
    '▁a▁b'
    """

    normalizers: Seq[Normalizer]
    kind: ClassVar[str] = "Sequence"

    def normalize(self, text: Aligned) -> Aligned:
        for n in self.normalizers:
            text = n.normalize(text)
        return text
