"""Webhooks: endpoints over REST (admin only), events written to the outbox with the change,
signed deliveries a receiver verifies, retries with backoff across an outage, and no word of
an erased person left in the outbox. Runs on both engines (Makefile PG_TESTS)."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from facts import privacy, services
from facts.models import MemoryUser, Turn, TurnState
from tests.base import ApiClient, issue_key
from tests.webhooks.receiver import Receiver, Server, free_port
from webhooks.models import DeliveryState, WebhookDelivery, WebhookEndpoint
from webhooks.services import backoff, deliver_due

STAFF = services.Actor("staff", "ines")
ALL = ["fact.created", "fact.changed", "fact.retired", "change.pending", "change.decided", "user.erased", "turn.failed"]


@pytest.fixture(autouse=True)
def _receivers_on_loopback(settings):
    # The receivers here listen on 127.0.0.1, which the address guard refuses by default
    # (tests/webhooks/test_addresses.py tests the guard).
    settings.MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS = True


def _subscribe(api, url: str, events=ALL) -> dict:
    response = api.post("/webhooks", {"url": url, "events": events})
    assert response.status_code == 201, response.content
    return response.json()


def _deliver_until_done(seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while WebhookDelivery.objects.filter(state=DeliveryState.QUEUED).exists() and time.monotonic() < deadline:
        deliver_due()
        time.sleep(0.02)


def _payload_texts() -> str:
    return json.dumps([d.payload for d in WebhookDelivery.objects.all()])


def test_a_stored_fact_reaches_the_receiver_signed_and_the_documented_check_verifies_it(api, receiver):
    rec, server = receiver
    created = _subscribe(api, server.url)
    rec.secret = created["secret"]
    fact = api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"}).json()

    sweep = deliver_due()

    assert sweep.delivered == 1 and rec.bad_signatures == 0
    [(msg_id, payload)] = rec.accepted.items()
    assert payload["type"] == "fact.created"
    assert payload["data"]["user_id"] == "ana"
    assert payload["data"]["fact"]["id"] == fact["id"]
    assert payload["data"]["fact"]["text"] == "Ana keeps bees on her roof"
    row = WebhookDelivery.objects.get()
    assert msg_id == row.message_id
    assert (row.state, row.attempts, row.last_status) == (DeliveryState.DELIVERED, 1, 200)


def test_a_signature_made_with_another_secret_does_not_verify(api, receiver):
    rec, server = receiver
    _subscribe(api, server.url)
    rec.secret = _subscribe(api, "http://127.0.0.1:9/other")["secret"]  # not this endpoint's
    WebhookEndpoint.objects.filter(url__endswith="/other").delete()
    api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})

    deliver_due()

    assert rec.bad_signatures == 1 and not rec.accepted
    assert WebhookDelivery.objects.get().state == DeliveryState.QUEUED  # a 400 is retried


def test_a_receiver_down_then_up_gets_every_delivery_once_after_backoffs_as_configured(api, receiver, settings):
    settings.MEMORY_WEBHOOK_BACKOFF_SECONDS = 0.2
    rec, server = receiver
    rec.secret = _subscribe(api, server.url)["secret"]
    for n in range(5):
        api.post("/users/ana/facts", {"text": f"Ana's bee hive number {n} is painted blue"})
    rec.down_until = time.monotonic() + 1.5

    _deliver_until_done(20)

    rows = list(WebhookDelivery.objects.all())
    assert len(rows) == 5 and all(r.state == DeliveryState.DELIVERED for r in rows)
    assert set(rec.accepted) == {r.message_id for r in rows}  # 0 lost
    assert rec.duplicates == 0  # each id accepted once
    for row in rows:
        tries = [a.at for a in rec.attempts if a.msg_id == row.message_id]
        assert len(tries) == row.attempts >= 2  # one 503 at least, then the 200
        # Each wait at least base x 2^(n-1) (the sweep adds a little).
        for n, (before, after) in enumerate(zip(tries, tries[1:], strict=False), start=1):
            assert after - before >= 0.2 * 2 ** (n - 1) - 0.01


def test_a_receiver_that_refuses_connections_then_listens_gets_every_delivery(api, settings):
    settings.MEMORY_WEBHOOK_BACKOFF_SECONDS = 0.1
    port = free_port()
    secret = _subscribe(api, f"http://127.0.0.1:{port}/hook")["secret"]
    api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})

    deliver_due()
    row = WebhookDelivery.objects.get()
    assert (row.attempts, row.last_status) == (1, None) and "ConnectError" in row.last_error
    rec = Receiver(secret=secret)
    server = Server(rec, port)
    try:
        _deliver_until_done(5)
    finally:
        server.stop()

    assert list(rec.accepted) == [row.message_id]


def test_a_failed_attempt_waits_the_configured_backoff(api, settings):
    settings.MEMORY_WEBHOOK_BACKOFF_SECONDS = 7
    _subscribe(api, f"http://127.0.0.1:{free_port()}/hook")
    api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})

    before = timezone.now()
    deliver_due()
    row = WebhookDelivery.objects.get()

    assert row.attempts == 1
    assert before + timedelta(seconds=7) <= row.next_attempt_at <= timezone.now() + timedelta(seconds=7)


def test_backoff_doubles_from_the_base_up_to_the_cap(settings):
    settings.MEMORY_WEBHOOK_BACKOFF_SECONDS = 10
    settings.MEMORY_WEBHOOK_BACKOFF_MAX_SECONDS = 100
    assert [backoff(n).total_seconds() for n in range(1, 6)] == [10, 20, 40, 80, 100]


def test_a_delivery_out_of_attempts_is_given_up_and_kept_in_the_log(api, settings):
    settings.MEMORY_WEBHOOK_BACKOFF_SECONDS = 0.01
    settings.MEMORY_WEBHOOK_MAX_ATTEMPTS = 2
    _subscribe(api, f"http://127.0.0.1:{free_port()}/hook")
    api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})

    _deliver_until_done(5)

    row = WebhookDelivery.objects.get()
    assert (row.state, row.attempts) == (DeliveryState.FAILED, 2)


@pytest.mark.parametrize(
    "url",
    [
        "ftp://127.0.0.1/hook",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "not a url",
        "http://",
        "",
        "http://[::1/hook",
        "http://127.0.0.1:99999/hook",
        "http://127.0.0.1/ho\x00ok",
        "http://user:pw@127.0.0.1/hook",
    ],
)
def test_a_url_that_is_not_http_is_a_422_with_nothing_written(api, url):
    response = api.post("/webhooks", {"url": url, "events": ["fact.created"]})

    assert response.status_code == 422
    assert not WebhookEndpoint.objects.exists()


def test_an_unknown_event_is_a_422_with_nothing_written(api):
    response = api.post("/webhooks", {"url": "http://127.0.0.1:9/hook", "events": ["fact.eaten"]})

    assert response.status_code == 422 and "events" in response.content.decode()
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize("scopes", [("read",), ("write",), ("read", "write")])
def test_a_read_or_write_key_cannot_manage_webhooks(api, alice, scopes):
    endpoint = _subscribe(api, "http://127.0.0.1:9/hook")
    other = ApiClient(issue_key(alice.tenant, scopes))

    assert other.post("/webhooks", {"url": "http://127.0.0.1:9/x", "events": ALL}).status_code == 403
    assert other.get("/webhooks").status_code == 403
    assert other.delete(f"/webhooks/{endpoint['id']}").status_code == 403
    assert WebhookEndpoint.objects.count() == 1


def test_the_list_shows_no_secret_and_another_tenants_endpoint_is_a_404(api, bob_api):
    endpoint = _subscribe(api, "http://127.0.0.1:9/hook", ["fact.created"])

    listed = api.get("/webhooks").json()
    assert listed == [{k: endpoint[k] for k in ("id", "url", "events", "active", "created_at")}]
    assert bob_api.get("/webhooks").json() == []
    assert bob_api.delete(f"/webhooks/{endpoint['id']}").status_code == 404
    assert api.delete(f"/webhooks/{endpoint['id']}").status_code == 204
    assert not WebhookEndpoint.objects.exists()


def test_an_endpoint_gets_only_the_events_it_subscribed_to(api, bob_api):
    _subscribe(api, "http://127.0.0.1:9/hook", ["fact.retired"])
    _subscribe(bob_api, "http://127.0.0.1:9/bob", ALL)  # another tenant: none of alice's
    fact = api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"}).json()
    api.patch(f"/facts/{fact['id']}", {"text": "Ana keeps bees in her garden"})

    rows = list(WebhookDelivery.objects.all())
    assert [(r.event, r.payload["data"]["fact"]["id"]) for r in rows] == [("fact.retired", fact["id"])]
    assert rows[0].payload["data"]["reason"]


def test_a_correction_is_changed_and_retired_and_a_forget_is_retired_without_text(api):
    _subscribe(api, "http://127.0.0.1:9/hook")
    fact = api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"}).json()
    new = api.patch(f"/facts/{fact['id']}", {"text": "Ana keeps bees in her garden"}).json()
    api.delete(f"/facts/{new['id']}")

    events = [(d.event, d.payload["data"]["fact"]["id"]) for d in WebhookDelivery.objects.order_by("pk")]
    assert events == [
        ("fact.created", fact["id"]),
        ("fact.changed", new["id"]),
        ("fact.retired", fact["id"]),
        ("fact.retired", new["id"]),
    ]
    # The forgotten fact's words are in no delivery, queued or not.
    assert "garden" not in _payload_texts()


def test_a_change_waiting_for_review_and_its_decision_are_events(api, alice):
    _subscribe(api, "http://127.0.0.1:9/hook", ["change.pending", "change.decided"])
    api.client.put(
        "/api/v1/users/ana/memory-mode",
        data=json.dumps({"mode": "confirm"}),
        content_type="application/json",
        headers=api.headers,
    )
    fact = api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"}).json()
    assert fact["status"] == "pending_confirmation"

    services.pending_approve(fact=services.fact_get(tenant=alice.tenant, fact_id=fact["id"]), actor=STAFF)

    rows = list(WebhookDelivery.objects.order_by("pk"))
    assert [r.event for r in rows] == ["change.pending", "change.decided"]
    assert rows[1].payload["data"]["decision"] == "approved"
    assert rows[0].payload["data"]["fact"]["text"] == "Ana keeps bees on her roof"


def test_a_failed_turn_is_an_event_without_its_words(api, alice):
    _subscribe(api, "http://127.0.0.1:9/hook", ["turn.failed"])
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="ana")
    turn = Turn.objects.create(
        tenant=alice.tenant, user=user, session_id="s1", turn_id="t1", user_input="my bees", state=TurnState.EXTRACTING
    )

    Turn.objects.fail(turn.pk, reason="the model timed out")

    row = WebhookDelivery.objects.get()
    assert row.event == "turn.failed"
    assert row.payload["data"] == {"user_id": "ana", "turn_id": "t1", "session_id": "s1", "attempts": 0}


@pytest.mark.django_db(transaction=True)
def test_a_change_that_rolls_back_leaves_no_delivery(alice):
    ApiClient(alice.raw_key).post("/webhooks", {"url": "http://127.0.0.1:9/hook", "events": ALL})
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="ana")

    with pytest.raises(RuntimeError), transaction.atomic():
        services.fact_store(user=user, text="Ana keeps bees on her roof", actor=STAFF)
        assert WebhookDelivery.objects.count() == 1
        raise RuntimeError("the change fails after its event was written")

    assert not WebhookDelivery.objects.exists()


def test_erasing_a_person_leaves_none_of_their_words_in_the_outbox(api, alice, receiver):
    rec, server = receiver
    rec.secret = _subscribe(api, server.url)["secret"]
    api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})
    deliver_due()  # one delivered, in the log with her words
    rec.down_until = time.monotonic() + 3600
    api.post("/users/ana/facts", {"text": "Ana's sister Zofia lives in Gdansk"})
    deliver_due()  # one queued after a 503, with her words
    api.post("/users/bo/facts", {"text": "Bo collects stamps"})  # someone else's: kept
    assert "Zofia" in _payload_texts() and "bees" in _payload_texts()

    receipt = privacy.user_erase(user=MemoryUser.objects.get(external_id="ana"), actor=STAFF)

    texts = _payload_texts()
    for word in ("Ana", "ana", "bees", "roof", "Zofia", "Gdansk"):
        assert word not in texts
    assert "Bo collects stamps" in texts
    erased = WebhookDelivery.objects.get(event="user.erased")
    assert erased.payload["data"]["receipt_id"] == receipt.pk
    assert erased.payload["data"]["user_hash"] == receipt.user_hash
    # The log keeps the delivered line (event, attempts, status) with an empty payload.
    logged = WebhookDelivery.objects.get(state=DeliveryState.DELIVERED)
    assert (logged.event, logged.attempts, logged.payload) == ("fact.created", 1, {})
    assert receipt.counts["webhook_deliveries"] == 2


def test_forgetting_a_fact_strips_its_text_from_a_queued_delivery(api):
    _subscribe(api, "http://127.0.0.1:9/hook", ["fact.created"])
    fact = api.post("/users/ana/facts", {"text": "Ana's sister Zofia lives in Gdansk"}).json()
    assert "Zofia" in _payload_texts()

    api.delete(f"/facts/{fact['id']}")

    row = WebhookDelivery.objects.get()
    assert row.state == DeliveryState.QUEUED and row.payload["data"]["fact"]["id"] == fact["id"]
    assert "Zofia" not in _payload_texts() and "text" not in row.payload["data"]["fact"]


def test_the_erasure_compaction_rewrites_the_outbox_too():
    # PostgreSQL keeps a deleted or stripped payload's bytes in the table's pages until the
    # compaction pass after an erase rewrites it (recall/engines/postgresql/compactor.py).
    from facts.scrub import user_data_tables

    assert "webhooks_webhookdelivery" in user_data_tables()


def test_a_sweep_claims_nothing_more_once_half_its_time_limit_is_spent(api, receiver, settings):
    # A sweep the task's time limit stops would leave what it had claimed waiting out a lease.
    settings.CELERY_TASK_SOFT_TIME_LIMIT = 2
    settings.MEMORY_WEBHOOK_TIMEOUT_SECONDS = 3
    rec, server = receiver
    rec.secret = _subscribe(api, server.url)["secret"]
    rec.delay = 1.2  # a slow receiver: the first answer spends the sweep's 1 s budget
    for n in range(3):
        api.post("/users/ana/facts", {"text": f"Ana's hive number {n} is painted blue"})

    sweep = deliver_due()

    assert sweep.delivered == 1
    waiting = WebhookDelivery.objects.filter(state=DeliveryState.QUEUED)
    assert waiting.count() == 2 and all(d.next_attempt_at <= timezone.now() for d in waiting)  # unclaimed
