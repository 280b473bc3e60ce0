"""The words a consent rule cannot match without, so that facts/consent.py runs a rule only on a
message that holds them (issue 37: "one long message can stall other tenants").

Each of the ~250 rules is linear, but each scans the whole message: a 20,000-character turn took
0.4-0.55 s of CPU, nearly all of it rules that could not match because a word they need is not
there. A rule's needs are read from the rule itself (its parsed form, `re._parser`, the parser
`re.compile` uses), not listed by hand, so a rule added or changed brings its own:

    OPENING + NOT + MEMORY_VERB  ->  ("remember" or "memorise" or "memorize" or "retain")
                                     and ("don't" or "not")

A need is a set of strings one of which every match holds. Only what is certain is read: a run
of literal characters, the few strings a small group, a branch or a class of a few characters
can be, the needs of a group repeated at least once, a branch's needs when each of its ways has
one; anything else (a wide class, an optional part, a lookaround) needs nothing. Each string is
then cut to one of its words ("do not" -> "not"), which a text holding the string holds too. So
a rule is skipped only where it could not have matched, and the decisions are the same as
reading every rule (tests/facts/test_consent_prefilter.py checks that on the labelled sets).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from functools import cache
from itertools import product
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

Need = frozenset[str]  # one of these strings is in every match
# Above this many strings a group or a run of them is too loose to be worth reading.
_MAX_STRINGS = 64
# A need whose shortest string (before it is cut to a word) is shorter says little ("a ", "'").
_MIN_CHARS = 3
# A word of a need's string ("about" of " am about to say").
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")
# Words most messages hold: a need made of them says little (any choice is right, some faster).
_COMMON_WORDS = (
    "a about after all am an and any are as at be been but by can could did didn't do don't for from get "
    "got had has have i if in is it it's its just let me my no not now of on or our so than that the them "
    "then there these they this those to up us was we were what when where which who will with would you "
    "your"
)
_COMMON = frozenset(_COMMON_WORDS.split())
# The most selective needs of a rule are checked, the rest left out (each is a scan of the text).
_MAX_NEEDS = 3


@cache
def needs(pattern: re.Pattern[str]) -> tuple[Need, ...]:
    """What `pattern` cannot match without: each set's strings, one of them at least."""
    parsed = _parser.parse(pattern.pattern, pattern.flags)
    if parsed.state.flags & re.IGNORECASE:
        return ()  # the text's case would matter: read no needs
    found = [_shortest(need) for need in _Reader().needs_of(list(parsed)) if min(map(len, need)) >= _MIN_CHARS]
    found.sort(key=_selectivity, reverse=True)
    return tuple(found[:_MAX_NEEDS])


def warm_needs(patterns: Iterable[re.Pattern[str]]) -> None:
    """Read each pattern's needs now (a process reads them once)."""
    for pattern in patterns:
        needs(pattern)


def may_match(pattern: re.Pattern[str], text: str) -> bool:
    """False when some need of `pattern` is missing from `text`: then no part of it can match."""
    return all(any(word in text for word in need) for need in needs(pattern))


def _shortest(need: Need) -> Need:
    """The need in as few strings as say it: those that hold another dropped (" am about to say"
    is in a text only if " am about to" is), each cut to its telling word ("about"), and those
    dropped again. A need costs a scan of the text per string it lacks: the ~5,500 strings of
    the rules' needs took 0.1 s on 20,000 characters, the ~2,100 words they are cut to, half."""
    cut = {_telling_word(word) for word in _without_longer(need)}
    return _without_longer(frozenset(cut))


def _without_longer(need: Need) -> Need:
    return frozenset(word for word in need if not any(other != word and other in word for other in need))


def _telling_word(string: str) -> str:
    """The word of `string` a text is least likely to hold by chance: its longest word that is
    not a common one ("keep" of "you don't have to keep"), else its longest word."""
    words: list[str] = _WORD.findall(string) or [string]
    return max(words, key=lambda word: (word not in _COMMON, len(word)))


def _selectivity(need: AbstractSet[str]) -> tuple[int, int]:
    return min(map(len, need)), -len(need)


def _close_run(run: set[str] | None, found: list[Need]) -> None:
    if run and "" not in run:
        found.append(frozenset(run))


class _Reader:
    """Reads one parsed rule, each item's strings once (a group's items are asked again by
    every group around it)."""

    def __init__(self) -> None:
        self._strings_of: dict[int, frozenset[str] | None] = {}

    def strings(self, item: Any) -> frozenset[str] | None:
        key = id(item)
        if key not in self._strings_of:
            self._strings_of[key] = self._strings(item)
        return self._strings_of[key]

    def needs_of(self, items: list[Any]) -> list[Need]:
        """A sequence's needs: its runs of exactly known strings, and each other item's own needs."""
        found: list[Need] = []
        run: set[str] | None = {""}
        for item in items:
            strings = self.strings(item)
            if strings is not None and run is not None and len(run) * len(strings) <= _MAX_STRINGS:
                run = {head + tail for head, tail in product(run, strings)}
                continue
            _close_run(run, found)
            if strings is None:
                found.extend(self.item_needs(item))
                run = {""}
            else:
                run = set(strings) if len(strings) <= _MAX_STRINGS else None
        _close_run(run, found)
        return found

    def item_needs(self, item: Any) -> list[Need]:
        """The needs of an item that is not a small set of strings."""
        op, value = item
        if op is sre.SUBPATTERN:
            _group, add_flags, _del_flags, items = value
            return [] if add_flags & re.IGNORECASE else self.needs_of(list(items))
        if op is sre.ATOMIC_GROUP:
            return self.needs_of(list(value))
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, _high, items = value
            return self.needs_of(list(items)) if low >= 1 else []
        if op is sre.BRANCH:
            # Each way must need something; their best needs together are the branch's.
            best: set[str] = set()
            for way in value[1]:
                way_needs = self.needs_of(list(way))
                if not way_needs:
                    return []
                best |= max(way_needs, key=_selectivity)
            return [frozenset(best)]
        return []

    def _strings(self, item: Any) -> frozenset[str] | None:
        """Every string `item` can match, when they are few; None otherwise. Zero-width items
        (anchors, lookarounds) match "": they add nothing to the strings beside them."""
        op, value = item
        if op is sre.LITERAL:
            return frozenset(chr(value))
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            return frozenset([""])
        if op is sre.IN:
            if len(value) > 8 or any(kind is not sre.LITERAL for kind, _ in value):
                return None
            return frozenset(chr(code) for _, code in value)
        if op is sre.SUBPATTERN:
            _group, add_flags, _del_flags, items = value
            return None if add_flags & re.IGNORECASE else self._sequence_strings(list(items))
        if op is sre.BRANCH:
            ways = [self._sequence_strings(list(way)) for way in value[1]]
            if any(way is None for way in ways):
                return None
            union = frozenset().union(*ways)  # type: ignore[arg-type]
            return union if len(union) <= _MAX_STRINGS else None
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, high, items = value
            strings = self._sequence_strings(list(items))
            if strings is None or (low, high) not in ((0, 1), (1, 1)):
                return None
            return strings | {""} if low == 0 else strings
        return None

    def _sequence_strings(self, items: list[Any]) -> frozenset[str] | None:
        strings = frozenset([""])
        for item in items:
            more = self.strings(item)
            if more is None or len(strings) * len(more) > _MAX_STRINGS:
                return None
            strings = frozenset(head + tail for head, tail in product(strings, more))
        return strings
