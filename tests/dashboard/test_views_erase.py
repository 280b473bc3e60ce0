"""Delete by user with typed confirmation, delete by user + key, export download, receipts."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from facts import services
from facts.models import DeletionReceipt, Fact, MemoryUser
from tests.facts.dashboard_helpers import memory_user, seed_everything, staff_of


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


@pytest.fixture
def spaced(alice):
    """A user whose id has a leading and a trailing space (the id rule allows them), with one fact."""
    user = memory_user(alice.tenant, " bob ")
    services.fact_store(user=user, text="User likes tea.", actor=services.Actor("api_key", "test:key"))
    client = Client()
    client.force_login(staff_of(alice.tenant, "ines"))
    url = reverse("dashboard-user-erase", kwargs={"tenant_id": alice.tenant.pk, "user_id": " bob "})
    return client, url


def test_it_shows_an_id_with_spaces_exactly_and_says_they_count(spaced):
    client, url = spaced
    html = client.get(url).content.decode()
    assert '<code class="exact-id" style="white-space: pre-wrap"> bob </code>' in html
    assert "spaces count" in html


def test_it_erases_a_user_whose_id_has_spaces_when_typed_exactly(spaced):
    client, url = spaced
    r = client.post(url, {"confirm": " bob "})
    assert r.status_code == 302, r.content.decode()
    assert not MemoryUser.objects.filter(external_id=" bob ").exists() and not Fact.objects.exists()
    assert DeletionReceipt.objects.get().scope == "user"


def test_it_erases_nothing_when_the_spaces_of_the_id_are_left_out(spaced):
    client, url = spaced
    r = client.post(url, {"confirm": "bob"})
    assert r.status_code == 400 and "not this user" in r.content.decode()
    assert MemoryUser.objects.filter(external_id=" bob ").exists() and Fact.objects.count() == 1
    assert not DeletionReceipt.objects.exists()
