"""The encodings tiktoken ships: their files, patterns and special tokens, and where tiktoken keeps them.

tiktoken downloads an encoding's files once and keeps each in its cache
folder under the **sha1 of the file's URL** (``TIKTOKEN_CACHE_DIR``, else
``DATA_GYM_CACHE_DIR``, else ``<temp dir>/data-gym-cache``).  So a machine
that has ever run ``tiktoken.get_encoding("cl100k_base")`` holds
``9b5ad71b2ce5302211f9c61530b329a4922fc6a4``, which is cl100k_base's rank
file.  :data:`ENCODINGS` maps those names back, with what the file itself
does not say: the split pattern (one of :data:`bpe_core.pretokenizer.PATTERNS`,
the very regexes tiktoken uses) and the special tokens with their ids.
``tests/engine/formats/test_local_caches.py`` checks every entry against
tiktoken's own ``tiktoken_ext.openai_public``.

``gpt2`` is the one encoding kept as GPT-2's two original files
(``vocab.bpe`` = merges.txt, ``encoder.json`` = vocab.json); ``r50k_base``
holds the same ranks as one ``.tiktoken`` file.

The chat models (gpt-3.5/gpt-4 on cl100k_base, gpt-4o on o200k_base) also
use the ChatML tokens ``<|im_start|>``, ``<|im_end|>`` and ``<|im_sep|>``,
which the encodings leave out; ``chat_tokens`` gives them with the ids
tiktokenizer uses.

>>> ENCODINGS["cl100k_base"].cache_names
('9b5ad71b2ce5302211f9c61530b329a4922fc6a4',)
>>> ENCODINGS["o200k_base"].pattern, ENCODINGS["o200k_base"].special_tokens["<|endoftext|>"]
('o200k', 199999)
>>> [e.name for e in ENCODINGS.values() if len(e.files) == 2]
['gpt2']
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

BLOB = "https://openaipublic.blob.core.windows.net"
ENDOFTEXT = "<|endoftext|>"
FIM = ("<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>")
ENDOFPROMPT = "<|endofprompt|>"
CHATML = ("<|im_start|>", "<|im_end|>", "<|im_sep|>")


@dataclass(frozen=True, slots=True)
class KnownEncoding:
    """One of tiktoken's encodings.

    ``files`` are the URLs tiktoken downloads (one ``.tiktoken`` rank file,
    or GPT-2's ``vocab.bpe`` then ``encoder.json``); ``sha256`` the hashes of
    the published files, in the same order; ``pattern`` a name of
    :data:`bpe_core.pretokenizer.PATTERNS`; ``vocab_size`` tiktoken's
    ``n_vocab`` (ranks and special tokens).
    """

    name: str
    files: tuple[str, ...]
    sha256: tuple[str, ...]
    pattern: str
    special_tokens: Mapping[str, int]
    vocab_size: int
    chat_tokens: Mapping[str, int] = field(default_factory=dict)

    @property
    def cache_names(self) -> tuple[str, ...]:
        """The file names tiktoken gives ``files`` in its cache: the sha1 of each URL."""
        return tuple(cache_name(url) for url in self.files)


def cache_name(url: str) -> str:
    """The name tiktoken gives a downloaded file in its cache folder (its URL's sha1, in hex)."""
    return hashlib.sha1(url.encode()).hexdigest()


def _frozen(tokens: dict[str, int]) -> Mapping[str, int]:
    return MappingProxyType(tokens)


ENCODINGS: Mapping[str, KnownEncoding] = MappingProxyType(
    {
        e.name: e
        for e in (
            KnownEncoding(
                name="gpt2",
                files=(f"{BLOB}/gpt-2/encodings/main/vocab.bpe", f"{BLOB}/gpt-2/encodings/main/encoder.json"),
                sha256=(
                    "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
                    "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
                ),
                pattern="gpt2",
                special_tokens=_frozen({ENDOFTEXT: 50256}),
                vocab_size=50257,
            ),
            KnownEncoding(
                name="r50k_base",
                files=(f"{BLOB}/encodings/r50k_base.tiktoken",),
                sha256=("306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",),
                pattern="gpt2",
                special_tokens=_frozen({ENDOFTEXT: 50256}),
                vocab_size=50257,
            ),
            KnownEncoding(
                name="p50k_base",
                files=(f"{BLOB}/encodings/p50k_base.tiktoken",),
                sha256=("94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",),
                pattern="gpt2",
                special_tokens=_frozen({ENDOFTEXT: 50256}),
                vocab_size=50281,
            ),
            KnownEncoding(
                name="cl100k_base",
                files=(f"{BLOB}/encodings/cl100k_base.tiktoken",),
                sha256=("223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",),
                pattern="gpt4",
                special_tokens=_frozen(
                    {ENDOFTEXT: 100257, FIM[0]: 100258, FIM[1]: 100259, FIM[2]: 100260, ENDOFPROMPT: 100276}
                ),
                vocab_size=100277,
                chat_tokens=_frozen({CHATML[0]: 100264, CHATML[1]: 100265, CHATML[2]: 100266}),
            ),
            KnownEncoding(
                name="o200k_base",
                files=(f"{BLOB}/encodings/o200k_base.tiktoken",),
                sha256=("446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",),
                pattern="o200k",
                special_tokens=_frozen({ENDOFTEXT: 199999, ENDOFPROMPT: 200018}),
                vocab_size=200019,
                chat_tokens=_frozen({CHATML[0]: 200264, CHATML[1]: 200265, CHATML[2]: 200266}),
            ),
        )
    }
)


def tiktoken_cache_dirs(env: Mapping[str, str] | None = None) -> list[Path]:
    """Where tiktoken keeps downloaded files, most specific first: ``TIKTOKEN_CACHE_DIR``, then its
    default folder (``DATA_GYM_CACHE_DIR``, else ``<temp dir>/data-gym-cache``).  An empty value
    (tiktoken's "do not cache") names no folder.

    >>> [p.name for p in tiktoken_cache_dirs({"TIKTOKEN_CACHE_DIR": "/x/tk", "DATA_GYM_CACHE_DIR": "/y/dg"})]
    ['tk', 'dg']
    >>> tiktoken_cache_dirs({"TIKTOKEN_CACHE_DIR": ""})[0].name
    'data-gym-cache'
    """
    env = os.environ if env is None else env
    out: list[Path] = []
    if env.get("TIKTOKEN_CACHE_DIR"):
        out.append(Path(env["TIKTOKEN_CACHE_DIR"]))
    default = env.get("DATA_GYM_CACHE_DIR") or os.path.join(tempfile.gettempdir(), "data-gym-cache")
    if "DATA_GYM_CACHE_DIR" not in env or env["DATA_GYM_CACHE_DIR"]:
        out.append(Path(default))
    return list(dict.fromkeys(out))
