"""Fill a store through the first release's own code (commit fb8a619).

Run by build_first_release_store.py with that release's tree as the working
directory and first on sys.path; it imports nothing from current main. The
people are made up (no real personal data). Writes go through the release's
REST API where it had a route, else through its services (expire, the staff
queue). Prints a JSON object: the API key, the users and a moment between
writes that the as_of recall asks about.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import UTC, datetime

import django

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from facts import privacy, services  # noqa: E402
from facts.models import ApiKey, Fact, MemoryUser, Tenant  # noqa: E402

ADA = "user-ada"
BOB = "user-bob"
CY = "user-cy"

ADA_FACTS = [
    {"text": "User lives in Lisbon.", "key": "home_city", "category": "identity"},
    {"text": "User works as a marine biologist.", "key": "occupation", "category": "identity"},
    {"text": "User prefers green tea over coffee.", "key": "drink", "category": "soft_preference"},
    {"text": "User is allergic to peanuts.", "key": "allergy", "category": "health"},
    {"text": "User plays the cello on weekends.", "key": "hobby", "category": "soft_preference"},
    {"text": "User owns a dog named Biscuit.", "entities": ["Biscuit"]},
    {"text": "User is learning Japanese for a trip to Kyoto.", "category": "project", "entities": ["Kyoto"]},
    {"text": "User's sister Marta lives in Porto.", "entities": ["Marta", "Porto"]},
    {"text": "User has a budget of 2000 euros for a new bicycle.", "key": "bike_budget", "category": "finance"},
    {"text": "User runs 10 kilometres every Sunday morning.", "key": "running"},
    {"text": "User dislikes horror films.", "key": "films", "category": "soft_preference"},
    {"text": "User's favourite book is Dune.", "key": "book", "category": "soft_preference"},
]

ADA_TURNS = [
    ("t1", "Hi! My name is Ada, nice to meet you.", "Nice to meet you, Ada."),
    ("t2", "I love hiking in the Serra da Estrela mountains.", "That sounds lovely."),
    ("t3", "I use Python for my plankton counting scripts.", "Python suits that well."),
]


class Api:
    def __init__(self, raw_key: str):
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {raw_key}"}

    def send(self, method: str, path: str, body=None, expect=(200, 201, 202, 204)):
        call = getattr(self.client, method)
        data = json.dumps(body) if body is not None else None
        response = call(f"/api/v1{path}", data=data, content_type="application/json", headers=self.headers)
        if response.status_code not in expect:
            raise SystemExit(f"{method.upper()} {path}: {response.status_code} {response.content[:300]!r}")
        return response.json() if response.content else None


def _fact(external_id: str, text: str) -> Fact:
    return Fact.objects.get(user__external_id=external_id, text=text)


def _store_and_correct(api: Api, actor) -> str:
    """Facts, a refresh, a correction, the staff queue, an expiry and a forget; the moment before the correction."""
    ids = {f["text"]: api.send("post", f"/users/{ADA}/facts", f)["id"] for f in ADA_FACTS}
    api.send("post", f"/users/{ADA}/facts", {"text": "User prefers green tea over coffee."})  # a refresh
    time.sleep(0.05)
    before_move = datetime.now(UTC).isoformat()
    time.sleep(0.05)
    api.send("patch", f"/facts/{ids['User lives in Lisbon.']}", {"text": "User lives in Porto."})
    # Same key, high-risk category, low confidence: each waits for staff.
    api.send("post", f"/users/{ADA}/facts", {"text": "User is allergic to shellfish.", "key": "allergy"})
    budget = {"text": "User has a budget of 3000 euros for a new bicycle.", "key": "bike_budget"}
    api.send("post", f"/users/{ADA}/facts", budget)
    job = {"text": "User works as an oceanographer.", "key": "occupation", "category": "identity"}
    api.send("post", f"/users/{ADA}/facts", job)
    services.pending_approve(fact=_fact(ADA, job["text"]), actor=actor)
    services.pending_reject(fact=_fact(ADA, budget["text"]), actor=actor)
    services.fact_expire(fact=_fact(ADA, "User runs 10 kilometres every Sunday morning."), actor=actor)
    api.send("delete", f"/facts/{ids['User dislikes horror films.']}")
    return before_move


def _talk(api: Api) -> None:
    """Turns through the offline rules extractor (no OPENAI_API_KEY), a session end (profile), a context block."""
    for turn_id, said, answer in ADA_TURNS:
        turn = {"session_id": "s1", "turn_id": turn_id, "user_input": said, "assistant_response": answer}
        api.send("post", f"/users/{ADA}/turns", turn)
    api.send("post", f"/users/{ADA}/sessions/s1/end")
    api.send("post", f"/users/{ADA}/context", {"query": "weekend plans", "max_tokens": 400})


def seed_ada(api: Api, staff) -> str:
    actor = services.Actor.staff(staff)
    before_move = _store_and_correct(api, actor)
    _talk(api)
    api.send("delete", f"/users/{ADA}/facts?key=hobby")
    # The key-scoped erase leaves a receipt; it had no REST route in that release.
    privacy.user_forget_key(user=MemoryUser.objects.get(external_id=ADA), key="book", actor=actor)
    return before_move


def seed_bob(api: Api) -> None:
    api.send("post", f"/users/{BOB}/facts", {"text": "User collects vintage stamps.", "key": "hobby"})
    turn = {"session_id": "b1", "user_input": "I live in Ghent.", "assistant_response": "Noted."}
    api.send("post", f"/users/{BOB}/turns", turn)
    api.send("delete", f"/users/{BOB}")


def seed_other_tenant() -> str:
    tenant = Tenant.objects.create(name="Second fixture tenant")
    _, raw = ApiKey.objects.issue(tenant=tenant, name="fixture", scopes=["read", "write"])
    api = Api(raw)
    api.send("post", f"/users/{CY}/facts", {"text": "User grows tomatoes on a balcony.", "key": "garden"})
    api.send("post", f"/users/{CY}/facts", {"text": "User lives in Lisbon.", "key": "home_city"})
    return raw


def main() -> None:
    call_command("migrate", verbosity=0)
    tenant = Tenant.objects.create(name="Upgrade fixture")
    _, raw = ApiKey.objects.issue(tenant=tenant, name="fixture", scopes=["read", "write", "admin"])
    staff = get_user_model().objects.create_user(username="fixture-staff", password="not-a-real-password")
    tenant.staff.add(staff)
    api = Api(raw)
    before_move = seed_ada(api, staff)
    seed_bob(api)
    other_key = seed_other_tenant()
    print(json.dumps({"keys": {"first": raw, "second": other_key}, "before_move": before_move}))


if __name__ == "__main__":
    main()
