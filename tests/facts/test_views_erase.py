"""Delete by user with typed confirmation, delete by user + key, export download, receipts."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from facts.models import DeletionReceipt, Fact, MemoryUser
from tests.facts.dashboard_helpers import seed_everything, staff_of


@pytest.fixture
def page(alice):
    markers = seed_everything(alice.tenant, "victim")
    client = Client()
    client.force_login(staff_of(alice.tenant, "ines"))
    t = alice.tenant.pk
    return {
        "client": client,
        "tenant": alice.tenant,
        "markers": markers,
        "erase": reverse("dashboard-user-erase", kwargs={"tenant_id": t, "user_id": "victim"}),
        "forget": reverse("dashboard-user-forget-key", kwargs={"tenant_id": t, "user_id": "victim"}),
        "export": reverse("dashboard-user-export", kwargs={"tenant_id": t, "user_id": "victim"}),
        "receipts": reverse("dashboard-receipts", kwargs={"tenant_id": t}),
    }


def test_it_finds_a_user_to_erase_by_search(page):
    url = reverse("dashboard-erase", kwargs={"tenant_id": page["tenant"].pk})
    html = page["client"].get(url, {"q": "vic"}).content.decode()
    assert page["erase"] in html


def test_it_previews_the_counts_per_kind_before_erasing(page):
    html = page["client"].get(page["erase"]).content.decode()
    for label in ("Facts (all statuses)", "History entries", "Entities", "Edges", "Turns", "Lexical index rows"):
        assert label in html
    assert 'data-kind="turns"' in html and MemoryUser.objects.filter(external_id="victim").exists()


def test_it_erases_nothing_when_the_typed_id_does_not_match(page):
    r = page["client"].post(page["erase"], {"confirm": "Victim"})
    assert r.status_code == 400 and "not this user" in r.content.decode()
    assert MemoryUser.objects.filter(external_id="victim").exists() and not DeletionReceipt.objects.exists()


def test_it_erases_after_the_typed_confirmation_and_lists_the_receipt(page):
    r = page["client"].post(page["erase"], {"confirm": "victim"}, follow=True)
    html = r.content.decode()
    assert r.redirect_chain[-1][0] == page["receipts"]
    assert "User erased" in html
    receipt = DeletionReceipt.objects.get()
    assert receipt.user_hash in html and receipt.actor_id == "ines"
    assert "victim" not in html.replace("Receipt #", "")
    assert not MemoryUser.objects.filter(external_id="victim").exists()


def test_it_deletes_by_key_after_typing_the_key(page):
    r = page["client"].post(page["forget"], {"key": "name", "confirm": "tool"})
    assert r.status_code == 400 and Fact.objects.filter(key="name").count() == 2
    r = page["client"].post(page["forget"], {"key": "name", "confirm": "name"})
    assert r.status_code == 302
    assert not Fact.objects.filter(key="name").exists() and Fact.objects.filter(key="tool").exists()
    assert DeletionReceipt.objects.get().scope == "key"


def test_it_downloads_the_export_as_a_json_file_named_by_hash(page):
    r = page["client"].get(page["export"])
    assert r["Content-Type"].startswith("application/json")
    assert r["Content-Disposition"].startswith('attachment; filename="memory-export-')
    assert "victim" not in r["Content-Disposition"]
    data = json.loads(r.content)
    assert data["user_id"] == "victim" and page["markers"]["turn"] in data["turns"][0]["user_input"]
