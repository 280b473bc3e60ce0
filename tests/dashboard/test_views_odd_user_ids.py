"""Every user id the API accepts can be browsed, exported and erased in the dashboard, by the
links the pages themselves print, followed as a browser follows them (dot segments removed).

"." and ".." are ids the API accepts; as path segments a browser drops them, so the "." erase
link once landed on the page of another user called "erase"."""

from __future__ import annotations

import html
import re
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from facts import services
from facts.models import Fact, MemoryUser
from tests.facts.dashboard_helpers import memory_user, staff_of

pytestmark = pytest.mark.django_db

ODD_IDS = [".", "..", "...", "~", "~.", "%2e", "%2e%2e", "a?b#c", "50% off", " sp ", "zoë 東京", "erase"]
_LINK = re.compile(r'<a href="([^"]+)">([^<]*)</a>')
_FORM = re.compile(r'<form method="post" action="([^"]+)"[^>]*id="erase-form"')


@pytest.fixture
def staff(alice):
    for user_id in ODD_IDS:
        user = memory_user(alice.tenant, user_id)
        services.fact_store(user=user, text=f"User is known as [{user_id}].", actor=services.SYSTEM)
    client = Client()
    client.force_login(staff_of(alice.tenant, "ines"))
    return client


def _follow(client: Client, page: str, href: str, data: dict | None = None):
    """GET (or POST `data` to) a link as a browser resolves it from `page`: RFC 3986 dot
    segments removed, the rest of the path sent as written."""
    target = urlsplit(urljoin(f"http://testserver{page}", html.unescape(href)))
    path = target.path + (f"?{target.query}" if target.query else "")
    return client.post(path, data) if data is not None else client.get(path)


def _links_by_id(client: Client, page: str) -> dict[str, str]:
    body = client.get(page, {"q": ""}).content.decode()
    return {html.unescape(text): href for href, text in _LINK.findall(body) if "/users/" in href}


def test_the_user_list_opens_the_page_of_the_user_it_names(alice, staff):
    page = reverse("dashboard-users", kwargs={"tenant_id": alice.tenant.pk})
    links = _links_by_id(staff, page)
    assert set(links) == set(ODD_IDS)
    for user_id, href in links.items():
        r = _follow(staff, page, href)
        assert r.status_code == 200, (user_id, href, r.status_code)
        assert r.context["memory_user"].external_id == user_id, (user_id, href)
        assert html.escape(f"[{user_id}]") in r.content.decode()


def test_the_export_link_exports_the_user_it_names(alice, staff):
    page = reverse("dashboard-users", kwargs={"tenant_id": alice.tenant.pk})
    for user_id, href in _links_by_id(staff, page).items():
        detail = _follow(staff, page, href)
        export = re.search(r'<a class="btn" href="([^"]+)" download>', detail.content.decode()).group(1)
        r = _follow(staff, urlsplit(detail.request["PATH_INFO"]).path, export)
        assert r.status_code == 200 and r["Content-Type"].startswith("application/json"), (user_id, export)
        assert f"[{user_id}]" in r.content.decode(), user_id


@pytest.mark.parametrize("victim", [".", "..", "~.", "%2e"])
def test_the_erase_link_erases_the_user_it_names_and_no_other(alice, staff, victim):
    page = reverse("dashboard-erase", kwargs={"tenant_id": alice.tenant.pk})
    href = _links_by_id(staff, page)[victim]
    r = _follow(staff, page, href)
    assert r.status_code == 200 and r.context["memory_user"].external_id == victim, (victim, href)
    action = _FORM.search(r.content.decode()).group(1)
    r = _follow(staff, href, action, {"confirm": victim})
    assert r.status_code == 302, r.content[:300]
    assert not MemoryUser.objects.filter(tenant=alice.tenant, external_id=victim).exists()
    others = [i for i in ODD_IDS if i != victim]
    assert sorted(MemoryUser.objects.filter(tenant=alice.tenant).values_list("external_id", flat=True)) == sorted(
        others
    )
    assert Fact.objects.filter(user__external_id="erase", text="User is known as [erase].").exists()
