"""The profile projection behind a backlog of the `db` queue (profiles/tasks.py): one queued
projection per MEMORY_PROFILE_EVERY_TURNS extracted turns of a person, not one per turn; and two
`db` worker processes projecting one person at once."""

from __future__ import annotations

import contextlib
import threading

import pytest

from facts import services
from memory_service.celery import app
from profiles import services as profile_services
from profiles import tasks
from profiles.models import Profile
from tests.base import make_tenant
from tests.profiles.helpers import finished_turn, processed_turn, user_of
from tests.threads import at_once


def test_turns_applied_while_the_projection_waits_in_the_queue_queue_no_second_one(alice, settings, monkeypatch):
    """The rule reads the turn count of the latest projection, which moves only when the queued
    projection runs: behind a backlog every later turn of the person queued another (16 for 20
    turns here, each reading all the person's live facts when it ran)."""
    settings.MEMORY_PROFILE_EVERY_TURNS = 5
    queued: list[tuple[int, str]] = []
    monkeypatch.setattr(tasks.project_profile, "delay", lambda *args: queued.append(args))
    monkeypatch.setitem(app.conf, "task_always_eager", False)  # a worker: the projection waits in the queue
    monkeypatch.setattr(tasks, "_due", {})
    user = user_of(alice)
    for n in range(1, 21):
        processed_turn(user, n)
    assert queued == [(user.pk, "turns")] * 4  # at 5, 10, 15 and 20 turns


def test_a_worker_process_counts_a_persons_turns_once_per_projection_interval_not_every_turn(
    alice, settings, monkeypatch
):
    """Counting the person's extracted turns was a read for every applied turn (issue 36): now the
    process counts again only after as many turns as the rule still needs. The projections queued
    are the same as when it counted every turn."""
    settings.MEMORY_PROFILE_EVERY_TURNS = 5
    queued: list[tuple[int, str]] = []
    counted: list[int] = []
    real_count = profile_services.done_turn_count
    monkeypatch.setattr(tasks.project_profile, "delay", lambda *args: queued.append(args))
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setattr(tasks, "_due", {}, raising=False)
    monkeypatch.setattr(tasks, "_asked", {}, raising=False)
    monkeypatch.setattr(profile_services, "done_turn_count", lambda pk: counted.append(pk) or real_count(pk))
    user = user_of(alice)
    for n in range(1, 21):
        processed_turn(user, n)
    assert queued == [(user.pk, "turns")] * 4  # at 5, 10, 15 and 20 turns, as before
    assert len(counted) == 5  # at 1 (the first this process saw), 5, 10, 15, 20; 20 before


def test_a_projection_queued_for_turns_an_earlier_one_counted_builds_no_new_version(alice, settings, store):
    settings.MEMORY_PROFILE_EVERY_TURNS = 5
    user = user_of(alice)
    store(user, "User likes tea.", "soft_preference")
    for n in range(1, 6):
        finished_turn(user, n)
    assert tasks.project_profile(user.pk, "turns") == 1
    store(user, "User likes green tea.", "soft_preference")
    # A second message queued at the same count (another worker process, or before a restart).
    assert tasks.project_profile(user.pk, "turns") == 1
    assert Profile.objects.filter(user=user).count() == 1
    # A person's own request (a session's end) always projects.
    assert tasks.project_profile(user.pk, "session_end") == 2


@pytest.mark.django_db(transaction=True)
def test_two_refreshes_of_one_person_at_once_make_one_version(monkeypatch):
    """Two `db` worker processes project one person at the same moment (two messages: a session's
    end and a fifth turn, or one queued by each process). Both read "no version yet" and both
    inserted version 1: one failed on the unique version. The person's row is now held while
    projecting, so the second waits and finds the first's version current. The two meet right
    after reading the latest version; where one waits for the other's lock they cannot meet, and
    each goes on after a short wait."""
    tenant = make_tenant("two-projections").tenant
    user = services.memory_user_get_or_create(tenant=tenant, user_id="u1")
    services.fact_store(user=user, text="User likes tea.", actor=services.SYSTEM, category="soft_preference")
    meet = threading.Barrier(2, timeout=3)
    real_latest = profile_services.profile_latest

    def latest_when_both_are_here(person):
        found = real_latest(person)
        with contextlib.suppress(threading.BrokenBarrierError):
            meet.wait()
        return found

    monkeypatch.setattr(profile_services, "profile_latest", latest_when_both_are_here)
    versions = at_once(tasks.project_profile, [(user.pk, "session_end")] * 2)
    assert versions == [1, 1]
    assert list(Profile.objects.filter(user=user).values_list("version", flat=True)) == [1]
