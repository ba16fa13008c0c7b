"""Tokenizers from outside the app: fetched from OpenAI or the Hugging Face hub, or found in the caches
tiktoken and ``transformers`` already filled on this machine.

A facade over three modules of :mod:`bpe_core.formats`, kept apart from it so that ``import bpe_core``
does not load the network code:

- :mod:`bpe_core.formats.tiktoken_registry`: tiktoken's encodings by name (:data:`ENCODINGS`) and
  where its cache lives (:func:`tiktoken_cache_dirs`);
- :mod:`bpe_core.formats.local_caches`: the tokenizers already on the machine
  (:func:`find_local_tokenizers`, :func:`load_local`);
- :mod:`bpe_core.formats.fetch`: a download into those caches, each file checked against its published
  hash (:func:`fetch_encoding`, :func:`fetch_hub_tokenizer`; a :class:`FetchError` says what to do).

>>> sorted(ENCODINGS)
['cl100k_base', 'gpt2', 'o200k_base', 'p50k_base', 'r50k_base']
"""

from .formats.fetch import (
    HF_URL,
    MAX_FETCH_BYTES,
    OPENAI_URL,
    Fetched,
    FetchError,
    Progress,
    ProgressCallback,
    fetch_encoding,
    fetch_hub_tokenizer,
)
from .formats.local_caches import (
    FoundTokenizer,
    LocalLoad,
    LocalTokenizers,
    find_local_tokenizers,
    hf_hub_dirs,
    load_local,
)
from .formats.tiktoken_registry import ENCODINGS, tiktoken_cache_dirs

__all__ = [
    "ENCODINGS",
    "HF_URL",
    "MAX_FETCH_BYTES",
    "OPENAI_URL",
    "FetchError",
    "Fetched",
    "FoundTokenizer",
    "LocalLoad",
    "LocalTokenizers",
    "Progress",
    "ProgressCallback",
    "fetch_encoding",
    "fetch_hub_tokenizer",
    "find_local_tokenizers",
    "hf_hub_dirs",
    "load_local",
    "tiktoken_cache_dirs",
]
