from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from core.stats import percentile
from facts import services
from facts.models import TurnState
from profiles.metrics import tenant_metrics
from tests.base import ApiClient, issue_key
from tests.profiles.helpers import finished_turn, user_of


@pytest.fixture
def staff(db):
    return services.Actor.staff(get_user_model().objects.create_user("sam", password="pw-for-tests"))


def _propose(user, text: str, key: str):
    """A high-risk change to a confirmed fact: held for staff, not applied."""
    result = services.fact_store(
        user=user, text=text, actor=services.Actor.extractor("llm"), category="identity", key=key
    )
    assert result.outcome == "pending"
    return result.fact


def test_approve_and_reject_move_the_wrong_overwrite_and_resolution_rates(alice, store, staff):
    user = user_of(alice)
    for key, text in (("name", "User's name is Dana."), ("home_city", "User lives in Lisbon.")):
        fact = store(user, text, "identity", key)
        # A confirmed, long-known fact: a change to it waits for staff.
        fact.confidence = 0.95
        fact.save(update_fields=["confidence"])
    renamed = _propose(user, "User's name is Dara.", "name")
    moved = _propose(user, "User lives in Porto.", "home_city")

    before = tenant_metrics(alice.tenant, window="24h")
    assert before["overwrites"]["held_for_staff"] == 2 and before["overwrites"]["wrong_overwrite_rate"] == 0.0
    assert before["pending"]["created"] == 2 and before["pending"]["resolution_rate"] == 0.0
    assert before["pending"]["open_now"] == 2 and before["pending"]["open_age_s"]["max"] >= 0

    services.pending_approve(fact=renamed, actor=staff)
    after_approve = tenant_metrics(alice.tenant, window="24h")
    assert after_approve["pending"]["resolution_rate"] == 0.5 and after_approve["pending"]["approved"] == 1
    assert after_approve["overwrites"]["wrong_overwrite_rate"] == 0.0
    assert after_approve["pending"]["open_now"] == 1

    services.pending_reject(fact=moved, actor=staff)
    after_reject = tenant_metrics(alice.tenant, window="24h")
    assert after_reject["pending"]["resolution_rate"] == 1.0 and after_reject["pending"]["rejected"] == 1
    assert after_reject["overwrites"]["rejected_by_staff"] == 1
    assert after_reject["overwrites"]["wrong_overwrite_rate"] == 0.5
    assert after_reject["pending"]["open_now"] == 0
    assert after_reject["pending"]["time_to_resolve_s"]["count"] == 2


def test_a_staff_revert_of_an_automatic_supersession_counts_as_a_wrong_overwrite(alice, store, staff):
    user = user_of(alice)
    store(user, "User prefers tabs.", "soft_preference", "indent")
    store(user, "User drinks tea.", "soft_preference", "drink")
    extractor = services.Actor.extractor("llm")
    kept = services.fact_store(
        user=user, text="User prefers spaces.", actor=extractor, category="soft_preference", key="indent"
    )
    wrong = services.fact_store(
        user=user, text="User drinks coffee.", actor=extractor, category="soft_preference", key="drink"
    )
    assert kept.outcome == wrong.outcome == "superseded"
    assert tenant_metrics(alice.tenant, window="24h")["overwrites"]["wrong_overwrite_rate"] == 0.0

    services.fact_supersede(fact=wrong.fact, text="User drinks tea.", actor=staff, reason="extractor misheard")
    overwrites = tenant_metrics(alice.tenant, window="24h")["overwrites"]
    assert overwrites["automatic_supersessions"] == 2  # the staff correction is not itself a proposal
    assert overwrites["reverted_by_staff"] == 1 and overwrites["wrong_overwrite_rate"] == 0.5


def test_extraction_latency_percentiles_and_series_follow_the_turns(alice):
    user = user_of(alice)
    for n, took in enumerate([100, 200, 300, 400, 1000]):
        finished_turn(user, n, took_ms=took, ago_s=600)
    finished_turn(user, 99, took_ms=50_000, ago_s=3 * 86400)  # outside 24h, inside 7d
    finished_turn(user, 98, state=TurnState.SKIPPED, ago_s=60)

    day = tenant_metrics(alice.tenant, window="24h")["extraction"]
    assert day["latency_ms"]["end_to_end"] == {"p50": 300.0, "p95": 880.0, "count": 5}
    assert day["latency_ms"]["llm"]["p50"] == 150.0
    assert day["turns"]["done"] == 5 and day["turns"]["skipped"] == 1
    measured = [b for b in day["series"] if b["turns"]]
    assert len(day["series"]) == 24 and len(measured) == 1 and measured[0]["p50_ms"] == 300.0

    week = tenant_metrics(alice.tenant, window="7d")["extraction"]
    assert week["latency_ms"]["end_to_end"]["count"] == 6
    assert week["latency_ms"]["end_to_end"]["p95"] > 10_000


