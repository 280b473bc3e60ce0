"""A method an API path does not take answers the API's one error body (`{"detail"}`) with
its Allow header (the methods in alphabetical order, the same in every process), as an
unknown path does (memory_service/not_found.py)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("put", "/api/v1/webhooks", "GET, POST"),
        ("patch", "/api/v1/users/ana/imports/3", "GET"),
        ("post", "/api/v1/health", "GET"),
    ],
)
def test_a_method_an_api_path_does_not_take_is_a_json_405_naming_the_methods_it_takes(api, method, path, allowed):
    response = getattr(api.client, method)(path, headers=api.headers)

    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert response["Allow"] == allowed
    assert response.json()["detail"] == f"{method.upper()} is not allowed at {path}; it takes {allowed}."
