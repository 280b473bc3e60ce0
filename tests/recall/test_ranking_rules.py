"""The lexical rules apply alike to the live index and to point-in-time (as_of) recall:
words in too large a share of a user's facts are dropped unless every word found is
common, and the relative floor cuts the weak BM25 tail."""

from __future__ import annotations

import pytest
from django.utils import timezone

from recall.services import recall

pytestmark = pytest.mark.django_db

GARDEN = [
    "User waters the garden every morning.",
    "User planted roses in the garden.",
    "User built a bench for the garden.",
    "User reads books in the garden.",
    "User grows tomatoes.",
]


def _direct(result):
    return [hit.fact.pk for hit in result.items if "supplement" not in hit.signals]


@pytest.fixture
def garden(memory, settings):
    settings.MEMORY_RECALL_UNIVERSAL_MIN_FACTS = 4
    settings.MEMORY_RECALL_UNIVERSAL_SHARE = 0.5
    user = memory.user()
    facts = [memory.store(user, text) for text in GARDEN]
    return user, facts, timezone.now()


@pytest.mark.parametrize("point_in_time", [False, True], ids=["live", "as_of"])
def test_a_word_in_most_facts_is_dropped_unless_every_word_found_is_common(garden, point_in_time):
    user, facts, now = garden
    as_of = now if point_in_time else None
    tomatoes = facts[-1]

    mixed = recall(user=user, query="garden tomatoes", mode="lexical", as_of=as_of, log=False)
    assert _direct(mixed) == [tomatoes.pk]

    only_common = recall(user=user, query="garden", mode="lexical", as_of=as_of, log=False)
    assert set(_direct(only_common)) == {f.pk for f in facts[:4]}
    # A word no fact holds does not count: "garden" is still the only word found.
    with_unknown = recall(user=user, query="garden xylophone", mode="lexical", as_of=as_of, log=False)
    assert set(_direct(with_unknown)) == {f.pk for f in facts[:4]}
    if not point_in_time:
        assert (mixed.stats["dropped_terms"], with_unknown.stats["dropped_terms"]) == (1, 0)


@pytest.mark.parametrize("point_in_time", [False, True], ids=["live", "as_of"])
def test_the_relative_floor_cuts_hits_far_below_the_best(memory, settings, point_in_time):
    user = memory.user()
    strong = memory.store(user, "User sails a yacht called Petrel.")
    weak = memory.store(user, "User once read a long article on sailing boats, harbours and coastal weather.")
    as_of = timezone.now() if point_in_time else None
    query = "Petrel yacht sailing"

    assert set(_direct(recall(user=user, query=query, mode="lexical", as_of=as_of, log=False))) == {
        strong.pk,
        weak.pk,
    }
    settings.MEMORY_RECALL_LEXICAL_FLOOR = 0.5
    assert _direct(recall(user=user, query=query, mode="lexical", as_of=as_of, log=False)) == [strong.pk]