def test_live_recall_traffic_gives_the_lexical_and_vector_hit_rates(api, alice, store, settings):
    # A similarity floor makes "no vector hit" possible for a nonsense query.
    settings.MEMORY_RECALL_MIN_SIMILARITY = 0.5
    user = user_of(alice)
    store(user, "User lives in Lisbon.", "identity", "home_city")
    store(user, "User likes green tea.", "soft_preference")
    assert tenant_metrics(alice.tenant, window="1h")["recall"]["lexical_hit_rate"] is None

    for query, mode in (
        ("Which city does the user live in, Lisbon?", "hybrid"),
        ("qxzv plorbt wuzzle", "hybrid"),
        ("green tea", "lexical"),
        ("User likes green tea", "vector"),
    ):
        assert api.post("/users/u1/recall", {"query": query, "mode": mode}).status_code == 200

    recall = tenant_metrics(alice.tenant, window="1h")["recall"]
    assert recall["requests"] == 4 and recall["by_mode"] == {"hybrid": 2, "lexical": 1, "vector": 1}
    assert recall["lexical_requests"] == 3 and recall["lexical_hit_rate"] == pytest.approx(2 / 3, abs=1e-3)
    assert recall["vector_requests"] == 3 and recall["vector_hit_rate"] == pytest.approx(2 / 3, abs=1e-3)
    assert recall["latency_ms"]["count"] == 4


def test_context_token_cost_is_tracked(api, alice, store):
    store(user_of(alice), "User never eats pork.", "hard_preference")
    first = api.post("/users/u1/context", {"max_tokens": 100}).json()
    second = api.post("/users/u1/context", {"max_tokens": 5}).json()
    context = tenant_metrics(alice.tenant, window="1h")["context"]
    assert context["requests"] == 2
    assert context["tokens_total"] == first["tokens"] + second["tokens"]
    assert context["budget_use"] == pytest.approx((first["tokens"] + second["tokens"]) / 105, abs=1e-3)
    assert context["dropped_per_request"] == 0.5  # the 5-token block had to drop the fact


def test_the_latest_eval_run_is_reported_with_deltas_against_lexical(alice):
    from recall.models import EvalRun

    old = {"lexical": {"recall@10": 0.1}, "hybrid": {"recall@10": 0.2}}
    EvalRun.objects.create(corpus="turns", questions=10, results=old, created_at=timezone.now() - timedelta(days=1))
    EvalRun.objects.create(
        corpus="observations",
        questions=760,
        results={
            "lexical": {
                "recall@5": 0.50,
                "recall@10": 0.576,
                "recall@20": 0.66,
                "hit@10": 0.7,
                "p50_ms": 2.0,
                "p95_ms": 5.0,
            },
            "vector": {
                "recall@5": 0.52,
                "recall@10": 0.594,
                "recall@20": 0.68,
                "hit@10": 0.71,
                "p50_ms": 9.0,
                "p95_ms": 14.0,
            },
            "hybrid": {
                "recall@5": 0.55,
                "recall@10": 0.615,
                "recall@20": 0.70,
                "hit@10": 0.74,
                "p50_ms": 11.0,
                "p95_ms": 17.0,
            },
        },
    )
    evaluation = tenant_metrics(alice.tenant, window="24h")["eval_recall"]
    assert evaluation["corpus"] == "observations" and evaluation["questions"] == 760
    assert evaluation["deltas_vs_lexical"]["hybrid"]["recall@10"] == pytest.approx(0.039)
    assert evaluation["deltas_vs_lexical"]["vector"]["recall@10"] == pytest.approx(0.018)


def test_metrics_are_per_tenant(alice, bob, store):
    finished_turn(user_of(alice), 1, ago_s=60)
    assert tenant_metrics(bob.tenant, window="24h")["extraction"]["turns"]["done"] == 0
    assert tenant_metrics(alice.tenant, window="24h")["extraction"]["turns"]["done"] == 1


def test_the_metrics_route_answers_json_for_the_keys_tenant(api, bob_api, alice):
    finished_turn(user_of(alice), 1, took_ms=250, ago_s=60)
    body = api.get("/metrics", window="24h").json()
    assert body["tenant_id"] == str(alice.id) and body["window"] == "24h"
    assert body["extraction"]["latency_ms"]["end_to_end"]["p50"] == 250.0
    for part in ("recall", "overwrites", "pending", "extraction", "context", "eval_recall"):
        assert part in body
    assert bob_api.get("/metrics", window="24h").json()["extraction"]["turns"]["done"] == 0
    assert api.get("/metrics", window="5y").status_code == 422
    assert ApiClient(None).get("/metrics").status_code == 401
    assert ApiClient(issue_key(alice.tenant, ["write"])).get("/metrics").status_code == 403


def test_percentile_interpolates_between_ranks():
    assert percentile([], 0.5) is None
    assert percentile([5.0], 0.95) == 5.0
    assert percentile([4.0, 1.0, 3.0, 2.0], 0.5) == 2.5
    assert percentile([10.0, 20.0], 0.95) == pytest.approx(19.5)
