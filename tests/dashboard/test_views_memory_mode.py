"""The user page's memory mode form (issue 37): staff set a person's mode, with htmx or
without; the change is audited under their name; a bad value or an outsider changes nothing."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from facts import services
from facts.models import MemoryModeChange, MemoryUser
from tests.facts.dashboard_helpers import staff_of


def _page(alice, client, user_id="u1"):
    return client.get(reverse("dashboard-user", kwargs={"tenant_id": alice.tenant.pk, "user_id": user_id}))


def _url(alice, user_id="u1"):
    return reverse("dashboard-user-memory-mode", kwargs={"tenant_id": alice.tenant.pk, "user_id": user_id})


def _setup(alice):
    services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    client = Client()
    client.force_login(staff_of(alice.tenant, "ines"))
    return client


def test_the_user_page_shows_the_mode_and_an_htmx_post_sets_it_audited_as_staff(alice):
    client = _setup(alice)
    html = _page(alice, client).content.decode()
    assert 'id="memory-mode"' in html and 'value="auto" selected' in html
    r = client.post(_url(alice), {"mode": "read_only"}, headers={"HX-Request": "true"})
    assert r.status_code == 200
    assert "<strong>read_only</strong>" in r.content.decode() and "<html" not in r.content.decode()
    change = MemoryModeChange.objects.get()
    assert (change.before, change.after, change.actor_kind, change.actor_id) == ("auto", "read_only", "staff", "ines")
    assert MemoryUser.objects.get().memory_mode == "read_only"


def test_without_htmx_the_form_redirects_back_to_the_user_page(alice):
    client = _setup(alice)
    r = client.post(_url(alice), {"mode": "off"})
    assert r.status_code == 302 and r.url.endswith("/users/u1/")
    assert "auto → off" in _page(alice, client).content.decode()


def test_an_unknown_mode_is_refused_and_nothing_is_recorded(alice):
    client = _setup(alice)
    r = client.post(_url(alice), {"mode": "paused"}, headers={"HX-Request": "true"})
    assert r.status_code == 400 and "paused" in r.content.decode()
    assert not MemoryModeChange.objects.exists() and MemoryUser.objects.get().memory_mode == "auto"


def test_staff_of_another_tenant_get_a_404_and_change_nothing(alice, bob):
    services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    outsider = Client()
    outsider.force_login(staff_of(bob.tenant, "omar"))
    assert outsider.post(_url(alice), {"mode": "off"}).status_code == 404
    assert not MemoryModeChange.objects.exists()
