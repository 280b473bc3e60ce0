"""SQLite: the bytes of an erasure leave the files at the request (secure_delete, then the WAL
checkpoint after commit), and the receipt says when. PostgreSQL's receipts are stamped by the
compaction pass (tests/facts/test_privacy_raw_bytes_postgresql.py)."""

from __future__ import annotations

import pytest

from facts import privacy, services
from facts.models import DeletionReceipt
from tests.facts.dashboard_helpers import memory_user

pytestmark = [pytest.mark.sqlite_only, pytest.mark.django_db(transaction=True)]

STAFF = services.Actor("staff", "ines")


def test_an_erase_receipt_says_when_the_bytes_left_the_files(alice):
    user = memory_user(alice.tenant, "leaving")
    services.fact_store(user=user, text="User lives in Quillborough.", actor=STAFF)

    receipt = privacy.user_erase(user=user, actor=STAFF)

    stamped = DeletionReceipt.objects.get(pk=receipt.pk).bytes_gone_at
    assert stamped is not None and stamped >= receipt.created_at


def test_a_forget_by_key_receipt_says_when_the_bytes_left_the_files(alice):
    user = memory_user(alice.tenant, "keyed")
    services.fact_store(user=user, text="User lives in Quillborough.", actor=STAFF, key="home_city")

    receipt = privacy.user_forget_key(user=user, key="home_city", actor=STAFF)

    assert DeletionReceipt.objects.get(pk=receipt.pk).bytes_gone_at is not None
