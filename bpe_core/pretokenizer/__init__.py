"""Pre-tokenization, the first stage: cut text at special tokens, then split it into chunks.

- :mod:`.text`: checks on the input text and the special tokens;
- :mod:`.patterns`: the named split patterns and their fast ASCII forms;
- :mod:`.pretokenizer`: :class:`PreTokenizer`, which applies them;
- :mod:`.parallel`: counting the chunks of a long text in several processes;
- :mod:`.cuts`: where a stream of text can be cut without changing its chunks.
"""

from .patterns import PATTERNS, pattern_name, resolve_pattern
from .pretokenizer import PreTokenizer
from .text import check_special_tokens, check_text

__all__ = [
    "PATTERNS",
    "PreTokenizer",
    "check_special_tokens",
    "check_text",
    "pattern_name",
    "resolve_pattern",
]
