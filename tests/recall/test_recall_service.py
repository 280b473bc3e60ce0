from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from facts import services as fs
from facts.models import Fact, Status
from recall import fts, vec
from recall.models import RecallLog
from recall.services import recall

pytestmark = pytest.mark.django_db


def _ids(result):
    return [hit.fact.pk for hit in result.items]


def _direct(result):
    return [hit.fact.pk for hit in result.items if "supplement" not in hit.signals]


def test_it_finds_a_fact_by_words_and_by_meaning(memory):
    user = memory.user()
    peanuts = memory.store(user, "User is allergic to peanuts.")
    berlin = memory.store(user, "User lives in Berlin.")
    memory.store(user, "User works with Postgres databases.")

    lexical = recall(user=user, query="peanuts", mode="lexical", log=False)
    assert _direct(lexical) == [peanuts.pk]
    assert [h.signals["supplement"] for h in lexical.items[1:]] == ["recent", "recent"]
    assert lexical.items[0].signals["lexical_rank"] == 1

    vector = recall(user=user, query="Which city is their home?", mode="vector", log=False)
    assert _ids(vector)[0] == berlin.pk
    assert vector.items[0].signals["vector_rank"] == 1

    hybrid = recall(user=user, query="food allergy peanuts", log=False)
    assert _ids(hybrid)[0] == peanuts.pk
    assert {"lexical_rank", "vector_rank", "category_weight"} <= hybrid.items[0].signals.keys()


def test_retired_and_undecided_facts_never_come_back(memory):
    user = memory.user()
    old = memory.store(user, "User drives a red bicycle.", key="bike")
    new = memory.call(fs.fact_supersede, fact=old, text="User drives a green bicycle.")
    expired = memory.store(user, "User rents a bicycle garage.", key="garage")
    memory.call(fs.fact_expire, fact=expired)
    identity = memory.store(
        user, "User's bicycle name is Rosie.", category="identity", key="bike_name", confidence=0.95
    )
    pending = memory.store(user, "User's bicycle name is Bolt.", category="identity", key="bike_name")
    rejected = memory.store(user, "User's bicycle name is Comet.", category="identity", key="bike_name")
    memory.call(fs.pending_reject, fact=rejected)
    assert Fact.objects.get(pk=pending.pk).status == Status.PENDING

    for mode in ("hybrid", "lexical", "vector"):
        got = set(_ids(recall(user=user, query="bicycle", mode=mode, k=50, log=False)))
        assert got == {new.pk, identity.pk}, mode


def test_as_of_returns_the_fact_that_was_true_then(memory):
    user = memory.user()
    berlin = memory.store(user, "User lives in Berlin.", key="home_city")
    before_move = timezone.now()
    lisbon = memory.call(fs.fact_supersede, fact=berlin, text="User lives in Lisbon.")

    now = recall(user=user, query="where does the user live", k=5, log=False)
    assert _ids(now) == [lisbon.pk]

    then = recall(user=user, query="where does the user live", k=5, as_of=before_move, log=False)
    assert _ids(then) == [berlin.pk]
    lexical_then = recall(user=user, query="Berlin", mode="lexical", as_of=before_move, log=False)
    assert _ids(lexical_then) == [berlin.pk] and lexical_then.items[0].signals["lexical_rank"] == 1
    assert recall(user=user, query="Berlin", as_of=before_move - timedelta(days=1), log=False).items == []


def test_a_supplement_never_outranks_a_direct_hit(memory):
    user = memory.user()
    direct = memory.store(user, "User plays the cello in an orchestra.", entities=["cello"])
    neighbour = memory.store(user, "User bought new strings last week.", entities=["cello"])
    recent = memory.store(user, "User drinks green tea.")
    result = recall(user=user, query="orchestra", mode="lexical", k=5, log=False)

    assert _ids(result) == [direct.pk, neighbour.pk, recent.pk]
    assert "supplement" not in result.items[0].signals
    assert result.items[1].signals == {"supplement": "graph", "via_entity": "cello"}
    assert result.items[2].signals == {"supplement": "recent"}
    assert result.items[0].score > result.items[1].score > result.items[2].score


def test_an_empty_query_returns_the_most_recent_live_facts(memory):
    user = memory.user()
    first = memory.store(user, "User likes tea.")
    second = memory.store(user, "User likes coffee.")
    result = recall(user=user, query="  ", k=5, log=False)
    assert _ids(result) == [second.pk, first.pk]


