"""value_json is metered (docs/api.md, "Budgets"): a size cap of its own, its characters count
against the user's budget, and a list of facts answers a bounded number of bytes per page."""

from __future__ import annotations

import json

from facts.models import Fact, MemoryUser


def _value(chars: int) -> dict:
    # {"blob": "xxx..."} is 12 characters of JSON around the string.
    return {"blob": "x" * (chars - 12)}


def test_a_value_json_over_the_cap_is_422_naming_the_rule_and_writes_nothing(api, settings):
    settings.MEMORY_VALUE_JSON_MAX_BYTES = 1000
    r = api.post("/users/u1/facts", {"text": "User's settings.", "value_json": _value(1001)})
    assert r.status_code == 422 and r.json()["rule"] == "value_json_too_large", r.json()
    assert "1001" in r.json()["detail"] and "MEMORY_VALUE_JSON_MAX_BYTES" in r.json()["detail"]
    assert not Fact.objects.exists() and not MemoryUser.objects.exists()
    assert api.post("/users/u1/facts", {"text": "User's settings.", "value_json": _value(1000)}).status_code == 201


def test_the_default_cap_refuses_a_megabyte_value(api):
    r = api.post("/users/u1/facts", {"text": "User's big blob.", "value_json": _value(2_400_000)})
    assert r.status_code == 422 and r.json()["rule"] == "value_json_too_large"
    assert not Fact.objects.exists()


def test_a_non_ascii_value_is_measured_as_its_escaped_json_text(api, settings):
    settings.MEMORY_VALUE_JSON_MAX_BYTES = 100
    # 24 characters as Python counts them, 124 as JSON text: each "é" is written \u00e9.
    r = api.post("/users/u1/facts", {"text": "User's accent.", "value_json": ["é" * 20]})
    assert r.status_code == 422 and r.json()["rule"] == "value_json_too_large"


def test_value_json_counts_against_the_users_budget(api, settings):
    settings.MEMORY_OTHER_BUDGET_CHARS = 1000
    assert api.post("/users/u1/facts", {"text": "User's layout.", "value_json": _value(900)}).status_code == 201
    r = api.post("/users/u1/facts", {"text": "User's theme.", "value_json": _value(100)})
    assert r.status_code == 422 and r.json()["rule"] == "user_budget", r.json()
    assert Fact.objects.count() == 1
    # Text alone still fits: the meter holds 14 + 900 characters.
    assert api.post("/users/u1/facts", {"text": "User likes tea."}).status_code == 201


def test_a_correction_frees_the_value_json_of_the_fact_it_replaces(api, settings):
    settings.MEMORY_OTHER_BUDGET_CHARS = 1000
    first = api.post("/users/u1/facts", {"text": "User's layout.", "key": "layout", "value_json": _value(900)})
    assert first.status_code == 201
    second = api.post("/users/u1/facts", {"text": "User's new layout.", "key": "layout", "value_json": _value(900)})
    assert second.status_code == 201, second.json()


def test_a_list_of_large_facts_stays_under_the_byte_bound_and_paging_returns_every_fact(api, settings):
    settings.MEMORY_OTHER_BUDGET_CHARS = 10_000_000
    settings.MEMORY_LIST_MAX_BYTES = 65_536
    ids = {
        api.post("/users/u1/facts", {"text": f"User's panel {i}.", "value_json": _value(12_000)}).json()["id"]
        for i in range(30)
    }
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        r = api.get("/users/u1/facts", limit=200, **({"cursor": cursor} if cursor else {}))
        assert r.status_code == 200
        assert len(r.content) <= 65_536, len(r.content)
        body = json.loads(r.content)
        seen += [f["id"] for f in body["items"]]
        pages += 1
        cursor = body["next_cursor"]
        if not cursor:
            break
    assert pages > 1 and len(seen) == len(ids) and set(seen) == ids


def test_a_single_fact_larger_than_the_bound_still_comes_on_its_own_page(api, settings):
    # The bound's minimum (64 KiB) holds any one fact of the default limits; with larger
    # settings a fact alone over it is answered on a page of its own, never skipped.
    settings.MEMORY_OTHER_BUDGET_CHARS = 10_000_000
    settings.MEMORY_VALUE_JSON_MAX_BYTES = 200_000
    settings.MEMORY_LIST_MAX_BYTES = 65_536
    big = api.post("/users/u1/facts", {"text": "User's huge panel.", "value_json": _value(100_000)}).json()
    small = api.post("/users/u1/facts", {"text": "User likes tea."}).json()
    first = api.get("/users/u1/facts").json()
    assert [f["id"] for f in first["items"]] == [small["id"]]
    second = api.get("/users/u1/facts", cursor=first["next_cursor"]).json()
    assert [f["id"] for f in second["items"]] == [big["id"]] and second["next_cursor"] is None
