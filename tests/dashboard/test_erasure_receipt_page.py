"""The receipts page says when each erasure's bytes left the database files: at the request on
SQLite, after the compaction pass on PostgreSQL (docs/deployment.md)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from core import engine
from facts import privacy, services
from facts.models import DeletionReceipt
from tests.facts.dashboard_helpers import memory_user, staff_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_receipts_page_says_when_the_erased_bytes_left_the_files(alice):
    user = memory_user(alice.tenant, "leaving")
    services.fact_store(user=user, text="User lives in Quillborough.", actor=services.Actor("staff", "ines"))
    receipt = privacy.user_erase(user=user, actor=services.Actor("staff", "ines"))
    client = Client()
    client.force_login(staff_of(alice.tenant, "ines"))
    url = reverse("dashboard-receipts", kwargs={"tenant_id": alice.tenant.pk})

    if connection.vendor == "postgresql":
        assert "pending (next compaction pass)" in client.get(url).content.decode()
        assert engine.current().compact_pass() is not None
    gone = DeletionReceipt.objects.get(pk=receipt.pk).bytes_gone_at
    assert gone is not None
    html = client.get(url).content.decode()
    assert "Bytes gone (UTC)" in html and gone.strftime("%Y-%m-%d %H:%M:%S") in html
