"""The dashboard's webhooks page: the tenant's endpoints and its delivery log, for its staff only."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.facts.dashboard_helpers import staff_of
from tests.webhooks.receiver import free_port
from webhooks.models import WebhookDelivery
from webhooks.services import deliver_due

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _receivers_on_loopback(settings):
    # The receivers here listen on 127.0.0.1, which the address guard refuses by default
    # (tests/webhooks/test_addresses.py tests the guard).
    settings.MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS = True


def test_the_page_lists_the_endpoints_and_each_delivery_with_its_attempts_and_last_status(api, alice, bob):
    url = f"http://127.0.0.1:{free_port()}/hook"
    api.post("/webhooks", {"url": url, "events": ["fact.created"]})
    api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})
    deliver_due()  # nobody listens: attempt 1 fails
    row = WebhookDelivery.objects.get()
    client = Client()
    client.force_login(staff_of(alice.tenant, "ines"))

    page = client.get(reverse("dashboard-webhooks", kwargs={"tenant_id": alice.tenant.pk}))

    html = page.content.decode()
    assert page.status_code == 200
    assert url in html and "fact.created" in html and row.message_id in html
    assert "ConnectError" in html and "queued" in html
    assert "Ana keeps bees" not in html  # the log shows no payload
    outsider = Client()
    outsider.force_login(staff_of(bob.tenant, "bruno"))
    assert outsider.get(reverse("dashboard-webhooks", kwargs={"tenant_id": alice.tenant.pk})).status_code == 404
