"""Pre-tokenization, the first stage: cut text at special tokens, then split it into chunks.

- :mod:`.text`: checks on the input text and the special tokens;
- :mod:`.patterns`: the named split patterns and their fast ASCII forms;
- :mod:`.pretokenizer`: :class:`PreTokenizer`, which applies them;
- :mod:`.specials`: the regex that finds special tokens (a trie, fast for thousands);
- :mod:`.safe_regex`: custom patterns checked before they compile and run with a time limit;
- :mod:`.parallel`: counting the chunks of a long text in several processes;
- :mod:`.cuts`: where a stream of text can be cut without changing its chunks.
"""

from .patterns import GPT2_PATTERN, GPT4_PATTERN, O200K_PATTERN, PATTERNS, pattern_name, resolve_pattern
from .pretokenizer import PreTokenizer
from .safe_regex import PatternTimeout, time_limit
from .text import check_special_tokens, check_text, excerpt

__all__ = [
    "GPT2_PATTERN",
    "GPT4_PATTERN",
    "O200K_PATTERN",
    "PATTERNS",
    "PatternTimeout",
    "PreTokenizer",
    "check_special_tokens",
    "check_text",
    "excerpt",
    "pattern_name",
    "resolve_pattern",
    "time_limit",
]
