"""The salience gate (docs/design.md §4 and §10): turns that carry nothing skip the LLM.

A turn is skipped only when every word of it is small talk: greetings and goodbyes,
thanks, acknowledgements and bare reactions ("wow!", "haha that's great!", "so
cool"), with at most one name to address someone ("Thanks, Sam!"). Anything else,
whatever its grammatical person, goes to the extractor, which decides: people state
facts without saying "I" ("It was great - a cabin by the lake"), above all when they
answer, and a lost fact costs more than an LLM call. `MEMORY_SALIENCE_GATE=off`
sends every turn to the extractor.

The reason names the first kind of small talk found and stays in the turn's outcome.
"""

from __future__ import annotations

import re

from django.conf import settings

# Transcripts and multi-party clients prefix a message with its speaker ("Sam: hi!").
_SPEAKER_LABEL = re.compile(r"^\s*[A-Z][\w'.-]{0,30}(?: [A-Z][\w'.-]{0,30}){0,2}:\s+")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?|\d+", re.UNICODE)
MAX_WORDS = 20  # longer turns always go to the extractor


def _vocabulary(words: str) -> frozenset[str]:
    return frozenset(words.split())


_KINDS: list[tuple[str, frozenset[str]]] = [
    (
        "greeting",
        _vocabulary(
            "hi hello hey heya hiya yo howdy greetings morning afternoon evening night goodnight bye goodbye "
            "byebye cya ciao later soon take care talk chat catch catching see ya"
        ),
    ),
    (
        "thanks",
        _vocabulary(
            "thanks thank thx ty cheers appreciate appreciated grateful kind compliment help helped words welcome"
        ),
    ),
    (
        "acknowledgement",
        _vocabulary(
            "ok okay k kk sure yes yeah yep yup yea no nope nah alright right fine got done agreed agree true "
            "exactly indeed absolutely definitely totally course sense noted problem prob worries np gotcha "
            "understood will do bet anytime know keeping posted thing"
        ),
    ),
    (
        "reaction",
        _vocabulary(
            "wow whoa woah omg oh ah aw aww awww ooh oops yay ha haha hahaha hehe lol lmao cool great nice awesome "
            "amazing wonderful fantastic lovely neat sweet perfect incredible beautiful brilliant excellent "
            "super terrific impressive fun gorgeous cute adorable congrats congratulations stunning wild crazy "
            "interesting luck spirit rock enjoy hope"
        ),
    ),
]
# Glue that small talk is made of; on its own it does not name a kind.
_GLUE = _vocabulary(
    "so such very really too that that's thats this it it's its is what a an how sounds sound looks look "
    "seems good glad to hear you your you're for me same here and well just pretty all of the i i'm a lot much "
    "again there everyone guys my friend dear one man dude mate long time have day "
    "you've i'll we we'll let's be on up at with now then yourself get go going keep it'll means mean around"
)


def _words(text: str) -> list[str]:
    return _WORD.findall(_SPEAKER_LABEL.sub("", text or "", count=1).replace("\u2019", "'"))


def skip_reason(user_input: str) -> str | None:
    """Why this user text needs no extraction ("greeting", ...), or None when it may hold facts."""
    if not settings.MEMORY_SALIENCE_GATE:
        return None
    words = _words(user_input)
    if not words:
        return "empty"
    if len(words) > MAX_WORDS:
        return None
    folded = [w.casefold() for w in words]
    kinds = [kind for f in folded if (kind := _kind(f))]
    unknown = [w for w, f in zip(words, folded, strict=True) if f not in _GLUE and not _kind(f)]
    # One capitalised word may be the name of the person addressed ("Hey Sam!"), not a bare one ("Paris.").
    if unknown and (len(unknown) > 1 or not unknown[0][0].isupper() or not kinds):
        return None
    return kinds[0] if kinds else "acknowledgement"


def _kind(word: str) -> str | None:
    return next((name for name, vocabulary in _KINDS if word in vocabulary), None)
