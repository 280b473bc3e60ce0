"""The consent rules' fixes after the ninth blind set (tests/facts/consent_ninth_phrases.py, issue
37), by reason, with variants written for the reason (none is a sentence of the set).
"""

from __future__ import annotations

import pytest

from facts.consent import allows_memory

# Words only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

LEAVE = [
    # "No need to forget" gives leave; "I don't mind" closing a leave is not a "but not".
    "Go ahead and save all of it, I don't mind.",
    "You can store the whole thing, I don't mind!",
    "No need to forget this, it's fine in my profile.",
    "There's no need to delete any of that, I like that you know it.",
]
NOT_LEAVE = [
    "No need to forget this, but don't save my address.",
    "You can keep the recipe, I don't mind if you don't keep my name.",
    "I don't mind the rain.",
    "No need to forget? Actually, please don't store it.",
]


@pytest.mark.parametrize("text", LEAVE)
def test_leave_to_remember_is_read_as_leave(text):
    assert allows_memory(text)


@pytest.mark.parametrize("text", NOT_LEAVE)
def test_leave_with_a_but_not_is_not_leave(text):
    assert not allows_memory(text)