def test_users_and_tenants_are_isolated_even_with_identical_text(memory, bob):
    me = memory.user("same-id")
    neighbour = memory.user("other-user")
    stranger = memory.user("same-id", tenant=bob.tenant)
    mine = memory.store(me, "User collects vintage typewriters.")
    memory.store(neighbour, "User collects vintage typewriters.")
    memory.store(stranger, "User collects vintage typewriters.")

    for mode in ("hybrid", "lexical", "vector"):
        assert _ids(recall(user=me, query="vintage typewriters", mode=mode, k=50, log=False)) == [mine.pk]

    # At the SQL level too: the index managers only ever return the asked user's rows.
    assert [fid for fid, _ in fts.search(me.pk, ["typewriters"], 50)] == [mine.pk]
    vector = vec.vectors([mine.pk])[mine.pk]
    assert [fid for fid, _ in vec.search(me.pk, vector, 50, _model_name())] == [mine.pk]


def _model_name():
    from recall.embeddings import get_embedder

    return get_embedder().model_name


def test_vectors_and_index_rows_follow_liveness(memory):
    user = memory.user()
    fact = memory.store(user, "User owns a sailboat.", key="boat")
    assert fact.pk in vec.vectors([fact.pk]) and fts.indexed_hashes([fact.pk])
    assert Fact.objects.get(pk=fact.pk).embedding_model == _model_name()

    replacement = memory.call(fs.fact_supersede, fact=fact, text="User owns a canoe.")
    assert vec.vectors([fact.pk]) == {} and fts.indexed_hashes([fact.pk]) == {}
    assert replacement.pk in vec.vectors([replacement.pk])

    forgotten = replacement.pk
    memory.call(fs.fact_forget, fact=replacement)
    assert vec.vectors([forgotten]) == {} and fts.indexed_hashes([forgotten]) == {}
    assert fts.search(user.pk, ["canoe"], 10) == []


def test_erasing_a_user_removes_their_index_rows_only(memory):
    from facts.signals import user_erasing

    user, other = memory.user("gone"), memory.user("stays")
    memory.store(user, "User hikes.")
    memory.store(user, "User bakes bread.")
    kept = memory.store(other, "User hikes.")
    replies = dict(user_erasing.send(sender=None, user=user))
    counts = next(v for k, v in replies.items() if k.__module__ == "recall.receivers")
    assert counts == {"fts_rows": 2, "vectors": 2, "episode_rows": 0, "episode_vectors": 0}
    assert fts.count_user(user.pk) == 0 and vec.count_user(user.pk) == 0
    assert [fid for fid, _ in fts.search(other.pk, ["hikes"], 5)] == [kept.pk]


def test_budget_packing_keeps_the_best_hits_that_fit(memory):
    user = memory.user()
    long = memory.store(user, "User writes poems about the sea, " + "long " * 30 + "and waves.")
    short = memory.store(user, "User writes poems.")
    result = recall(user=user, query="poems sea waves", k=5, budget_chars=40, log=False)
    assert _ids(result) == [short.pk]
    assert sum(len(h.fact.text) for h in result.items) <= 40
    assert long.pk in _ids(recall(user=user, query="poems sea waves", k=5, log=False))


def test_category_weights_lift_identity_over_other(memory):
    user = memory.user()
    other = memory.store(user, "User mentioned the name Ada once.", category="other")
    identity = memory.store(user, "User's name is Ada.", category="identity")
    result = recall(user=user, query="name Ada", log=False)
    signals = {h.fact.pk: h.signals for h in result.items}
    assert signals[identity.pk]["category_weight"] == 1.3 and signals[other.pk]["category_weight"] == 1.0


def test_it_logs_one_row_without_user_text(memory):
    user = memory.user()
    memory.store(user, "User likes jazz.")
    recall(user=user, query="jazz", k=7)
    log = RecallLog.objects.get()
    assert (log.tenant_id, log.mode, log.k, log.returned, log.degraded) == (user.tenant_id, "hybrid", 7, 1, False)
    assert log.lexical_hits == 1 and log.vector_hits == 1
    recall(user=user, query="jazz", log=False)
    assert RecallLog.objects.count() == 1


def test_linear_blend_is_the_alternative_fusion(memory, settings):
    settings.MEMORY_RECALL_FUSION = "linear"
    user = memory.user()
    target = memory.store(user, "User is allergic to peanuts.")
    memory.store(user, "User lives in Berlin.")
    result = recall(user=user, query="peanut allergy", log=False)
    assert _ids(result)[0] == target.pk
    assert 0 < result.items[0].score <= 1.0


def test_bad_mode_or_k_is_rejected(memory):
    from core.errors import Rejected

    user = memory.user()
    with pytest.raises(Rejected):
        recall(user=user, query="x", mode="fuzzy")
    with pytest.raises(Rejected):
        recall(user=user, query="x", k=0)
