"""Builders shared by the dashboard and privacy tests: staff logins and a pending change.

Everything goes through the real write path (facts.services); nothing is mocked.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from facts import services
from facts.models import Fact, MemoryUser, Status, Tenant

PASSWORD = "correct horse battery staple"


def staff_of(tenant: Tenant | None, username: str, *, superuser: bool = False, password: str | None = None):
    """A dashboard login; without a password (tests use force_login) it skips the slow hash."""
    User = get_user_model()
    if superuser:
        user = User.objects.create_superuser(username=username, password=password, email="")
    else:
        user = User.objects.create_user(username=username, password=password)
    if tenant is not None:
        tenant.staff.add(user)
    return user


def memory_user(tenant: Tenant, user_id: str) -> MemoryUser:
    return services.memory_user_get_or_create(tenant=tenant, user_id=user_id)


def pending_change(tenant: Tenant, user_id: str, *, key: str, old: str, new: str) -> tuple[Fact, Fact]:
    """A live identity fact and a low-confidence contradiction that must wait for staff."""
    user = memory_user(tenant, user_id)
    api = services.Actor("api_key", "test:key")
    live = services.fact_store(user=user, text=old, actor=api, category="identity", key=key, confidence=0.95).fact
    result = services.fact_store(user=user, text=new, actor=api, category="identity", key=key)
    assert result.outcome == "pending", result.outcome
    assert result.fact.status == Status.PENDING
    return live, result.fact


def marker(kind: str) -> str:
    """A distinctive lower-case token that no stemmer changes (it ends with a digit)."""
    import uuid

    return f"zq{kind}{uuid.uuid4().hex[:10]}7"


def seed_everything(tenant: Tenant, user_id: str) -> dict[str, str]:
    """Give a user one of every kind of row, each carrying its own distinctive marker.

    Returns the markers by kind: fact, old (a superseded fact), pending, excerpt,
    entity, turn, reply, reason (history), profile, forgotten (key deleted earlier).
    """
    from django.utils import timezone

    from facts.entities import resolve_entity
    from facts.models import AppliedChange, Edge, SessionCursor, Turn, TurnState

    m = {k: marker(k) for k in ("fact", "old", "pending", "excerpt", "entity", "turn", "reply", "profile", "dst")}
    user = memory_user(tenant, user_id)
    api = services.Actor("api_key", "test:key")
    turn = Turn.objects.create(
        tenant=tenant,
        user=user,
        session_id="s1",
        turn_id="t1",
        user_input=f"I use {m['turn']} at work.",
        assistant_response=f"Noted {m['reply']}.",
        state=TurnState.DONE,
        occurred_at=timezone.now(),
        outcome={"added": [], "rejected": [{"text_excerpt": m["turn"], "rule": "x"}], "reason": ""},
    )
    SessionCursor.objects.create(user=user, session_id="s1", last_applied_turn=turn)
    live = services.fact_store(
        user=user,
        text=f"User works with {m['fact']} daily.",
        actor=api,
        key="tool",
        entities=[m["entity"]],
        source_turn=turn,
        source_excerpt=f"I use {m['excerpt']}",
        idempotency_key=f"t1:tool:{m['fact']}",
    ).fact
    old = services.fact_store(user=user, text=f"User drinks {m['old']} tea.", actor=api, key="drink").fact
    services.fact_supersede(fact=old, text="User drinks coffee.", actor=api)
    services.fact_store(
        user=user, text="User is called Kim.", actor=api, category="identity", key="name", confidence=0.95
    )
    pending = services.fact_store(
        user=user, text=f"User is called {m['pending']}.", actor=api, category="identity", key="name"
    )
    assert pending.outcome == "pending"
    src = resolve_entity(user=user, name=m["entity"])
    dst = resolve_entity(user=user, name=m["dst"])
    Edge.objects.create(tenant=tenant, user=user, src=src, relation="uses", dst=dst, fact=live)
    assert AppliedChange.objects.filter(user=user).exists()
    if apps_has_profiles():
        from profiles.models import Profile

        Profile.objects.create(
            tenant=tenant,
            user=user,
            version=1,
            facts_version=user.facts_version,
            trigger="manual",
            data={"identity": [{"text": f"User likes {m['profile']}."}]},
        )
    return m


def apps_has_profiles() -> bool:
    from django.apps import apps

    return apps.is_installed("profiles") and any(
        m.__name__ == "Profile" for m in apps.get_app_config("profiles").get_models()
    )
