"""facts/consent_prefilter.py: a rule is skipped only where it could not have matched.

The consent reader runs a rule only on the sentences that hold the words the rule needs; these
tests hold the needs to being needs (every match holds one word of each), on small patterns of
each shape and on every rule over every labelled phrase.
"""

from __future__ import annotations

import re

import pytest

from facts import consent, consent_languages, consent_signs
from facts.consent_prefilter import may_match, needs
from tests.facts.consent_sets import LABELLED

pytestmark = pytest.mark.no_database


def _words(pattern: str) -> list[set[str]]:
    return [set(need) for need in needs(re.compile(pattern))]


def test_it_reads_a_literal_run_a_branch_and_an_optional_word():
    assert _words(r"\bdon't remember\b") == [{"remember"}]
    # Each way of a branch needs a word: one of them is the need.
    assert _words(r"(?:save|store) (?:this|that) now") == [{"save", "store"}]
    # "Please" may be missing: it is no need, and "keep" still is.
    assert _words(r"(?:please )?keep") == [{"keep"}]


def test_it_reads_no_need_from_what_may_match_anything():
    for pattern in (
        r"[a-z]+ing",  # a class: no word
        r"(?:remember)?",  # optional
        r"(?:remember|\w+) this",  # a way with no word
        r"(?i:remember) it",  # the case ignored: not read
        r"(?=remember)\w+",  # a lookahead is not read
    ):
        assert not any("remember" in need for need in _words(pattern)), pattern
    assert needs(re.compile("remember", re.IGNORECASE)) == ()


def test_a_text_without_a_needed_word_is_not_searched_and_one_with_it_is():
    pattern = re.compile(r"\bdon't (?:remember|save) this\b")
    assert not may_match(pattern, "please keep it")
    assert may_match(pattern, "don't save this")
    # A word present is no match, only no reason to skip the search.
    assert may_match(pattern, "this, I don't know, save")


RULES = [
    *consent.FORGET_RE,
    *consent._WITHHOLD_RE,
    *consent_languages.FORGET_PREVIOUS_RE,
    *consent_languages.WITHHOLD_RE,
    consent_signs.BACKWARD,
    consent_signs.CORRECTION,
    consent_signs.PRIVATE,
    consent_signs.UNDO_PRONOUN,
]


def test_no_rule_is_skipped_where_it_matches_any_labelled_phrase():
    """Every sentence of every labelled phrase, as the rules read it: where a rule matches, its
    needs are there (else the reader would have missed a request)."""
    phrases = [text for positives, negatives in LABELLED.values() for text in [t for t, _ in positives] + negatives]
    skipped, matched = [], 0
    for phrase in phrases:
        for sentence in consent._requests_only(consent._sentences(consent._normalise(phrase), consent._ASKING_RULES)):
            for rule in RULES:
                if rule.search(sentence):
                    matched += 1
                    if not may_match(rule, sentence):
                        skipped.append((rule.pattern[:60], sentence))
    assert matched > 1000 and skipped == []
