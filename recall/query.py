"""Query hygiene and the user-namespaced token form shared by indexing and search.

Text is split into word tokens in Python (letters and digits only, case and
diacritics folded, like FTS5's unicode61). Each token is then written as
"<user pk>x<token>": FTS5's porter stemmer still sees one alphanumeric token
and stems its suffix the same way at index and query time, while the user
prefix puts every term's posting list inside one user's namespace. The query
side only ever sends quoted alphanumeric terms, so no user text can reach
FTS5 syntax (https://www.sqlite.org/fts5.html#fts5_strings).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import snowballstemmer

MAX_QUERY_CHARS = 2_000
MAX_QUERY_TERMS = 32
MAX_TOKEN_CHARS = 48

_WORD = re.compile(r"[^\W_]+")

# Code points Python's \w counts as letters but SQLite's unicode61 tables (from
# an older Unicode) count as separators. Left inside a token, they would let
# FTS5 split "<pk>x<word>" into pieces and a text forge a token in another
# user's namespace; they are split here the way FTS5 splits them.
# tests/recall/test_tokenizer_agreement.py checks every code point against the
# SQLite the service loads.
FTS5_SEPARATORS = "".join(chr(c) for c in (*range(0x19B0, 0x19C1), 0x19C8, 0x19C9, 0x1CF2, 0x1CF3))
_SEPARATE = str.maketrans(dict.fromkeys(FTS5_SEPARATORS, " "))

# Function words, question words and the near-universal words of a memory
# store: nearly every fact says "user", so matching it ranks nothing.
STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are aren as at be because been before being below
    between both but by can cannot could couldn did didn do does doesn doing don down during each few for
    from further had hadn has hasn have haven having he her here hers herself him himself his how i if in
    into is isn it its itself just let ll me more most mustn my myself no nor not now of off on once only or
    other ought our ours ourselves out over own re same shan she should shouldn so some such than that the
    their theirs them themselves then there these they this those through to too under until up ve very was
    wasn we were weren what when where which while who whom why will with won would wouldn you your yours
    yourself yourselves s t d m o y
    user users user's person people someone something thing things also ever really much many
    tell know kind sort type likely would could might may
    """.split()  # noqa: SIM905  (a word list reads better as text)
)


def fold(text: str) -> str:
    """Lower-case and strip diacritics, as unicode61 with remove_diacritics does."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(text: str) -> list[str]:
    """All word tokens of a text, folded; nothing dropped."""
    return [w[:MAX_TOKEN_CHARS] for w in _WORD.findall(fold(text or "").translate(_SEPARATE))]


def content_words(text: str, *, limit: int = MAX_QUERY_TERMS) -> list[str]:
    """The query's content words: stopwords dropped, de-duplicated, in order, capped."""
    seen: dict[str, None] = {}
    for word in words((text or "")[:MAX_QUERY_CHARS]):
        if word in STOPWORDS or (len(word) == 1 and not word.isdigit()):
            continue
        seen.setdefault(word, None)
        if len(seen) >= limit:
            break
    return list(seen)


def namespace(user_id: int) -> str:
    # Digits then "x": porter counts both as consonants, so a prefix never
    # changes how the word itself is stemmed in a way index and query disagree.
    return f"{int(user_id)}x"


def indexed_text(user_id: int, text: str) -> str:
    """The text as stored in FTS5: every token carries the user's namespace."""
    prefix = namespace(user_id)
    return " ".join(prefix + w for w in words(text))


def match_expression(user_id: int, terms: list[str]) -> str:
    """An FTS5 MATCH string: OR of quoted, namespaced terms (alphanumeric only)."""
    prefix = namespace(user_id)
    return " OR ".join(f'"{prefix}{t}"' for t in terms if t.isalnum())


_stemmer = snowballstemmer.stemmer("porter")


@lru_cache(maxsize=50_000)
def stem(word: str) -> str:
    """Porter stem, for scoring outside FTS5 (point-in-time recall)."""
    stemmed: str = _stemmer.stemWord(word)  # snowballstemmer ships no types
    return stemmed
