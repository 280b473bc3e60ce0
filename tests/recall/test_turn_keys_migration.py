"""Migration recall 0012: a store indexed under `words` turn keys puts every episode that produced a
live fact in the index outbox, so the drain re-indexes it with its facts' words (the new default,
docs/recall.md "Turn keys"). Both engines."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from facts.models import Fact, Turn
from recall import fts, indexer
from recall.models import PendingIndex
from recall.query import words
from recall.tables import EPISODES

pytestmark = pytest.mark.django_db(transaction=True)

# The offline rules make "User dislikes cilantro." of it: "dislikes" is a word only the fact has.
SAID = "Honestly, I can't stand cilantro."


def _migrate(target: str) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([("recall", target)])


def _matches(turn: Turn, query: str) -> list[int]:
    return [pk for pk, _ in fts.search(turn.user_id, words(query), 10, EPISODES)]


def test_the_migration_marks_turns_with_facts_and_the_drain_gives_them_their_facts_words(api, post_turn, settings):
    settings.MEMORY_RECALL_TURN_KEYS = "words"
    post_turn(api, "t1", SAID)
    post_turn(api, "t2", "Hello there!")
    turn = Turn.objects.get(turn_id="t1")
    assert Fact.objects.live().filter(source_turn=turn).exists()
    assert _matches(turn, "dislikes") == [] and not PendingIndex.objects.exists()

    _migrate("0011_no_samples_of_index_words")
    _migrate("0012_turn_keys_with_facts")

    assert list(PendingIndex.objects.values_list("kind", "item_id")) == [("episode", turn.pk)]
    settings.MEMORY_RECALL_TURN_KEYS = "words+facts"
    indexer.drain()
    assert _matches(turn, "dislikes") == [turn.pk]
    assert not PendingIndex.objects.exists()
