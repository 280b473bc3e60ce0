"""Write-path rules exercised through the service layer (the extractor's entry point)."""

from __future__ import annotations

import pytest

from core.errors import Rejected
from facts import services
from facts.entities import match_key, normalise_entity, resolve_entity
from facts.models import AppliedChange, Entity, Fact, FactHistory, Status
from facts.signals import facts_changed
from tests.facts.dashboard_helpers import memory_user, pending_change


def _user(alice):
    return services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")


def test_applying_the_same_change_twice_changes_nothing_the_second_time(alice):
    user = _user(alice)
    actor = services.Actor.extractor()
    first = services.fact_store(user=user, text="User runs marathons.", actor=actor, idempotency_key="t1:sport:abc")
    again = services.fact_store(user=user, text="User runs marathons.", actor=actor, idempotency_key="t1:sport:abc")
    assert first.outcome == "created" and again.outcome == "idempotent"
    assert again.fact.pk == first.fact.pk
    fact = Fact.objects.get()
    assert fact.mention_count == 1  # not a refresh either
    assert FactHistory.objects.count() == 1 and AppliedChange.objects.count() == 1


def test_an_explicit_contradiction_goes_through_the_policy(alice):
    user = _user(alice)
    old = services.fact_store(
        user=user, text="User's name is Sam.", key="name", category="identity", actor=services.SYSTEM
    )
    result = services.fact_store(
        user=user,
        text="User is called Samantha.",
        key="full_name",
        category="identity",
        actor=services.Actor.extractor(),
        contradicts=old.fact,
    )
    assert result.outcome == "pending" and result.replaced.pk == old.fact.pk
    old.fact.refresh_from_db()
    assert old.fact.is_live


def test_entities_are_normalised_and_shared_between_facts(alice):
    user = _user(alice)
    services.fact_store(
        user=user, text="User deploys with Kubernetes.", entities=["  Kubernetes "], actor=services.SYSTEM
    )
    services.fact_store(
        user=user, text="User debugs kubernetes pods.", entities=["kubernetes", "Pods"], actor=services.SYSTEM
    )
    assert sorted(Entity.objects.values_list("name", flat=True)) == ["kubernetes", "pods"]


def test_entity_names_are_normalised_but_never_mangled():
    assert normalise_entity("  Postgres   Databases ") == "postgres databases"
    assert normalise_entity("Kubernetes") == "kubernetes"
    assert normalise_entity("Python!") == "python"
    assert normalise_entity("C++") == "c++" and normalise_entity("C#") == "c#"


def test_resolution_matches_simple_plurals_and_aliases(alice):
    user = _user(alice)
    city = resolve_entity(user=user, name="Cities")
    assert resolve_entity(user=user, name="city") == city
    assert resolve_entity(user=user, name="CITIES ") == city
    db = resolve_entity(user=user, name="database")
    assert resolve_entity(user=user, name="Databases") == db
    glass = resolve_entity(user=user, name="glass")
    assert resolve_entity(user=user, name="glas") != glass
    assert match_key("bus") == "bus" and match_key("analysis") == "analysis"
    pg = resolve_entity(user=user, name="PostgreSQL")
    pg.aliases = ["postgres", "pg"]
    pg.save()
    assert resolve_entity(user=user, name="Postgres") == pg
    assert sorted(Entity.objects.filter(user=user).values_list("name", flat=True)) == [
        "cities",
        "database",
        "glas",
        "glass",
        "postgresql",
    ]


def test_changes_are_announced_after_commit_with_the_touched_ids(alice, django_capture_on_commit_callbacks):
    seen = []

    def receiver(sender, **kwargs):
        seen.append(kwargs)

    facts_changed.connect(receiver)
    try:
        user = _user(alice)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            result = services.fact_store(user=user, text="User likes chess.", actor=services.SYSTEM)
        assert seen == []  # nothing before commit
        for callback in callbacks:
            callback()
    finally:
        facts_changed.disconnect(receiver)
    assert any(call["fact_ids"] == [result.fact.pk] and call["user_id"] == user.pk for call in seen)
    user.refresh_from_db()
    assert user.facts_version == 1


def test_a_failing_after_commit_receiver_never_fails_the_committed_write(
    api, django_capture_on_commit_callbacks, caplog
):
    def broken(sender, **kwargs):
        raise ConnectionError("broker is down")

    facts_changed.connect(broken, dispatch_uid="test-broken")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            r = api.post("/users/u1/facts", {"text": "User keeps bees."})
    finally:
        facts_changed.disconnect(dispatch_uid="test-broken")
    assert r.status_code == 201
    assert Fact.objects.get().text == "User keeps bees."
    assert "broker is down" in caplog.text


def test_a_change_held_for_staff_is_refused_when_it_would_overrun_the_budget(alice, settings):
    settings.MEMORY_PROFILE_BUDGET_CHARS = 40
    user = memory_user(alice.tenant, "u1")
    services.fact_store(
        user=user, text="User is called Kim.", actor=services.SYSTEM, category="identity", key="name", confidence=0.95
    )
    with pytest.raises(Rejected) as refused:
        services.fact_store(
            user=user,
            text="User is called Kimberly Anne Featherstonehaugh.",
            actor=services.SYSTEM,
            category="identity",
            key="name",
        )
    assert refused.value.rule == "profile_budget"
    assert not Fact.objects.filter(status=Status.PENDING).exists()


def test_approving_an_edited_pending_change_is_refused_when_the_text_overruns_the_budget(alice, settings):
    live, pending = pending_change(alice.tenant, "u1", key="name", old="User is called Kim.", new="User is called Kit.")
    settings.MEMORY_PROFILE_BUDGET_CHARS = 40
    with pytest.raises(Rejected) as refused:
        services.pending_approve(
            fact=pending, actor=services.SYSTEM, text="User is called Kit Marlowe-Featherstonehaugh."
        )
    assert refused.value.rule == "profile_budget"
    pending.refresh_from_db()
    live.refresh_from_db()
    assert pending.status == Status.PENDING and pending.text == "User is called Kit." and live.is_live
