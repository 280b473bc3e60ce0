"""The fusion's extra signals: dates the query names, both sides scored for every
candidate, and the exchange a fact was stated in."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from facts.models import Turn, TurnState
from recall import fts
from recall.services import recall

pytestmark = pytest.mark.django_db

HIKES = [
    (datetime(2024, 3, 2, 10, tzinfo=UTC), "User went hiking in the hills with Sam."),
    (datetime(2024, 6, 10, 18, tzinfo=UTC), "User went hiking along the coast with Lee."),
    (datetime(2024, 9, 21, 9, tzinfo=UTC), "User went hiking near the lake with Ana."),
]


def _hikes(memory, user):
    return [memory.store(user, text, valid_from=when) for when, text in HIKES]


def test_a_date_in_the_query_ranks_the_facts_from_that_day_first(memory):
    user = memory.user()
    march, june, september = _hikes(memory, user)

    for query in ("Who did I go hiking with on 10 June 2024?", "who came hiking in June?"):
        result = recall(user=user, query=query, k=3, log=False)
        assert result.items[0].fact.pk == june.pk, query
        assert result.items[0].signals["time_rank"] == 1
        assert "time_rank" not in result.items[1].signals
        assert result.stats["time_windows"]

    assert recall(user=user, query="hiking in September 2024", k=1, log=False).items[0].fact.pk == september.pk
    assert recall(user=user, query="hiking on 2 March 2024", k=1, log=False).items[0].fact.pk == march.pk


def test_the_event_time_counts_before_the_time_it_was_said(memory):
    user = memory.user()
    memory.store(user, "User ran a half marathon in Porto.")
    told_later = memory.store(
        user, "User ran a trail race in the mountains.", event_time=datetime(2023, 5, 14, tzinfo=UTC)
    )
    result = recall(user=user, query="What race did I run in May 2023?", k=2, log=False)
    assert result.items[0].fact.pk == told_later.pk and result.items[0].signals["time_rank"] == 1


def test_a_fact_from_the_named_day_joins_even_without_a_shared_word(memory, settings):
    settings.MEMORY_RECALL_MIN_SIMILARITY = 0.99  # nothing from the vector side: only the date can find it
    user = memory.user()
    _hikes(memory, user)
    quiet = memory.store(user, "User adopted a grey cat.", valid_from=datetime(2024, 6, 10, 20, tzinfo=UTC))
    result = recall(user=user, query="what happened on 10 June 2024", k=10, log=False)
    direct = {h.fact.pk: h.signals for h in result.items if "supplement" not in h.signals}
    assert quiet.pk in direct and "time_rank" in direct[quiet.pk]


def test_the_time_list_belongs_to_hybrid_only(memory, settings):
    user = memory.user()
    _hikes(memory, user)
    for mode in ("lexical", "vector"):
        result = recall(user=user, query="hiking on 10 June 2024", mode=mode, k=3, log=False)
        assert all("time_rank" not in h.signals for h in result.items), mode
    settings.MEMORY_RECALL_TIME_WEIGHT = 0.0
    result = recall(user=user, query="hiking on 10 June 2024", k=3, log=False)
    assert all("time_rank" not in h.signals for h in result.items) and result.stats["time_windows"] == []


def test_a_date_query_as_of_a_past_time_still_answers_from_that_time(memory):
    user = memory.user()
    march, june, _ = _hikes(memory, user)
    result = recall(user=user, query="hiking on 10 June 2024", as_of=datetime(2024, 7, 1, tzinfo=UTC), log=False)
    assert [h.fact.pk for h in result.items][:2] == [june.pk, march.pk]


def test_every_candidate_is_scored_on_both_sides_before_fusion(memory, settings):
    """With one candidate per list, the fact only the vector side ranked first still gets
    its BM25 score (and the other way round), so the fusion weighs both signals for both."""
    user = memory.user()
    tutor = memory.store(user, "User is being taught to play the guitar by a tutor every week.")
    sheet = memory.store(user, "User's spreadsheet lists lessons, lessons, lessons and more lessons.")
    for filler in ("User likes tea.", "User owns a bicycle.", "User lives near the sea."):
        memory.store(user, filler)
    settings.MEMORY_RECALL_CANDIDATES = 1
    query = "guitar lessons"
    assert recall(user=user, query=query, mode="lexical", k=1, log=False).items[0].fact.pk == sheet.pk
    assert recall(user=user, query=query, mode="vector", k=1, log=False).items[0].fact.pk == tutor.pk

    top = recall(user=user, query=query, k=1, log=False).items[0]
    assert {"lexical_rank", "vector_rank", "lexical_score", "vector_similarity"} <= top.signals.keys()

    settings.MEMORY_RECALL_FULL_FUSION = False
    top = recall(user=user, query=query, k=1, log=False).items[0]
    assert len({"lexical_rank", "vector_rank"} & top.signals.keys()) == 1


def _exchange(user, question: str, answer: str, reply: str) -> Turn:
    common = {"tenant_id": user.tenant_id, "user": user, "session_id": "s1", "state": TurnState.DONE}
    Turn.objects.create(turn_id="t1", user_input="Hello again!", assistant_response=question, **common)
    return Turn.objects.create(turn_id="t2", user_input=answer, assistant_response=reply, **common)


def test_a_fact_stated_as_an_answer_is_found_by_the_question_it_answered(memory, settings):
    user = memory.user()
    turn = _exchange(user, "Nice! Which city do you work from these days?", "Mostly Porto now.", "Porto is lovely.")
    porto = memory.store(user, "User is based in Porto.", source_turn=turn, source_excerpt="Mostly Porto now.")
    memory.store(user, "User drinks green tea.")

    result = recall(user=user, query="which city does the user work from", mode="lexical", k=1, log=False)
    assert result.items[0].fact.pk == porto.pk and result.items[0].signals["lexical_rank"] == 1
    assert [fid for fid, _ in fts.search(user.pk, ["city"], 5)] == [porto.pk]  # the question's word is indexed


def test_without_the_exchange_only_the_facts_own_words_are_indexed(memory, settings):
    settings.MEMORY_RECALL_EXCHANGE_CHARS = 0
    user = memory.user()
    turn = _exchange(user, "Which city do you work from these days?", "Mostly Porto now.", "Porto is lovely.")
    porto = memory.store(user, "User is based in Porto.", source_turn=turn, source_excerpt="Mostly Porto now.")
    assert fts.search(user.pk, ["city"], 5) == []
    assert [fid for fid, _ in fts.search(user.pk, ["porto"], 5)] == [porto.pk]


def test_a_fact_is_found_by_the_other_sentences_of_the_message_it_was_stated_in(memory):
    """The write path keeps one sentence as the excerpt; the index takes the whole message."""
    user = memory.user()
    message = "We finally went camping last weekend. Fresh air, a cozy cabin by the lake and no phones."
    turn = _exchange(user, "How was your weekend?", message, "That sounds lovely.")
    trip = memory.store(
        user,
        "User went camping last weekend.",
        source_turn=turn,
        source_excerpt="We finally went camping last weekend.",
    )
    memory.store(user, "User drinks green tea.")
    assert [fid for fid, _ in fts.search(user.pk, ["cabin"], 5)] == [trip.pk]


def test_an_excerpt_that_is_not_part_of_the_source_message_is_indexed_as_it_is(memory):
    user = memory.user()
    turn = _exchange(user, "How was your weekend?", "We went camping by the lake.", "Lovely.")
    trip = memory.store(user, "User went camping.", source_turn=turn, source_excerpt="an excerpt from elsewhere")
    assert fts.search(user.pk, ["lake"], 5) == []
    assert [fid for fid, _ in fts.search(user.pk, ["elsewhere"], 5)] == [trip.pk]


def test_forgetting_one_fact_of_a_message_takes_its_words_out_of_the_other_facts_index_rows(memory):
    """Facts index their whole source message; once one fact of it is forgotten, its
    siblings keep only their own excerpt, so the forgotten words cannot find them."""
    from facts import services as fs

    user = memory.user()
    message = "We went camping by the lake. I am also being treated for migraines."
    turn = _exchange(user, "How was your weekend?", message, "Sorry to hear that.")
    trip = memory.store(
        user, "User went camping by the lake.", source_turn=turn, source_excerpt="We went camping by the lake."
    )
    health = memory.store(
        user,
        "User is treated for migraines.",
        source_turn=turn,
        source_excerpt="I am also being treated for migraines.",
    )
    assert {fid for fid, _ in fts.search(user.pk, ["migraines"], 5)} == {trip.pk, health.pk}

    memory.call(fs.fact_forget, fact=health)
    assert fts.search(user.pk, ["migraines"], 5) == []
    assert [fid for fid, _ in fts.search(user.pk, ["lake"], 5)] == [trip.pk]
