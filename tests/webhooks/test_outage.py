"""0 lost deliveries across a receiver outage, and the delivery log it leaves.

The receiver refuses connections for the first half of the outage and answers 503 for the
second, while a fact is stored every second; then it is up. Every event must arrive, each
webhook-id accepted once, every signature verified. `make test` runs a 3 s outage; the
measurement in docs/api.md is the 60 s one:

    WEBHOOK_OUTAGE_SECONDS=60 .venv/bin/python -m pytest -q -s -p no:cacheprovider tests/webhooks/test_outage.py
"""

from __future__ import annotations

import os
import statistics
import time

import pytest

from tests.webhooks.receiver import Receiver, Server, free_port
from webhooks.models import DeliveryState, WebhookDelivery
from webhooks.services import deliver_due

pytestmark = pytest.mark.django_db

OUTAGE = float(os.environ.get("WEBHOOK_OUTAGE_SECONDS", "3"))


@pytest.fixture(autouse=True)
def _receivers_on_loopback(settings):
    # The receivers here listen on 127.0.0.1, which the address guard refuses by default
    # (tests/webhooks/test_addresses.py tests the guard).
    settings.MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS = True


def test_no_delivery_is_lost_across_a_receiver_outage(api, settings):
    settings.MEMORY_WEBHOOK_BACKOFF_SECONDS = 0.5
    settings.MEMORY_WEBHOOK_BACKOFF_MAX_SECONDS = max(1.0, OUTAGE / 8)
    port = free_port()
    rec = Receiver()
    rec.secret = api.post("/webhooks", {"url": f"http://127.0.0.1:{port}/hook", "events": ["fact.created"]}).json()[
        "secret"
    ]
    started = time.monotonic()
    server = None
    n = 0
    while time.monotonic() - started < OUTAGE:
        if server is None and time.monotonic() - started >= OUTAGE / 2:
            rec.down_until = started + OUTAGE  # listening now, but 503 until the outage ends
            server = Server(rec, port)
        api.post("/users/ana/facts", {"text": f"Ana's hive number {n} is painted blue"})
        n += 1
        deliver_due()
        time.sleep(max(0.0, started + n - time.monotonic()))
    up_at = time.monotonic()
    try:
        while WebhookDelivery.objects.filter(state=DeliveryState.QUEUED).exists():
            assert time.monotonic() - up_at < 4 * settings.MEMORY_WEBHOOK_BACKOFF_MAX_SECONDS + 30
            deliver_due()
            time.sleep(0.05)
        drained = time.monotonic() - up_at
    finally:
        if server is not None:
            server.stop()

    rows = list(WebhookDelivery.objects.all())
    lost = {r.message_id for r in rows} - set(rec.accepted)
    attempts = [r.attempts for r in rows]
    failed_tries = sum(attempts) - len(rows)  # each delivery ends with one 200
    print(
        f"\noutage {OUTAGE:.0f} s (refused {OUTAGE / 2:.1f} s, then 503): events {len(rows)}, "
        f"delivered {sum(r.state == DeliveryState.DELIVERED for r in rows)}, lost {len(lost)}, "
        f"duplicates accepted {rec.duplicates}, bad signatures {rec.bad_signatures}, "
        f"attempts per delivery median {statistics.median(attempts)} max {max(attempts)}, "
        f"failed attempts {failed_tries} ({sum(1 for a in rec.attempts if a.status == 503)} answered 503), "
        f"queue drained {drained:.1f} s after the receiver came back"
    )
    assert len(rows) == n and not lost
    assert rec.duplicates == 0 and rec.bad_signatures == 0
    assert all(r.state == DeliveryState.DELIVERED for r in rows)
    assert max(attempts) >= 2  # the outage was felt
