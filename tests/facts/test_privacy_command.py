"""manage.py erase_user --tenant T USER_ID."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from facts.models import DeletionReceipt, MemoryUser
from tests.facts.dashboard_helpers import seed_everything


def _run(*args) -> dict:
    out = StringIO()
    call_command("erase_user", *args, stdout=out)
    return json.loads(out.getvalue())


def test_it_erases_by_tenant_id_and_prints_the_receipt(alice):
    seed_everything(alice.tenant, "u-1")
    printed = _run("--tenant", str(alice.tenant.pk), "u-1")
    assert printed["counts"]["facts"] >= 4 and len(printed["user_hash"]) == 64
    assert not MemoryUser.objects.filter(external_id="u-1").exists()
    receipt = DeletionReceipt.objects.get(pk=printed["receipt_id"])
    assert (receipt.actor_kind, receipt.actor_id) == ("system", "erase_user command")


def test_it_accepts_the_tenant_name_and_counts_without_erasing_on_dry_run(alice):
    seed_everything(alice.tenant, "u-1")
    printed = _run("--tenant", "alice", "--dry-run", "u-1")
    assert printed["dry_run"] is True and printed["counts"]["turns"] == 1
    assert MemoryUser.objects.filter(external_id="u-1").exists()
    assert not DeletionReceipt.objects.exists()


def test_it_says_what_to_do_for_an_unknown_tenant_or_user(alice, bob):
    seed_everything(alice.tenant, "u-1")
    with pytest.raises(CommandError, match="No tenant"):
        _run("--tenant", "nobody", "u-1")
    with pytest.raises(CommandError, match="has no user"):
        _run("--tenant", "bob", "u-1")
    assert MemoryUser.objects.filter(external_id="u-1").exists()
