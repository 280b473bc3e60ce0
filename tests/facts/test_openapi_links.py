"""The OpenAPI document links a posted turn to the routes that read and retry it (issue 38):
without the link, schemathesis's stateful phase never reached the retry route."""

from __future__ import annotations


def _operations(schema: dict) -> dict[str, tuple[str, dict]]:
    return {op["operationId"]: (path, op) for path, ops in schema["paths"].items() for op in ops.values()}


def test_a_posted_turn_links_to_its_read_and_its_retry(api):
    schema = api.get("/openapi.json").json()
    operations = _operations(schema)
    answers = schema["paths"]["/api/v1/users/{user_id}/turns"]["post"]["responses"]
    for status in ("200", "202"):
        links = answers[status]["links"]
        targets = {operations[link["operationId"]][0] for link in links.values()}
        assert "/api/v1/users/{user_id}/turns/{turn_id}/retry" in targets
        assert "/api/v1/users/{user_id}/turns/{turn_id}" in targets
        for link in links.values():
            _, operation = operations[link["operationId"]]
            path_parameters = {p["name"] for p in operation["parameters"] if p["in"] == "path"}
            assert set(link["parameters"]) == path_parameters
            assert link["parameters"]["turn_id"] == "$response.body#/turn_id"  # the turn the answer names
