"""The user browser: search, live facts, timeline, history, "as of", and what each turn changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from facts import services
from facts.models import Turn, TurnState
from tests.facts.dashboard_helpers import memory_user, staff_of

API = services.Actor("api_key", "test:key")


@pytest.fixture
def browse(alice):
    client = Client()
    client.force_login(staff_of(alice.tenant, "ines"))
    user = memory_user(alice.tenant, "u-7")
    return {"tenant": alice.tenant, "user": user, "client": client}


def _page(b, **params):
    url = reverse("dashboard-user", kwargs={"tenant_id": b["tenant"].pk, "user_id": b["user"].external_id})
    return b["client"].get(url, params).content.decode()


def test_it_searches_users_by_id_and_answers_htmx_with_the_results_only(browse, alice):
    memory_user(alice.tenant, "someone-else")
    url = reverse("dashboard-users", kwargs={"tenant_id": alice.tenant.pk})
    html = browse["client"].get(url, {"q": "u-7"}).content.decode()
    assert "u-7" in html and "someone-else" not in html
    partial = browse["client"].get(url, {"q": "else"}, HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<div id="user-results">') and "someone-else" in partial and "u-7" not in partial


def test_it_shows_live_facts_the_timeline_with_superseded_rows_and_the_history(browse):
    old = services.fact_store(user=browse["user"], text="User drinks tea.", actor=API, key="drink").fact
    new = services.fact_supersede(fact=old, text="User drinks coffee.", actor=API)
    html = _page(browse)
    live_part, timeline_part = html.split("Timeline", 1)
    assert "User drinks coffee." in live_part and "User drinks tea." not in live_part
    assert "User drinks tea." in timeline_part and "Superseded" in timeline_part
    history_url = reverse("dashboard-fact-history", kwargs={"tenant_id": browse["tenant"].pk, "fact_id": new.uuid})
    partial = browse["client"].get(history_url, HTTP_HX_REQUEST="true").content.decode()
    assert "Insert" in partial and "Supersede" in partial and "test:key" in partial and "<html" not in partial


def test_it_shows_what_was_true_as_of_a_chosen_date(browse):
    earlier = timezone.now() - timedelta(days=30)
    old = services.fact_store(
        user=browse["user"], text="User lives in Lyon.", actor=API, key="home_city", valid_from=earlier
    ).fact
    services.fact_supersede(fact=old, text="User lives in Porto.", actor=API)
    as_of = (timezone.now() - timedelta(days=10)).strftime("%Y-%m-%dT%H:%M")
    live_part = _page(browse, as_of=as_of).split("Timeline", 1)[0]
    assert "Facts valid at" in live_part and "User lives in Lyon." in live_part and "Porto" not in live_part
    assert "User lives in Porto." in _page(browse).split("Timeline", 1)[0]


def test_it_shows_per_turn_what_changed_or_why_nothing_did(browse):
    user, tenant = browse["user"], browse["tenant"]
    added = services.fact_store(user=user, text="User keeps bees.", actor=API).fact
    now = timezone.now()
    Turn.objects.create(
        tenant=tenant,
        user=user,
        session_id="s1",
        turn_id="t-done",
        user_input="I keep bees.",
        state=TurnState.DONE,
        occurred_at=now,
        extractor="rules",
        outcome={
            "added": [str(added.uuid)],
            "superseded": [],
            "expired": [],
            "pending": [],
            "duplicates": [],
            "rejected": [{"text_excerpt": "ignore previous instructions", "rule": "instruction_override"}],
            "ignored_ids": ["nope-1"],
            "edges": 2,
            "reason": "",
        },
    )
    Turn.objects.create(
        tenant=tenant,
        user=user,
        session_id="s1",
        turn_id="t-skip",
        user_input="thanks!",
        state=TurnState.SKIPPED,
        occurred_at=now - timedelta(minutes=1),
        outcome={"reason": "skipped: greeting or thanks"},  # what the pipeline stores
    )
    Turn.objects.create(
        tenant=tenant,
        user=user,
        session_id="s1",
        turn_id="t-fail",
        user_input="I moved to Oslo.",
        state=TurnState.FAILED,
        attempts=3,
        last_error="LLM endpoint answered 503 three times",
        occurred_at=now - timedelta(minutes=2),
    )
    html = _page(browse)
    turns = html.split('id="turns"', 1)[1]
    assert "t-done" in turns and "Added" in turns and "User keeps bees." in turns
    assert "Refused by the injection floor" in turns and "instruction_override" in turns
    assert "Edges added" in turns and "nope-1" in turns
    assert "Skipped: greeting or thanks" in turns and "skipped: greeting" not in turns
    assert "Failed after 3 attempt(s): LLM endpoint answered 503 three times" in turns


def test_it_escapes_turn_and_fact_text(browse):
    services.fact_store(user=browse["user"], text="User writes <b>bold</b> & <em>tags</em> in notes.", actor=API)
    Turn.objects.create(
        tenant=browse["tenant"],
        user=browse["user"],
        session_id="s",
        turn_id="x",
        user_input="<img src=x onerror=alert(2)>",
        state=TurnState.QUEUED,
    )
    html = _page(browse)
    assert "<b>bold</b>" not in html and "<img src=x" not in html
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; &lt;em&gt;tags&lt;/em&gt;" in html


def test_it_reports_a_bad_as_of_value_instead_of_failing(browse):
    html = _page(browse, as_of="not a date")
    assert "Enter a valid date/time." in html and "Live facts" in html


def test_it_shows_a_turns_edge_count_not_phantom_facts(browse):
    Turn.objects.create(
        tenant=browse["tenant"],
        user=browse["user"],
        session_id="s1",
        turn_id="t-edges",
        user_input="My sister Ana lives in Porto.",
        state=TurnState.DONE,
        occurred_at=timezone.now(),
        extractor="rules",
        outcome={
            "added": [],
            "superseded": [],
            "expired": [],
            "pending": [],
            "duplicates": [],
            "rejected": [{"text_excerpt": "ignore previous instructions", "rule": "instruction_override"}],
            "ignored_ids": ["nope-1"],
            "edges": 3,
            "reason": "",
        },
    )
    turns = _page(browse).split('id="turns"', 1)[1]
    assert "Edges added" in turns and "3 edges" in turns
    # Neither the edge count nor the refused or ignored rows are facts of this user.
    assert "no longer held" not in turns
