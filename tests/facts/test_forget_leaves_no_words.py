"""What a forget removes (docs/design.md §3), read in the export and in the database files:
the fact, the entities and edges nothing else refers to, the excerpts quoting it, its profile
items; with `withdraw_turn=true`, the turn it was stated in too. Real commits (the recall
index fills and the files are scrubbed after commit), on both engines."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from django.db import connection

from facts.models import Entity, Fact, Turn
from recall import fts
from tests.db_files import file_bytes, postgres_data_files
from tests.facts.dashboard_helpers import marker

pytestmark = pytest.mark.django_db(transaction=True)


def _files() -> dict[str, bytes]:
    if connection.vendor == "postgresql":
        # A forget leaves the rewrite of the tables to the background pass (docs/deployment.md,
        # "What erased means on PostgreSQL"): run it, as beat would.
        from core import engine

        engine.current().compact_pass()
        return postgres_data_files(connection.settings_dict["NAME"])
    name = Path(connection.settings_dict["NAME"])
    return {f"{name.name}{suffix}": file_bytes(Path(f"{name}{suffix}")) for suffix in ("", "-wal", "-shm")}


def _in_files(word: str) -> list[str]:
    # The whole word and its last 8 characters: FTS5 prefix-compresses the terms it stores.
    needles = {word.encode(), word.lower().encode(), word[-8:].encode()}
    return sorted({name for name, data in _files().items() for n in needles if n in data})


def _city() -> str:
    # A made-up capitalised city of letters only (the rules extractor takes it for a place)
    # that no stemmer changes and no other row holds.
    return "Qar" + uuid.uuid4().hex[:10].translate(str.maketrans("0123456789abcdef", "bcdfghjklmnpqrst")) + "ville"


def _say(api, user: str, text: str) -> dict:
    r = api.post(f"/users/{user}/turns", {"session_id": "s1", "user_input": text})
    assert r.status_code == 202, r.text
    return r.json()


def test_forgetting_a_fact_takes_its_entity_name_out_of_the_export_and_the_files(api):
    clinic = f"Zelmorah {marker('clinic')} Oncology Clinic"
    fact = api.post("/users/u1/facts", {"text": "User is treated weekly.", "category": "health", "entities": [clinic]})
    kept = api.post("/users/u1/facts", {"text": "User likes opera.", "entities": ["Opera House"]}).json()
    assert clinic.lower() in api.get("/users/u1/export").content.decode().lower()
    assert _in_files(clinic.split()[1]), "the entity name was not written, so its absence would prove nothing"

    assert api.delete(f"/facts/{fact.json()['id']}").status_code == 204

    export = api.get("/users/u1/export").content.decode().lower()
    assert clinic.split()[1] not in export
    assert _in_files(clinic.split()[1]) == []
    assert list(Entity.objects.values_list("name", flat=True)) == ["opera house"]
    assert api.get(f"/facts/{kept['id']}").json()["entities"] == ["opera house"]


def test_an_entity_another_fact_still_names_stays_after_a_forget(api):
    first = api.post("/users/u1/facts", {"text": "User swims at the lake.", "entities": ["Lake Bled"]}).json()
    api.post("/users/u1/facts", {"text": "User rows at the lake.", "entities": ["Lake Bled"]})
    assert api.delete(f"/facts/{first['id']}").status_code == 204
    assert list(Entity.objects.values_list("name", flat=True)) == ["lake bled"]


def test_forgetting_a_fact_from_a_turn_leaves_its_words_only_in_the_turn(api):
    city = _city()
    _say(api, "u1", f"I live in {city} and I work at Samsung as a nurse.")
    assert Fact.objects.filter(key="home_city").exists(), list(Fact.objects.values_list("text", flat=True))
    assert _in_files(city)

    assert api.delete("/users/u1/facts", key="home_city").json() == {"deleted": 1}

    export = api.get("/users/u1/export").json()
    # The turn keeps what was said (withdraw_turn=true takes it too); nothing else quotes it.
    turn_words = [t["user_input"] for t in export["turns"]]
    del export["turns"]
    assert city.lower() not in str(export).lower()
    assert any(city in words for words in turn_words)
    [employer] = export["facts"]
    assert employer["text"] == "User works at Samsung." and employer["source_excerpt"] == ""
    assert sorted(e["name"] for e in export["entities"]) == ["samsung", "user"]
    # Its words leave every table but the turns'.
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM facts_fact WHERE source_excerpt LIKE %s", [f"%{city}%"])
        assert cursor.fetchone()[0] == 0
    assert fts.count_user(Fact.objects.get().user_id) == 1


def test_withdraw_turn_takes_the_turn_and_every_copy_of_its_words_out_of_the_export_and_the_files(api):
    city = _city()
    _say(api, "u1", f"I live in {city} and I work at Samsung as a nurse.")
    _say(api, "u1", "I like jazz.")
    assert _in_files(city)

    assert api.delete("/users/u1/facts", key="home_city", withdraw_turn="true").json() == {"deleted": 1}

    assert city.lower() not in api.get("/users/u1/export").content.decode().lower()
    assert _in_files(city) == []
    employer = Fact.objects.get(key="employer")
    assert employer.text == "User works at Samsung." and employer.source_turn is None
    assert list(Turn.objects.values_list("user_input", flat=True)) == ["I like jazz."]
    # The other fact is found again, indexed without the withdrawn turn's words.
    hits = api.post("/users/u1/recall", {"query": "Samsung"}).json()["items"]
    assert [h["fact"]["text"] for h in hits][:1] == ["User works at Samsung."]


def test_withdraw_turn_through_delete_by_id(api):
    city = _city()
    _say(api, "u1", f"I live in {city}.")
    fact = Fact.objects.get(key="home_city")
    assert api.delete(f"/facts/{fact.uuid}", withdraw_turn="true").status_code == 204
    assert not Turn.objects.exists() and not Fact.objects.exists()
    assert city.lower() not in api.get("/users/u1/export").content.decode().lower()
    assert _in_files(city) == []


def test_a_forget_without_withdraw_turn_keeps_the_turn(api):
    _say(api, "u1", "I live in Lisbon.")
    fact = Fact.objects.get(key="home_city")
    assert api.delete(f"/facts/{fact.uuid}").status_code == 204
    assert Turn.objects.get().episode_withdrawn
