from __future__ import annotations

from facts import services
from facts.models import Fact
from profiles.models import Profile
from profiles.services import profile_refresh
from tests.base import ApiClient, issue_key
from tests.profiles.helpers import age, user_of


def _texts(section: list[dict]) -> list[str]:
    return [item["text"] for item in section]


def test_it_projects_live_facts_into_the_spec_sections_with_confidence_and_timestamps(alice, store):
    user = user_of(alice)
    store(user, "User's name is Dana.", "identity", "name")
    store(user, "User is allergic to peanuts.", "health", "allergy")
    store(user, "User never uses tabs for indentation.", "hard_preference", "indent")
    store(user, "User likes short answers.", "soft_preference", "answer_style")
    store(user, "User is migrating the billing service to Postgres.", "task_context", "current_task")
    store(user, "User works on a laptop running Debian.", "environment")

    data = profile_refresh(user_pk=user.pk).data

    assert _texts(data["identity"]) == ["User's name is Dana."]
    assert _texts(data["hard_preferences"]) == ["User never uses tabs for indentation."]
    assert _texts(data["soft_preferences"]) == ["User likes short answers."]
    assert _texts(data["current_tasks"]) == ["User is migrating the billing service to Postgres."]
    assert _texts(data["sensitive_topics"]) == ["User is allergic to peanuts."]
    assert _texts(data["environment"]) == ["User works on a laptop running Debian."]
    assert len(data["recent_changes"]) == 6  # all of them are new this week
    item = data["identity"][0]
    assert item["confidence"] == 0.4
    for stamp in ("valid_from", "created_at", "updated_at", "last_mentioned_at"):
        assert item[stamp]


def test_it_contains_only_live_facts_and_changes_after_a_supersession(alice, store):
    user = user_of(alice)
    berlin = store(user, "User lives in Berlin.", "identity", "home_city")
    gone = store(user, "User is learning Rust.", "task_context", "learning")
    first = profile_refresh(user_pk=user.pk)
    assert "User lives in Berlin." in _texts(first.data["identity"])

    services.fact_supersede(fact=berlin, text="User lives in Munich.", actor=services.SYSTEM)
    services.fact_expire(fact=gone, actor=services.SYSTEM)
    services.fact_store(user=user, text="User's name is Kim.", actor=services.SYSTEM, category="identity", key="name")
    Fact.objects.filter(user=user, key="name").update(confidence=0.95)
    # A pending change is not live either: it must not reach the profile.
    pending = services.fact_store(
        user=user, text="User's name is Kimberly.", actor=services.SYSTEM, category="identity", key="name"
    )
    assert pending.outcome == "pending"
    second = profile_refresh(user_pk=user.pk)

    assert second.version == first.version + 1
    everything = [item for section in second.data.values() for item in section]
    live_ids = {str(u) for u in Fact.objects.live().filter(user=user).values_list("uuid", flat=True)}
    assert {item["id"] for item in everything} == live_ids
    texts = {item["text"] for item in everything}
    assert "User lives in Munich." in texts
    assert not texts & {"User lives in Berlin.", "User is learning Rust.", "User's name is Kimberly."}
    munich = next(i for i in second.data["recent_changes"] if i["text"] == "User lives in Munich.")
    assert munich["change"] == "updated"
    # The earlier version is kept: profiles are versioned.
    assert Profile.objects.get(user=user, version=first.version).data["identity"][0]["text"] == "User lives in Berlin."


def test_it_adds_no_version_when_the_facts_did_not_change(alice, store):
    user = user_of(alice)
    store(user, "User prefers tea.", "soft_preference")
    one = profile_refresh(user_pk=user.pk)
    again = profile_refresh(user_pk=user.pk)
    assert again.pk == one.pk and Profile.objects.filter(user=user).count() == 1


def test_it_keeps_only_the_configured_number_of_versions(alice, settings, store):
    settings.MEMORY_PROFILE_KEEP_VERSIONS = 3
    user = user_of(alice)
    for n in range(6):
        store(user, f"User owns {n + 2} plants.", "other", "plants")
        profile_refresh(user_pk=user.pk)
    assert list(Profile.objects.filter(user=user).order_by("version").values_list("version", flat=True)) == [4, 5, 6]


def test_recent_changes_leave_out_facts_older_than_the_window(alice, store):
    user = user_of(alice)
    age(store(user, "User plays chess.", "soft_preference"), days=30)
    store(user, "User plays go.", "soft_preference")
    data = profile_refresh(user_pk=user.pk).data
    assert _texts(data["recent_changes"]) == ["User plays go."]
    assert set(_texts(data["soft_preferences"])) == {"User plays chess.", "User plays go."}


def test_get_profile_returns_the_latest_version(api, alice, store):
    user = user_of(alice)
    store(user, "User's name is Dana.", "identity", "name")
    body = api.get("/users/u1/profile").json()
    assert body["version"] == 1 and body["current"] is True and body["trigger"] == "on_read"
    assert [i["text"] for i in body["identity"]] == ["User's name is Dana."]
    for section in ("hard_preferences", "soft_preferences", "current_tasks", "recent_changes", "sensitive_topics"):
        assert section in body

    store(user, "User likes jazz.", "soft_preference")
    stale = api.get("/users/u1/profile").json()
    assert stale["version"] == 1 and stale["current"] is False  # projected again at the next trigger


def test_get_profile_answers_404_for_another_tenants_user_and_401_without_a_key(api, bob_api, alice, store):
    store(user_of(alice), "User's name is Dana.", "identity", "name")
    assert bob_api.get("/users/u1/profile").status_code == 404
    assert api.get("/users/nobody/profile").status_code == 404
    assert ApiClient(None).get("/users/u1/profile").status_code == 401


def test_get_profile_needs_the_read_scope(alice, store):
    store(user_of(alice), "User's name is Dana.", "identity", "name")
    assert ApiClient(issue_key(alice.tenant, ["write"])).get("/users/u1/profile").status_code == 403
    assert ApiClient(issue_key(alice.tenant, ["read"])).get("/users/u1/profile").status_code == 200


def test_a_repeated_mention_makes_the_next_projection_carry_the_new_confidence(api, alice, store):
    user = user_of(alice)
    store(user, "User likes jazz.", "soft_preference")
    first = profile_refresh(user_pk=user.pk)
    assert first.data["soft_preferences"][0]["confidence"] == 0.4

    again = store(user, "user likes jazz", "soft_preference")  # a verbatim duplicate: refreshed, not added
    assert again.mention_count == 2 and again.confidence > 0.4
    assert api.get("/users/u1/profile").json()["current"] is False
    second = profile_refresh(user_pk=user.pk)
    assert second.version == 2
    assert second.data["soft_preferences"][0]["confidence"] == round(again.confidence, 3)
    block = api.post("/users/u1/context", {"max_tokens": 100}).json()
    assert block["sections"][0]["items"][0]["confidence"] == round(again.confidence, 3)
