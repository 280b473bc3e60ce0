"""The confidence policy and the high-risk guard (docs/design.md §3)."""

from __future__ import annotations

import pytest

from core.errors import Conflict
from facts import services
from facts.models import Fact, FactHistory, Status


def _store(api, text, **extra):
    r = api.post("/users/u1/facts", {"text": text, **extra})
    assert r.status_code in (200, 201), r.content
    return r.json()


def test_contradiction_of_high_risk_fact_waits_for_confirmation(api):
    old = _store(api, "User's legal name is Ana Silva.", key="legal_name", category="identity")
    new = _store(api, "User's legal name is Ana Costa.", key="legal_name", category="identity", confidence=0.5)
    assert new["status"] == "pending_confirmation"
    assert new["replaces"] == old["id"]
    assert api.get(f"/facts/{old['id']}").json()["status"] == "active"
    live = [f["text"] for f in api.get("/users/u1/facts").json()["items"]]
    assert live == ["User's legal name is Ana Silva."]
    pending = api.get("/users/u1/facts", status="pending_confirmation").json()["items"]
    assert [f["id"] for f in pending] == [new["id"]]
    actions = [e["action"] for e in api.get(f"/facts/{old['id']}/history").json()]
    assert actions == ["insert", "pending"]


def test_a_confident_high_risk_change_supersedes(api):
    old = _store(api, "User banks with Alpha Bank.", key="bank", category="finance")
    new = _store(api, "User banks with Beta Bank.", key="bank", category="finance", confidence=0.95)
    assert new["status"] == "active"
    assert api.get(f"/facts/{old['id']}").json()["superseded_by"] == new["id"]


def test_a_low_risk_contradiction_supersedes_directly(api):
    old = _store(api, "User prefers dark roast coffee.", key="coffee", category="soft_preference")
    new = _store(api, "User prefers light roast coffee.", key="coffee", category="soft_preference")
    assert new["status"] == "active"
    assert api.get(f"/facts/{old['id']}").json()["status"] == "superseded"


def test_a_well_established_fact_is_not_overwritten_by_one_claim(api):
    old = _store(api, "User prefers window seats.", key="seat", category="soft_preference", confidence=0.95)
    new = _store(api, "User prefers aisle seats.", key="seat", category="soft_preference", confidence=0.6)
    assert new["status"] == "pending_confirmation"
    assert api.get(f"/facts/{old['id']}").json()["status"] == "active"


def test_the_same_text_again_under_the_key_is_a_repetition(api):
    old = _store(api, "User is vegetarian.", key="diet", category="hard_preference")
    again = _store(api, "User is vegetarian.", key="diet", category="hard_preference")
    assert again["id"] == old["id"] and again["mention_count"] == 2
    assert Fact.objects.count() == 1


def test_a_repeated_pending_claim_does_not_queue_twice(api):
    _store(api, "User's birthday is 1 May.", key="birthday", category="identity")
    first = _store(api, "User's birthday is 2 May.", key="birthday", category="identity")
    second = _store(api, "User's birthday is 2 May.", key="birthday", category="identity")
    assert first["id"] == second["id"]
    assert Fact.objects.filter(status=Status.PENDING).count() == 1


@pytest.fixture
def pending_pair(api):
    old = _store(api, "User is allergic to peanuts.", key="allergy", category="health")
    new = _store(api, "User is allergic to shellfish.", key="allergy", category="health")
    assert new["status"] == "pending_confirmation"
    return Fact.objects.get(uuid=old["id"]), Fact.objects.get(uuid=new["id"])


def test_approving_a_pending_change_supersedes_the_live_fact(pending_pair, django_user_model):
    old, new = pending_pair
    staff = django_user_model.objects.create_user("reviewer")
    approved = services.pending_approve(fact=new, actor=services.Actor.staff(staff))
    old.refresh_from_db()
    assert approved.status == Status.ACTIVE and approved.confidence >= 0.9
    assert old.status == Status.SUPERSEDED and old.superseded_by_id == approved.pk
    confirm = FactHistory.objects.get(fact_uuid=new.uuid, action="confirm")
    assert confirm.actor_kind == "staff" and confirm.actor_id == "reviewer"


def test_edit_then_approve_stores_the_edited_text(pending_pair, django_user_model):
    _, new = pending_pair
    staff = django_user_model.objects.create_user("reviewer")
    approved = services.pending_approve(fact=new, actor=services.Actor.staff(staff), text="User is allergic to shrimp.")
    assert approved.text == "User is allergic to shrimp."


def test_rejecting_keeps_the_live_fact_and_retires_the_candidate(pending_pair, django_user_model):
    old, new = pending_pair
    staff = django_user_model.objects.create_user("reviewer")
    services.pending_reject(fact=new, actor=services.Actor.staff(staff))
    old.refresh_from_db()
    new.refresh_from_db()
    assert old.is_live and new.status == Status.REJECTED and new.valid_to is not None


def test_a_second_decision_on_the_same_item_is_refused(pending_pair, django_user_model):
    _, new = pending_pair
    one = django_user_model.objects.create_user("one")
    two = django_user_model.objects.create_user("two")
    services.pending_approve(fact=new, actor=services.Actor.staff(one))
    with pytest.raises(Conflict, match="already decided"):
        services.pending_reject(fact=new, actor=services.Actor.staff(two))
    new.refresh_from_db()
    assert new.status == Status.ACTIVE
    assert not FactHistory.objects.filter(fact_uuid=new.uuid, action="reject").exists()
