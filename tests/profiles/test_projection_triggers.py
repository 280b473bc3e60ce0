from __future__ import annotations

from facts.models import Fact, TurnState
from profiles.models import Profile
from tests.base import ApiClient, issue_key
from tests.profiles.helpers import processed_turn, user_of


def test_it_projects_every_five_extracted_turns(alice, settings, store):
    settings.MEMORY_PROFILE_EVERY_TURNS = 5
    user = user_of(alice)
    store(user, "User likes tea.", "soft_preference")
    for n in range(1, 5):
        processed_turn(user, n)
    assert not Profile.objects.filter(user=user).exists()

    processed_turn(user, 5)
    first = Profile.objects.get(user=user)
    assert first.trigger == "turns" and first.turn_count == 5

    store(user, "User likes green tea.", "soft_preference")
    for n in range(6, 10):
        processed_turn(user, n)
    assert Profile.objects.filter(user=user).count() == 1
    processed_turn(user, 10)
    latest = Profile.objects.filter(user=user).order_by("-version").first()
    assert latest.version == 2 and latest.turn_count == 10
    assert {i["text"] for i in latest.data["soft_preferences"]} == {"User likes tea.", "User likes green tea."}


def test_skipped_turns_do_not_count_towards_a_projection(alice, settings, store):
    settings.MEMORY_PROFILE_EVERY_TURNS = 2
    user = user_of(alice)
    store(user, "User likes tea.", "soft_preference")
    for n in range(1, 5):
        processed_turn(user, n, state=TurnState.SKIPPED)
    assert not Profile.objects.filter(user=user).exists()
    processed_turn(user, 5)
    processed_turn(user, 6)
    assert Profile.objects.filter(user=user).count() == 1


def test_unchanged_facts_advance_the_turn_counter_without_a_new_version(alice, settings, store):
    settings.MEMORY_PROFILE_EVERY_TURNS = 2
    user = user_of(alice)
    store(user, "User likes tea.", "soft_preference")
    for n in range(1, 7):
        processed_turn(user, n)
    profiles = list(Profile.objects.filter(user=user))
    assert len(profiles) == 1 and profiles[0].turn_count == 6


def test_session_end_projects_the_profile(api, alice, store):
    user = user_of(alice)
    store(user, "User is writing a thesis on glaciers.", "task_context")
    response = api.post("/users/u1/sessions/s-42/end")
    assert response.status_code == 202
    assert response.json() == {"user_id": "u1", "session_id": "s-42", "status": "projection queued"}
    profile = Profile.objects.get(user=user)
    assert profile.trigger == "session_end"
    assert [i["text"] for i in profile.data["current_tasks"]] == ["User is writing a thesis on glaciers."]


def test_session_end_checks_scope_tenant_and_input(api, bob_api, alice):
    user_of(alice)
    assert bob_api.post("/users/u1/sessions/s1/end").status_code == 404
    assert ApiClient(issue_key(alice.tenant, ["read"])).post("/users/u1/sessions/s1/end").status_code == 403
    assert ApiClient(None).post("/users/u1/sessions/s1/end").status_code == 401
    too_long = api.post(f"/users/u1/sessions/{'x' * 129}/end")
    assert too_long.status_code == 422 and "session_id" in too_long.json()["detail"]
    assert not Profile.objects.exists()


def test_erasing_a_user_deletes_their_profiles_and_counts_them_in_the_receipt(alice, store):
    from facts.privacy import user_erase
    from facts.services import SYSTEM
    from profiles.services import profile_refresh

    user = user_of(alice)
    other = user_of(alice, "u2")
    store(user, "User likes tea.", "soft_preference")
    store(other, "User likes coffee.", "soft_preference")
    profile_refresh(user_pk=user.pk)
    store(user, "User likes green tea.", "soft_preference")
    profile_refresh(user_pk=user.pk)
    profile_refresh(user_pk=other.pk)

    receipt = user_erase(user=user, actor=SYSTEM)

    assert receipt.counts["profiles"] == 2
    assert not Profile.objects.filter(user_id=user.pk).exists()
    assert Profile.objects.filter(user=other).count() == 1


def test_the_erase_receiver_answers_with_its_count(alice, store):
    from profiles.services import profile_refresh

    user = user_of(alice)
    store(user, "User likes tea.", "soft_preference")
    profile_refresh(user_pk=user.pk)
    from profiles.receivers import erase_profiles

    assert erase_profiles(sender=Fact, user=user) == {"profiles": 1}


def test_turns_extracted_through_the_api_project_the_profile_every_five(
    api, alice, settings, django_capture_on_commit_callbacks
):
    # The whole path: POST turns, the offline extractor (no LLM key), turn_processed, projection.
    settings.MEMORY_PROFILE_EVERY_TURNS = 5
    settings.OPENAI_API_KEY = ""
    said = [
        "I am allergic to peanuts.",
        "I live in Lisbon.",
        "I prefer short answers.",
        "I work as a nurse.",
        "I have a dog called Rex.",
    ]
    for n, text in enumerate(said):
        with django_capture_on_commit_callbacks(execute=True):
            response = api.post("/users/u1/turns", {"session_id": "s1", "turn_id": f"t{n}", "user_input": text})
        assert response.status_code in (200, 202)
        assert Profile.objects.exists() == (n == 4)

    from facts.models import Turn

    states = list(Turn.objects.values_list("state", flat=True))
    assert states.count(TurnState.DONE) == 5, states
    profile = Profile.objects.get()
    assert profile.trigger == "turns" and profile.turn_count == 5
    texts = {item["text"] for section in profile.data.values() for item in section}
    assert texts and texts <= set(Fact.objects.live().values_list("text", flat=True))
