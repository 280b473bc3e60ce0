"""The metrics page in Debian's headless Chromium against the live server (screenshot: test-artifacts/)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from facts import services
from facts.models import Fact, Turn, TurnState
from tests.base import make_tenant

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "metrics.png"
PASSWORD = "metrics-page-pw"


@pytest.fixture
def chromium_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    blocked: list[str] = []
    # Everything must come from the live server: count any other request.
    page.on("request", lambda r: blocked.append(r.url) if not r.url.startswith(("http://localhost", "data:")) else None)
    page.external_requests = blocked
    yield page
    context.close()


def _seed():
    tenant = make_tenant("Acme assistants").tenant
    staff = get_user_model().objects.create_user("ines", password=PASSWORD)
    tenant.staff.add(staff)
    user = services.memory_user_get_or_create(tenant=tenant, user_id="maria")
    extractor, by_staff = services.Actor.extractor("llm"), services.Actor.staff(staff)
    now = timezone.now()
    # Extraction latency across the day: a slow patch in the afternoon.
    for n in range(40):
        took = 900 + 140 * (n % 7) + (2600 if 18 <= n < 24 else 0)
        finished = now - timedelta(minutes=36 * n + 5)
        Turn.objects.create(
            tenant=tenant,
            user=user,
            session_id="s1",
            turn_id=f"t{n}",
            user_input="…",
            state=TurnState.DONE,
            created_at=finished - timedelta(milliseconds=took),
            finished_at=finished,
            queue_wait_ms=took * 0.2,
            processing_ms=took * 0.8,
            llm_ms=took * 0.7,
        )
    for key, old, new, decide in (
        ("home_city", "User lives in Berlin.", "User lives in Hamburg.", services.pending_approve),
        ("employer", "User works at Initech.", "User works at Globex.", services.pending_reject),
        ("name", "User's name is Maria.", "User's name is Mia.", None),
    ):
        fact = services.fact_store(user=user, text=old, actor=extractor, category="identity", key=key).fact
        Fact.objects.filter(pk=fact.pk).update(confidence=0.95)
        pending = services.fact_store(user=user, text=new, actor=extractor, category="identity", key=key).fact
        if decide:
            decide(fact=pending, actor=by_staff)
    services.fact_store(user=user, text="User never eats pork.", actor=extractor, category="hard_preference")
    for n in range(4):
        services.fact_store(
            user=user, text=f"User prefers {n + 2} spaces.", actor=extractor, category="soft_preference", key="indent"
        )
    from profiles.services import context_block
    from recall.models import EvalRun, RecallLog

    for n in range(12):
        RecallLog.objects.create(
            tenant=tenant,
            mode=["hybrid", "lexical", "vector"][n % 3],
            k=20,
            returned=5,
            lexical_hits=0 if n % 4 == 0 else 3,
            vector_hits=0 if n % 5 == 0 else 4,
            latency_ms=8 + n,
        )
    for budget in (64, 256, 1000):
        context_block(user=user, query=None, max_tokens=budget)
    # Seeded ablation numbers (the shape eval_recall stores); the page draws whatever run is latest.
    EvalRun.objects.create(
        corpus="observations",
        questions=760,
        results={
            "lexical": {
                "recall@5": 0.49,
                "recall@10": 0.576,
                "recall@20": 0.65,
                "hit@10": 0.70,
                "p50_ms": 2.1,
                "p95_ms": 4.9,
            },
            "vector": {
                "recall@5": 0.51,
                "recall@10": 0.594,
                "recall@20": 0.67,
                "hit@10": 0.72,
                "p50_ms": 9.4,
                "p95_ms": 13.8,
            },
            "hybrid": {
                "recall@5": 0.54,
                "recall@10": 0.615,
                "recall@20": 0.70,
                "hit@10": 0.75,
                "p50_ms": 11.2,
                "p95_ms": 16.5,
            },
        },
    )
    return tenant


def test_staff_see_the_metrics_page_with_its_charts(live_server, chromium_page):
    tenant = _seed()
    page, base = chromium_page, live_server.url
    page.goto(f"{base}/login/")
    page.fill("input[name=username]", "ines")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")

    page.goto(f"{base}/t/{tenant.pk}/metrics/?window=24h")
    assert page.locator("h1").inner_text() == "Metrics"
    assert page.locator("svg.chart polyline").count() == 2
    assert page.locator("svg.chart rect").count() >= 12
    assert "wrong overwrites" in page.locator(".stats").inner_text()
    # 3 proposals held for staff + 3 automatic supersessions; staff rejected 1.
    assert "16.7%\nwrong overwrites (1 of 6)" in page.locator(".stats").inner_text()
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)

    # The window picker swaps the body in place (htmx) and updates the address.
    page.click("a.btn:has-text('7d')")
    page.wait_for_url("**window=7d")
    page.wait_for_selector("text=Last 7d")
    assert page.locator("h1").count() == 1
    assert page.external_requests == []
