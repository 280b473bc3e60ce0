from __future__ import annotations

from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from profiles.metrics import tenant_metrics
from tests.profiles.helpers import finished_turn, user_of


def _families(body: bytes) -> dict:
    return {f.name: f for f in text_string_to_metric_families(body.decode())}


def test_metrics_parses_as_prometheus_text_with_every_tenant(alice, bob, api, store, settings):
    from recall.models import EvalRun

    settings.METRICS_ALLOW_LOOPBACK = True
    user = user_of(alice)
    store(user, "User never eats pork.", "hard_preference")
    for n, took in enumerate([100, 300, 500]):
        finished_turn(user, n, took_ms=took)
    api.post("/users/u1/recall", {"query": "pork", "mode": "lexical"})
    api.post("/users/u1/context", {"max_tokens": 50})
    EvalRun.objects.create(corpus="observations", questions=3, results={"hybrid": {"recall@10": 0.6, "hit@10": 0.8}})

    response = Client(REMOTE_ADDR="127.0.0.1").get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    families = _families(response.content)

    def sample(name, **labels):
        for family in families.values():
            for s in family.samples:
                if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                    return s.value
        raise AssertionError(f"no sample {name} {labels}")

    tid = str(alice.id)
    assert sample("memory_recall_lexical_hit_rate", tenant=tid, tenant_name="alice") == 1.0
    expected = tenant_metrics(alice.tenant, window="24h")["extraction"]["latency_ms"]["end_to_end"]
    assert sample("memory_extraction_latency_seconds", tenant=tid, quantile="0.5") == expected["p50"] / 1000
    assert sample("memory_extraction_latency_seconds", tenant=tid, quantile="0.95") == expected["p95"] / 1000
    assert sample("memory_turns_total", tenant=tid, state="done") == 3
    assert sample("memory_recall_requests_total", tenant=tid, mode="lexical", degraded="false") == 1
    assert sample("memory_context_requests_total", tenant=tid) == 1
    assert sample("memory_pending_open", tenant=str(bob.id)) == 0
    assert sample("memory_eval_recall", corpus="observations", mode="hybrid", metric="recall@10") == 0.6
    # A rate without traffic is absent, not a fake 0%.
    assert not [s for s in families["memory_recall_vector_hit_rate"].samples if s.labels["tenant"] == str(bob.id)]


def test_tenant_names_are_escaped_in_labels(db, settings):
    from facts.models import Tenant

    settings.METRICS_ALLOW_LOOPBACK = True
    Tenant.objects.create(name='Quote " and \\ backslash\nnewline')
    families = _families(Client(REMOTE_ADDR="127.0.0.1").get("/metrics").content)
    names = {s.labels["tenant_name"] for s in families["memory_pending_open"].samples}
    assert names == {'Quote " and \\ backslash\nnewline'}


def test_without_a_token_a_loopback_client_is_refused_unless_allowed_explicitly(db, settings):
    settings.METRICS_TOKEN = ""
    settings.METRICS_ALLOW_LOOPBACK = False
    # A reverse proxy on the same host forwards every client from loopback.
    refused = Client(REMOTE_ADDR="127.0.0.1").get("/metrics")
    assert refused.status_code == 403 and b"METRICS_ALLOW_LOOPBACK" in refused.content


def test_with_loopback_allowed_and_no_token_only_loopback_may_scrape(db, settings):
    settings.METRICS_TOKEN = ""
    settings.METRICS_ALLOW_LOOPBACK = True
    assert Client(REMOTE_ADDR="::1").get("/metrics").status_code == 200
    refused = Client(REMOTE_ADDR="10.1.2.3").get("/metrics")
    assert refused.status_code == 403 and b"METRICS_TOKEN" in refused.content


def test_with_a_token_every_scraper_must_present_it(db, settings):
    settings.METRICS_TOKEN = "s3cret-token"
    remote = Client(REMOTE_ADDR="10.1.2.3")
    assert remote.get("/metrics").status_code == 401
    assert remote.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 401  # the token applies to loopback too
    ok = remote.get("/metrics", headers={"Authorization": "Bearer s3cret-token"})
    assert ok.status_code == 200 and b"memory_pending_open" in ok.content
