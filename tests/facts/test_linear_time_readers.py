"""The regular expressions beside the consent reader read long texts in linear time.

A turn holds up to 20,000 characters, and a query, a fact or an error message may be long too.
Every module-level pattern of the modules that read them is searched over texts of the shapes that
make a backtracking pattern quadratic (a long run of one class, a word and its delimiter
repeated): linear, each search is a few milliseconds; quadratic, it takes seconds
(tests/facts/test_consent_detector.py does the same for the consent rules, through the reader).
"""

from __future__ import annotations

import importlib
import re
import time
from collections.abc import Callable

import pytest

from core.redact import mask_urls

pytestmark = pytest.mark.no_database

LENGTH = 20_000
# CPU seconds per search. The slowest linear one here takes ~5 ms; the quadratic URL pattern took
# 0.7 s on 20,000 letters (core/redact.py). CPU time, not wall time: a loaded machine costs little.
LIMIT_SECONDS = 0.1
MODULES = (
    "profiles.sensitivity",
    "facts.guard",
    "recall.query",
    "recall.dates",
    "recall.time_relative",
    "core.redact",
    "core.logredact",
    "facts.entities",
    "facts.extraction.rules",
    "facts.extraction.salience",
    "facts.consent_model",
)
UNITS = ("a", "a ", " ", "\n", "1 ", "1", "a1", "a'", " 'a", "a-", "a.", "a,", "-", "/", "a@", "A ", "the ")


Reader = Callable[[str], object]


def _patterns() -> list[tuple[str, Reader]]:
    """Each module's patterns, as each is read: at its top level, in its lists, tuples and dicts
    (`search`), as a bound method (`PATTERN.match` is timed as a match) or in an object's
    attributes (facts/guard.py's `_Near`)."""
    found: dict[int, tuple[str, Reader]] = {}

    def walk(name: str, value: object, depth: int) -> None:
        if isinstance(value, re.Pattern):
            if isinstance(value.pattern, str):
                found.setdefault(id(value), (name, value.search))
        elif isinstance(getattr(value, "__self__", None), re.Pattern):
            found.setdefault(id(value.__self__), (name, value))  # type: ignore[attr-defined,arg-type]
        elif depth < 3 and isinstance(value, (list, tuple, dict)):
            for item in value.values() if isinstance(value, dict) else value:
                walk(name, item, depth + 1)
        elif depth < 3 and type(value).__module__ in MODULES:
            for item in vars(value).values():
                walk(name, item, depth + 1)

    for module in MODULES:
        for attribute, value in vars(importlib.import_module(module)).items():
            walk(f"{module}.{attribute}", value, 0)
    return list(found.values())


def test_it_finds_the_patterns_it_times():
    names = {name for name, _ in _patterns()}
    assert {
        "core.redact.URL_IN_TEXT",
        "facts.guard._ROLE_MARKERS",
        "facts.guard._SENDS_TO_URL",
        "profiles.sensitivity.TOPIC_PATTERNS",
        "recall.dates._FORMS",
        "facts.extraction.rules._RULES",
    } <= names


def test_every_pattern_reads_20000_adversarial_characters_in_linear_time():
    slow = {}
    for name, read in _patterns():
        for unit in UNITS:
            text = (unit * (LENGTH // len(unit) + 1))[:LENGTH]
            if name == "facts.consent_model._CLAUSE" and unit.isspace():
                continue  # it reads sentences whose blanks are single (facts/consent.py, _sentences)
            started = time.process_time()
            read(text)
            seconds = time.process_time() - started
            if seconds >= LIMIT_SECONDS:
                slow[(name, unit)] = round(seconds, 2)
    assert slow == {}, f"took (s): {slow}"


def test_a_url_in_free_text_is_masked_from_its_run_of_scheme_characters():
    assert (
        mask_urls("see 1http://u:p@host/v1 and x-db+pg://a:b@h")
        == "see 1http://***:***@host/v1 and x-db+pg://***:***@h"
    )
    started = time.process_time()
    assert mask_urls("a" * LENGTH + " https://k@h/") == "a" * LENGTH + " https://***@h/"
    assert time.process_time() - started < LIMIT_SECONDS
