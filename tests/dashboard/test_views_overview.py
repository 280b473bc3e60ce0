"""The tenant overview reads like a page, not like a Python repr."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from recall.models import EmbedderReport
from recall.reports import REPORT_PK
from tests.facts.dashboard_helpers import staff_of

pytestmark = pytest.mark.django_db


def _overview(tenant) -> str:
    client = Client()
    client.force_login(staff_of(tenant, "ines"))
    return client.get(reverse("dashboard-overview", kwargs={"tenant_id": tenant.pk})).content.decode()


def test_the_overview_prints_queues_as_pairs_and_times_as_dates(alice):
    # 2026-11-20 12:00:00 UTC, as a worker reports its last success.
    EmbedderReport.objects.update_or_create(pk=REPORT_PK, defaults={"last_ok_at": 1795176000.25, "worker": "w1"})

    html = _overview(alice.tenant)

    assert "{&#x27;" not in html and "{'" not in html, "a Python dict was printed"
    assert "1795176000" not in html, "an epoch number was printed"
    assert "2026-11-20 12:00:00 UTC" in html
    assert "db: " in html  # the extractor's queues, as "name: queue" pairs
