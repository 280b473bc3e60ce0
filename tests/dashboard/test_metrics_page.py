from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.profiles.helpers import finished_turn, user_of


@pytest.fixture
def staff_client(alice):
    member = get_user_model().objects.create_user("sam", password="pw-for-tests")
    alice.tenant.staff.add(member)
    client = Client()
    client.force_login(member)
    return client


def _url(tenant_fixture, **params):
    url = reverse("dashboard-metrics", kwargs={"tenant_id": tenant_fixture.id})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def test_it_shows_the_figures_and_an_inline_latency_chart(staff_client, alice):
    user = user_of(alice)
    for n, took in enumerate([120, 240, 360]):
        finished_turn(user, n, took_ms=took)
    response = staff_client.get(_url(alice, window="24h"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Metrics</h1>" in html and "alice" in html
    assert 'class="chart"' in html and "<polyline" in html  # server-side SVG, no chart service
    assert "240 ms" in html  # the p50 of the three turns
    assert "No evaluation stored yet" in html
    assert '<script src="http' not in html


def test_it_draws_the_ablation_bars_of_the_latest_eval(staff_client, alice):
    from recall.models import EvalRun

    EvalRun.objects.create(
        corpus="<b>observations</b>",
        questions=760,
        results={
            m: {"recall@5": 0.5, "recall@10": v, "recall@20": 0.7, "hit@10": 0.75}
            for m, v in (("lexical", 0.576), ("vector", 0.594), ("hybrid", 0.615))
        },
    )
    html = staff_client.get(_url(alice)).content.decode()
    assert html.count("<rect") >= 12  # 4 metrics x 3 modes, plus the legend
    assert "&lt;b&gt;observations&lt;/b&gt;" in html and "<b>observations</b>" not in html
    assert "+0.039" in html  # hybrid's recall@10 delta against lexical


def test_the_page_defines_its_figures_itself_instead_of_pointing_elsewhere(staff_client, alice):
    html = staff_client.get(_url(alice)).content.decode()

    assert "README" not in html
    definitions = html.split("<summary>Definitions</summary>", 1)[1]
    for figure in ("lexical hit rate", "vector hit rate", "wrong overwrites", "extraction latency"):
        assert f"<dt>{figure}</dt>" in definitions


def test_htmx_window_switch_renders_only_the_body(staff_client, alice):
    response = staff_client.get(_url(alice, window="1h"), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="metrics-body">') and "<html" not in html
    assert "Last 1h" in html


def test_an_unknown_window_falls_back_to_seven_days(staff_client, alice):
    assert "Last 7d" in staff_client.get(_url(alice, window="forever")).content.decode()


def test_outsiders_get_404_and_anonymous_visitors_the_login_page(alice, bob):
    outsider = get_user_model().objects.create_user("eve", password="pw-for-tests")
    bob.tenant.staff.add(outsider)
    client = Client()
    client.force_login(outsider)
    assert client.get(_url(alice)).status_code == 404
    anonymous = Client().get(_url(alice))
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
