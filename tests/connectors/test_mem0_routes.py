"""The mem0-compatible routes in process (Django's test client): auth schemes, filters, refusals."""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings

from core.errors import Rejected
from facts.models import Fact, MemoryUser, Turn
from mem0_api.convert import user_id_of
from tests.base import issue_key


def call(method: str, path: str, key: str, scheme: str = "Token", body=None):
    client = Client()
    headers = {"Authorization": f"{scheme} {key}"}
    data = json.dumps(body) if body is not None else None
    return getattr(client, method)(path, data=data, content_type="application/json", headers=headers)


@pytest.mark.parametrize(
    ("filters", "top_level", "expected"),
    [
        ({"user_id": "u1"}, None, "u1"),
        ({"AND": [{"user_id": "u1"}, {"agent_id": None}]}, None, "u1"),
        ({"OR": [{"user_id": "u1"}]}, None, "u1"),
        (None, "u1", "u1"),
    ],
)
def test_it_reads_the_user_from_plain_and_nested_filters(filters, top_level, expected):
    assert user_id_of(filters, top_level) == expected


@pytest.mark.parametrize(
    "filters",
    [None, {}, {"OR": [{"user_id": "u1"}, {"user_id": "u2"}]}, {"agent_id": "a"}, {"created_at": {"gte": "x"}}],
)
def test_it_refuses_filters_that_do_not_name_exactly_one_user(filters):
    with pytest.raises(Rejected):
        user_id_of(filters)


def test_it_accepts_token_and_bearer_and_refuses_other_schemes(alice):
    assert call("get", "/v1/ping/", alice.raw_key, "Token").status_code == 200
    assert call("get", "/v1/ping/", alice.raw_key, "Bearer").status_code == 200
    assert call("get", "/v1/ping/", alice.raw_key, "Basic").status_code == 401
    assert call("get", "/v1/ping/", "mem_unknown", "Token").status_code == 401


def test_a_refused_add_leaves_no_user_turn_or_fact(alice):
    bad = [
        {"messages": [{"role": "user", "content": "x" * 20_001}], "filters": {"user_id": "nobody"}},
        {"messages": [{"role": "user", "content": "Likes \x00 tea"}], "filters": {"user_id": "nobody"}},
        {"messages": [{"role": "system", "content": "Be brief"}], "filters": {"user_id": "nobody"}, "infer": False},
        {"messages": "I live in Porto", "filters": {"user_id": "nobody"}},
    ]
    for body in bad:
        answer = call("post", "/v3/memories/add/", alice.raw_key, body=body)
        assert answer.status_code == 422, (body, answer.content)
        assert answer.json()["detail"]
    assert not MemoryUser.objects.filter(external_id="nobody").exists()
    assert Turn.objects.count() == 0 and Fact.objects.count() == 0


def test_an_add_that_is_not_json_is_a_4xx(alice):
    answer = Client().post(
        "/v3/memories/add/",
        data=b"{not json",
        content_type="application/json",
        headers={"Authorization": f"Token {alice.raw_key}"},
    )
    assert 400 <= answer.status_code < 500
    assert Fact.objects.count() == 0


def test_a_page_out_of_range_is_refused(alice):
    answer = call("post", "/v3/memories/?page=0", alice.raw_key, body={"filters": {"user_id": "u1"}})
    assert answer.status_code == 422 and "page" in answer.json()["detail"]


def test_a_read_key_cannot_update_or_delete(alice):
    reader = issue_key(alice.tenant, ["read"])
    stored = call(
        "post",
        "/v3/memories/add/",
        alice.raw_key,
        body={"messages": [{"role": "user", "content": "Rides a bike"}], "filters": {"user_id": "u1"}, "infer": False},
    ).json()["results"][0]["id"]
    assert call("put", f"/v1/memories/{stored}/", reader, body={"text": "Rides a scooter"}).status_code == 403
    assert call("delete", f"/v1/memories/{stored}/", reader).status_code == 403
    assert Fact.objects.get(uuid=stored).text == "Rides a bike"


@override_settings(MEMORY_RATE_LIMIT_WRITE="1/day", MEMORY_RATE_LIMIT_READ="3/day", MEMORY_RATE_LIMIT_RECALL="2/day")
def test_mem0_search_counts_as_a_recall_and_its_list_as_a_read_not_as_writes(alice):
    user = {"filters": {"user_id": "u1"}}
    added = call(
        "post",
        "/v3/memories/add/",
        alice.raw_key,
        body={"messages": [{"role": "user", "content": "Rides a bike"}], **user, "infer": False},
    )
    assert added.status_code == 200  # the day's one write
    for _ in range(3):
        assert call("post", "/v3/memories/", alice.raw_key, body=user).status_code == 200
    assert call("post", "/v3/memories/", alice.raw_key, body=user).status_code == 429  # the read class
    search = {"query": "bike", **user}
    for _ in range(2):
        assert call("post", "/v3/memories/search/", alice.raw_key, body=search).status_code == 200
    refused = call("post", "/v3/memories/search/", alice.raw_key, body=search)
    assert refused.status_code == 429 and "recall requests" in refused.json()["detail"]
    assert Fact.objects.count() == 1
