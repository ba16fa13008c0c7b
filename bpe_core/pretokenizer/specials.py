"""Finding special tokens in a text: one regex, written as a trie so its cost does not grow with their number.

The special tokens are cut out first, leftmost first and, where several start
at the same place, the longest (``<|a|>b`` before ``<|a|>``).  A plain
alternation ``<|a|>b|<|a|>|...`` tries every token at every position, so
10,000 tokens make it thousands of times slower (and 100,000 take seconds to
compile).  The trie form shares each prefix once: ``<\\|a\\|>(?:b)?``; at every
branch at most one alternative can go on (they start with different
characters), and an optional tail is tried before stopping, so it finds the
same token the sorted alternation finds.  Branches nested deeper than
:data:`MAX_NESTING` are written as a sorted alternation instead (``regex``
cannot compile a few hundred nested groups).

>>> special_token_regex(["<|a|>", "<|a|>b", "<|b|>"]).pattern
'(<\\\\|(?:a\\\\|>(?:b)?|b\\\\|>))'
>>> special_token_regex(["<|a|>", "<|a|>b"]).split("x<|a|>by<|a|>")
['x', '<|a|>b', 'y', '<|a|>', '']
"""

from __future__ import annotations

from collections.abc import Sequence

import regex

MAX_NESTING = 50
_END = ""  # the key marking "a token ends here" in a trie node (a real key is one character)

_Trie = dict[str, "_Trie"]


def special_token_regex(tokens: Sequence[str]) -> regex.Pattern[str] | None:
    """A regex with one group that matches any of ``tokens`` (see the module docstring); None for none."""
    if not tokens:
        return None
    trie: _Trie = {}
    for token in tokens:
        node = trie
        for ch in token:
            node = node.setdefault(ch, {})
        node[_END] = {}
    return regex.compile("(" + _node_regex(trie, 0) + ")")


def _node_regex(node: _Trie, depth: int) -> str:
    """The regex for what may follow a trie node (not counting a token that ends at it)."""
    if depth >= MAX_NESTING:
        tails = sorted(_tails(node), key=len, reverse=True)
        alternation = "(?:" + "|".join(regex.escape(t) for t in tails if t) + ")"
        return alternation + "?" if _END in node else alternation
    branches = []
    for ch in sorted(k for k in node if k != _END):
        literal, child = ch, node[ch]
        while len(child) == 1 and _END not in child:  # a chain without branches: one literal
            ((ch, child),) = child.items()
            literal += ch
        rest = _node_regex(child, depth + 1) if len(child) > 1 or _END not in child else ""
        branches.append(regex.escape(literal) + rest)
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if _END in node else body


def _tails(node: _Trie) -> list[str]:
    """Every string from ``node`` to the end of a token (``""`` when one ends at ``node``)."""
    out: list[str] = []
    stack: list[tuple[_Trie, str]] = [(node, "")]
    while stack:
        current, prefix = stack.pop()
        for ch, child in current.items():
            if ch == _END:
                out.append(prefix)
            else:
                stack.append((child, prefix + ch))
    return out
