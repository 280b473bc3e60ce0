"""The dashboard in a real browser: log in, decide queued changes without a reload, erase a user."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from facts import services
from facts.models import DeletionReceipt, FactHistory, MemoryUser, Status, Turn, TurnState
from tests.base import make_tenant
from tests.facts.dashboard_helpers import PASSWORD, pending_change, seed_everything, staff_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def world():
    tenant = make_tenant("Acme assistants").tenant
    staff_of(tenant, "ines", password=PASSWORD)
    _, first = pending_change(
        tenant, "maria", key="home_city", old="User lives in Berlin.", new="User lives in Hamburg since May."
    )
    _, second = pending_change(tenant, "li", key="employer", old="User works at Initech.", new="User works at Globex.")
    seed_everything(tenant, "leaving-user")
    user = MemoryUser.objects.get(tenant=tenant, external_id="maria")
    api = services.Actor("api_key", "demo:key")
    services.fact_store(user=user, text="User is vegetarian.", actor=api, category="hard_preference", key="diet")
    now = timezone.now()
    Turn.objects.create(
        tenant=tenant,
        user=user,
        session_id="s1",
        turn_id="t-1",
        user_input="I moved to Hamburg in May!",
        state=TurnState.DONE,
        extractor="rules",
        occurred_at=now,
        outcome={"pending": [str(first.uuid)], "added": [], "edges": 0, "reason": ""},
    )
    Turn.objects.create(
        tenant=tenant,
        user=user,
        session_id="s1",
        turn_id="t-0",
        user_input="thanks!",
        state=TurnState.SKIPPED,
        occurred_at=now - timedelta(minutes=1),
        outcome={"reason": "thanks"},
    )
    Turn.objects.create(
        tenant=tenant,
        user=user,
        session_id="s1",
        turn_id="t-x",
        user_input="My bank is Sparkasse.",
        state=TurnState.FAILED,
        attempts=3,
        last_error="LLM endpoint answered 503 three times",
        occurred_at=now - timedelta(minutes=2),
    )
    return {"tenant": tenant, "first": first, "second": second}


def _login(page, base):
    page.goto(f"{base}/login/")
    page.fill("input[name=username]", "ines")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def test_staff_log_in_decide_two_queued_changes_without_a_reload_and_see_it_in_history(live_server, page, shot, world):
    base = live_server.url
    t = world["tenant"].pk
    page.goto(f"{base}/login/")
    shot(page, "01-login")
    _login(page, base)
    shot(page, "02-home")
    page.click("text=Acme assistants")
    page.wait_for_url(f"{base}/t/{t}/")
    assert "rules" in page.inner_text("main")
    shot(page, "03-overview")

    page.click("nav >> text=Queue")
    page.wait_for_url(f"{base}/t/{t}/queue/")
    # maria's and li's changes, plus the one seed_everything gives leaving-user.
    assert page.inner_text("#queue-badge").strip() == "3"
    shot(page, "04-queue")
    # A marker on window survives htmx swaps but not a page load.
    page.evaluate("window.__noReload = 'still here'")

    first, second = f"#q-{world['first'].uuid}", f"#q-{world['second'].uuid}"
    page.click(f"{first} button:has-text('Approve')")
    page.wait_for_selector(f"{first}.decided")
    assert page.inner_text("#queue-badge").strip() == "2"
    assert "Approved" in page.inner_text(first) and "by ines" in page.inner_text(first)

    page.click(f"{second} button:has-text('Reject')")
    page.wait_for_selector(f"{second}.decided")
    assert page.inner_text("#queue-badge").strip() == "1"
    assert "Rejected" in page.inner_text(second)
    assert page.evaluate("window.__noReload") == "still here"
    assert "(1 waiting)" in page.inner_text("h1")
    shot(page, "05-queue-decided")

    world["first"].refresh_from_db()
    world["second"].refresh_from_db()
    assert world["first"].status == Status.ACTIVE and world["second"].status == Status.REJECTED
    assert FactHistory.objects.filter(fact_uuid=world["first"].uuid, action="confirm", actor_id="ines").exists()

    page.goto(f"{base}/t/{t}/users/maria/")
    row = page.locator("table.facts").first.locator("tr", has_text="Hamburg")
    row.locator("summary:has-text('History')").click()
    row.locator(".history-list").wait_for()
    history = row.inner_text()
    assert "Confirm" in history and "staff: ines" in history
    assert "Sent to the queue" in page.inner_text("#turns")
    assert "Skipped: thanks" in page.inner_text("#turns")
    assert "Failed after 3 attempt(s)" in page.inner_text("#turns")
    shot(page, "06-user-detail")
    page.fill("input[name=as_of]", (timezone.now() - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"))
    page.click("button:has-text('Show')")
    page.wait_for_selector("text=Facts valid at")
    shot(page, "07-user-as-of")


def test_staff_erase_a_user_through_the_typed_confirmation(live_server, page, phone, shot, world):
    base = live_server.url
    t = world["tenant"].pk
    _login(page, base)
    page.goto(f"{base}/t/{t}/erase/")
    page.fill("input[name=q]", "leaving")
    # Active search swaps the results in place.
    page.wait_for_function("!document.querySelector('#user-results').innerText.includes('maria')")
    shot(page, "08-erase-search")
    page.click("#user-results a:has-text('leaving-user') >> nth=0")
    page.wait_for_url(re.compile(r".*/users/leaving-user/erase/$"))
    preview = page.inner_text(".erase-preview")
    assert "Facts (all statuses)" in preview and "Turns" in preview
    shot(page, "09-erase-preview")

    page.fill("#erase-form input[name=confirm]", "leaving")
    page.click("#erase-form button[type=submit]")
    page.wait_for_selector("text=not this user's id")
    assert MemoryUser.objects.filter(external_id="leaving-user").exists()

    page.fill("#erase-form input[name=confirm]", "leaving-user")
    page.click("#erase-form button[type=submit]")
    page.wait_for_url(f"{base}/t/{t}/receipts/")
    assert "User erased" in page.inner_text("main")
    receipt = DeletionReceipt.objects.get()
    assert receipt.user_hash in page.inner_text("main") and receipt.actor_id == "ines"
    assert not MemoryUser.objects.filter(external_id="leaving-user").exists()
    shot(page, "10-receipts")

    _login(phone, base)
    phone.goto(f"{base}/t/{t}/queue/")
    shot(phone, "11-phone-queue")
    phone.goto(f"{base}/t/{t}/users/maria/")
    shot(phone, "12-phone-user-detail")
    phone.goto(f"{base}/t/{t}/receipts/")
    shot(phone, "13-phone-receipts")
