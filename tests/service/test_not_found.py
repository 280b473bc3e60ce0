"""Unknown addresses: JSON for API clients, a page with a way back for people, and a favicon."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/no-such-route", "/v1/no-such-route/", "/mcp/nothing"])
def test_an_unknown_api_route_answers_json_with_a_detail(path):
    response = Client().get(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert "/api/v1/docs" in response.json()["detail"]


def test_an_unknown_page_has_the_dashboards_navigation_and_escapes_the_path():
    response = Client().get("/no-such-page/<script>x</script>")

    html = response.content.decode()
    assert response.status_code == 404
    assert 'class="brand"' in html and 'href="/api/v1/docs"' in html
    assert "<script>x</script>" not in html and "&lt;script&gt;" in html


def test_a_client_that_asks_for_json_gets_json_anywhere():
    response = Client().get("/no-such-page", HTTP_ACCEPT="application/json")

    assert response.status_code == 404 and "detail" in response.json()


def test_the_favicon_address_leads_to_an_icon_every_page_links():
    response = Client().get("/favicon.ico")

    assert response.status_code == 301 and response["Location"].endswith("img/favicon.svg")
    assert finders.find("img/favicon.svg")
    login = Client().get("/login/")
    assert login.status_code == 200
    login = login.content.decode()
    assert 'rel="icon"' in login
