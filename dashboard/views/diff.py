"""Word diff between a live fact and the change that would replace it.

The pieces are plain strings tagged with an operation; templates render each
piece with auto-escaping inside <ins>/<del>, so memory text is never marked safe.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

# Words and the whitespace after them stay together, so the text reads as written.
_TOKENS = re.compile(r"\S+\s*|\s+")


@dataclass(frozen=True)
class Piece:
    op: str  # "same" | "ins" | "del"
    text: str


def word_diff(old: str, new: str) -> list[Piece]:
    a, b = _TOKENS.findall(old or ""), _TOKENS.findall(new or "")
    pieces: list[Piece] = []
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            pieces.append(Piece("same", "".join(a[i1:i2])))
            continue
        if op in ("delete", "replace"):
            pieces.append(Piece("del", "".join(a[i1:i2])))
        if op in ("insert", "replace"):
            pieces.append(Piece("ins", "".join(b[j1:j2])))
    return pieces
