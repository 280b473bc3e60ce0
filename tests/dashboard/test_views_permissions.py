"""Every dashboard page and action for anonymous visitors, staff of another tenant, staff and superusers."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from facts.models import DeletionReceipt, Fact, MemoryUser, Status
from tests.facts.dashboard_helpers import PASSWORD, memory_user, pending_change, staff_of

# (url name, kwargs builder) for every GET page under a tenant.
PAGES = [
    ("dashboard-overview", lambda s: {}),
    ("dashboard-queue", lambda s: {}),
    ("dashboard-users", lambda s: {}),
    ("dashboard-user", lambda s: {"user_id": "u-1"}),
    ("dashboard-user-erase", lambda s: {"user_id": "u-1"}),
    ("dashboard-user-export", lambda s: {"user_id": "u-1"}),
    ("dashboard-fact-history", lambda s: {"fact_id": s["live"].uuid}),
    ("dashboard-erase", lambda s: {}),
    ("dashboard-receipts", lambda s: {}),
]

# (url name, kwargs builder, POST data) for every action.
ACTIONS = [
    ("dashboard-queue-approve", lambda s: {"fact_id": s["pending"].uuid}, {}),
    ("dashboard-queue-reject", lambda s: {"fact_id": s["pending"].uuid}, {}),
    ("dashboard-user-erase", lambda s: {"user_id": "u-1"}, {"confirm": "u-1"}),
    ("dashboard-user-forget-key", lambda s: {"user_id": "u-1"}, {"key": "name", "confirm": "name"}),
]


@pytest.fixture
def setup(alice, bob):
    live, pending = pending_change(
        alice.tenant, "u-1", key="name", old="User is called Ann.", new="User is called Anna."
    )
    return {
        "tenant": alice.tenant,
        "live": live,
        "pending": pending,
        "staff": staff_of(alice.tenant, "alice-staff"),
        "outsider": staff_of(bob.tenant, "bob-staff"),
        "root": staff_of(None, "root", superuser=True),
    }


def _url(name, setup, kwargs):
    return reverse(name, kwargs={"tenant_id": setup["tenant"].pk, **kwargs(setup)})


def _client(setup, who):
    client = Client()
    if who != "anonymous":
        client.force_login(setup[who])
    return client


def _nothing_changed(setup):
    setup["pending"].refresh_from_db()
    assert setup["pending"].status == Status.PENDING
    assert MemoryUser.objects.filter(tenant=setup["tenant"], external_id="u-1").exists()
    assert Fact.objects.filter(user__external_id="u-1", key="name").count() == 2
    assert not DeletionReceipt.objects.exists()


@pytest.mark.parametrize("name,kwargs", PAGES, ids=[p[0] for p in PAGES])
def test_it_sends_anonymous_visitors_to_the_login_page(setup, name, kwargs):
    r = _client(setup, "anonymous").get(_url(name, setup, kwargs))
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name,kwargs", PAGES, ids=[p[0] for p in PAGES])
def test_it_answers_404_to_staff_of_another_tenant(setup, name, kwargs):
    assert _client(setup, "outsider").get(_url(name, setup, kwargs)).status_code == 404


@pytest.mark.parametrize("who", ["staff", "root"])
@pytest.mark.parametrize("name,kwargs", PAGES, ids=[p[0] for p in PAGES])
def test_it_shows_every_page_to_staff_and_superusers(setup, who, name, kwargs):
    r = _client(setup, who).get(_url(name, setup, kwargs))
    assert r.status_code == 200, r.content[:500]


@pytest.mark.parametrize("name,kwargs,data", ACTIONS, ids=[a[0] for a in ACTIONS])
def test_it_refuses_actions_from_anonymous_visitors_and_changes_nothing(setup, name, kwargs, data):
    r = _client(setup, "anonymous").post(_url(name, setup, kwargs), data)
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    _nothing_changed(setup)


@pytest.mark.parametrize("name,kwargs,data", ACTIONS, ids=[a[0] for a in ACTIONS])
def test_it_refuses_actions_from_staff_of_another_tenant_and_changes_nothing(setup, name, kwargs, data):
    r = _client(setup, "outsider").post(_url(name, setup, kwargs), data)
    assert r.status_code == 404
    _nothing_changed(setup)


@pytest.mark.parametrize("who", ["staff", "root"])
@pytest.mark.parametrize("name,kwargs,data", ACTIONS, ids=[a[0] for a in ACTIONS])
def test_it_lets_staff_and_superusers_act(setup, who, name, kwargs, data):
    r = _client(setup, who).post(_url(name, setup, kwargs), data)
    assert r.status_code == 302, r.content[:500]
    pending = Fact.objects.filter(pk=setup["pending"].pk).first()
    if name == "dashboard-queue-approve":
        assert pending.status == Status.ACTIVE
    elif name == "dashboard-queue-reject":
        assert pending.status == Status.REJECTED
    elif name == "dashboard-user-erase":
        assert not MemoryUser.objects.filter(external_id="u-1").exists()
    else:
        assert not Fact.objects.filter(key="name").exists()


def test_it_lists_only_the_staff_members_tenants_on_the_home_page(setup, bob):
    r = _client(setup, "staff").get(reverse("dashboard-home"))
    assert r.status_code == 200
    assert b"alice" in r.content and b"bob" not in r.content
    r = _client(setup, "root").get(reverse("dashboard-home"))
    assert b"alice" in r.content and b"bob" in r.content


def test_it_sends_anonymous_visitors_from_home_to_login(setup):
    r = Client().get(reverse("dashboard-home"))
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))


def test_it_answers_404_for_another_tenants_user_and_fact_under_ones_own_tenant(setup, bob):
    memory_user(bob.tenant, "bob-user")
    _, bob_pending = pending_change(bob.tenant, "bob-user", key="name", old="User is Bo.", new="User is Bob.")
    client = _client(setup, "staff")
    t = setup["tenant"].pk
    assert client.get(reverse("dashboard-user", kwargs={"tenant_id": t, "user_id": "bob-user"})).status_code == 404
    r = client.post(reverse("dashboard-queue-approve", kwargs={"tenant_id": t, "fact_id": bob_pending.uuid}))
    assert r.status_code == 404
    bob_pending.refresh_from_db()
    assert bob_pending.status == Status.PENDING


def test_it_refuses_a_post_without_the_csrf_token(setup):
    client = Client(enforce_csrf_checks=True)
    client.force_login(setup["staff"])
    url = reverse("dashboard-queue-approve", kwargs={"tenant_id": setup["tenant"].pk, "fact_id": setup["pending"].uuid})
    assert client.post(url, HTTP_HX_REQUEST="true").status_code == 403
    _nothing_changed(setup)


def test_it_logs_staff_in_and_out(setup):
    setup["staff"].set_password(PASSWORD)
    setup["staff"].save()
    client = Client()
    r = client.post(reverse("login"), {"username": "alice-staff", "password": PASSWORD})
    assert r.status_code == 302 and r["Location"] == reverse("dashboard-home")
    assert client.get(reverse("dashboard-home")).status_code == 200
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("dashboard-home")).status_code == 302
