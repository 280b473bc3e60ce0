from __future__ import annotations

import re

from facts.schemas import CURSOR_PATTERN


def test_cursor_pagination_walks_every_live_fact_once(api):
    texts = {f"User visited city number {i}." for i in range(23)}
    for text in sorted(texts):
        assert api.post("/users/u1/facts", {"text": text}).status_code == 201
    seen, cursor = [], None
    while True:
        params = {"limit": 5, **({"cursor": cursor} if cursor else {})}
        page = api.get("/users/u1/facts", **params).json()
        seen += [f["text"] for f in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert len(seen) == 23 and set(seen) == texts


def test_filters_by_category(api):
    api.post("/users/u1/facts", {"text": "User is vegan.", "category": "hard_preference"})
    api.post("/users/u1/facts", {"text": "User uses Postgres.", "category": "environment"})
    items = api.get("/users/u1/facts", category="environment").json()["items"]
    assert [f["text"] for f in items] == ["User uses Postgres."]


def test_a_forged_cursor_is_422(api):
    api.post("/users/u1/facts", {"text": "User is vegan."})
    r = api.get("/users/u1/facts", cursor="not-a-cursor")
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["query", "cursor"]


def test_every_cursor_of_the_schemas_form_is_a_position_to_page_from(api):
    # schemathesis found `cursor=0` (schema-valid then) answered 422: now the schema states the
    # form exactly and every value of it is accepted.
    for text in ("User is vegan.", "User lives in Porto.", "User plays chess."):
        assert api.post("/users/u1/facts", {"text": text}).status_code == 201
    first = api.get("/users/u1/facts", limit=1).json()
    assert re.fullmatch(CURSOR_PATTERN, first["next_cursor"])
    rest = api.get("/users/u1/facts", cursor=first["next_cursor"]).json()
    assert [f["text"] for f in rest["items"]] == ["User lives in Porto.", "User is vegan."]
    assert api.get("/users/u1/facts", cursor="0_0").json() == {"items": [], "next_cursor": None}
    top = api.get("/users/u1/facts", cursor="9" * 20 + "_" + "9" * 20)
    assert top.status_code == 200 and len(top.json()["items"]) == 3


def test_an_out_of_range_limit_is_422(api):
    api.post("/users/u1/facts", {"text": "User is vegan."})
    assert api.get("/users/u1/facts", limit=0).status_code == 422
    assert api.get("/users/u1/facts", limit=10_000).status_code == 422


def test_an_unknown_user_is_404(api):
    assert api.get("/users/nobody/facts").status_code == 404


def test_the_schema_states_the_cursors_form_and_its_422(api):
    schema = api.get("/openapi.json").json()
    parameters = schema["paths"]["/api/v1/users/{user_id}/facts"]["get"]["parameters"]
    [cursor] = [p for p in parameters if p["name"] == "cursor"]
    [string] = [form for form in cursor["schema"]["anyOf"] if form["type"] == "string"]
    assert string["pattern"] == CURSOR_PATTERN == "^[0-9]{1,20}_[0-9]{1,20}$"
    assert "422" in cursor["description"]
    r = api.get("/users/u1/facts", cursor="abc$")
    assert r.status_code == 422
