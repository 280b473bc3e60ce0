"""Importing a person's history through the product: the command, the API, the pace, and an
erase that stops an import half-way. Runs on both engines (Makefile PG_TESTS)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from facts import privacy, services
from facts.models import Fact, MemoryUser, Turn, TurnState
from importer.models import ImportBatch, ImportTurn
from importer.services import import_start, import_step
from tests.base import ApiClient, issue_key, make_tenant
from tests.importer.exports import chatgpt_export, claude_export, jsonl_export

pytestmark = pytest.mark.django_db(transaction=True)

STAFF = services.Actor("staff", "ines")


@pytest.fixture(autouse=True)
def _offline_extractor_and_quick_pace(settings):
    settings.OPENAI_API_KEY = ""  # the rules extractor: no model
    settings.MEMORY_IMPORT_TURNS_PER_SECOND = 50


def _command(tenant, user, kind, path) -> dict:
    out = StringIO()
    call_command(
        "import_conversations",
        "--tenant",
        str(tenant.pk),
        "--user",
        user,
        "--format",
        kind,
        str(path),
        stdout=out,
        stderr=StringIO(),
    )
    return json.loads(out.getvalue())


def test_the_command_imports_each_turn_once_with_its_time_and_a_second_run_adds_nothing(alice, tmp_path):
    export = tmp_path / "conversations.json"
    export.write_text(chatgpt_export())

    first = _command(alice.tenant, "ana", "chatgpt", export)
    again = _command(alice.tenant, "ana", "chatgpt", export)

    assert (first["turns"], first["added"], first["already_there"]) == (3, 3, 0)
    assert (again["added"], again["already_there"]) == (0, 3)
    turns = Turn.objects.filter(user__external_id="ana").order_by("occurred_at")
    assert turns.count() == 3
    assert turns[0].occurred_at == datetime(2024, 3, 1, 9, 1, tzinfo=UTC)
    assert {t.state for t in turns} <= {TurnState.DONE, TurnState.SKIPPED}
    # The turns went through extraction like live ones.
    assert Fact.objects.filter(user__external_id="ana").exists()
    assert not ImportTurn.objects.exists(), "posted turns' words stay in the batch"


def test_a_command_killed_half_way_goes_on_where_it_stopped(alice, tmp_path):
    export = tmp_path / "turns.jsonl"
    export.write_text(jsonl_export(7))
    batch, _ = import_start(tenant=alice.tenant, user_id="ben", kind="jsonl", text=export.read_text())
    import_step(batch.pk, turns=3)  # then the process was killed

    summary = _command(alice.tenant, "ben", "jsonl", export)

    assert summary["import_id"] == batch.pk and summary["added"] == 7
    assert Turn.objects.filter(user__external_id="ben").count() == 7


def test_erasing_the_person_stops_their_import_and_nothing_comes_back(alice):
    batch, _ = import_start(tenant=alice.tenant, user_id="cleo", kind="jsonl", text=jsonl_export(6))
    import_step(batch.pk, turns=2)

    privacy.user_erase(user=MemoryUser.objects.get(external_id="cleo"), actor=STAFF)
    step = import_step(batch.pk)

    assert step.batch is None and step.posted == 0
    assert not MemoryUser.objects.filter(external_id="cleo").exists()
    assert not ImportBatch.objects.exists() and not ImportTurn.objects.exists()


def test_an_import_waits_while_the_extraction_queue_is_long(alice, settings):
    settings.MEMORY_IMPORT_MAX_WAITING = 1
    user = MemoryUser.objects.create(tenant=alice.tenant, external_id="live")
    for n in range(2):
        Turn.objects.create(tenant=alice.tenant, user=user, session_id="s", turn_id=f"live-{n}", user_input="hi")
    batch, _ = import_start(tenant=alice.tenant, user_id="dora", kind="jsonl", text=jsonl_export(2))

    step = import_step(batch.pk)

    assert step.held_back and step.posted == 0
    assert not Turn.objects.filter(user__external_id="dora").exists()


def test_a_message_over_the_limit_is_refused_alone_and_the_rest_imported(alice, settings):
    settings.MEMORY_MAX_TURN_CHARS = 40
    text = jsonl_export(2) + json.dumps({"turn_id": "long", "user_input": "x" * 41}) + "\n"
    batch, _ = import_start(tenant=alice.tenant, user_id="eli", kind="jsonl", text=text)

    done = import_step(batch.pk).batch

    assert done.state == "done" and done.added == 2
    assert done.refused == [{"turn_id": "long", "rule": "turn_too_long", "detail": done.refused[0]["detail"]}]


def test_a_damaged_file_imports_nothing_and_creates_no_one(alice, tmp_path):
    export = tmp_path / "conversations.json"
    export.write_text('[{"title": "no messages here"}]')

    with pytest.raises(CommandError, match="Nothing was imported.*mapping"):
        _command(alice.tenant, "fay", "chatgpt", export)
    assert not MemoryUser.objects.filter(external_id="fay").exists()


def test_the_api_takes_an_export_and_reports_how_it_goes(api, django_capture_on_commit_callbacks):
    url = "/users/gus/imports/claude"
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(url, raw=claude_export().encode())

    assert response.status_code == 202, response.content
    started = response.json()
    assert started["total"] == 2 and started["format"] == "claude"
    progress = api.get(f"/users/gus/imports/{started['import_id']}").json()
    assert (progress["state"], progress["added"]) == ("done", 2)
    assert Turn.objects.get(turn_id="claude-msg-1").occurred_at == datetime(2024, 5, 2, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    ("route", "body", "status", "rule"),
    [
        ("claude", b'{"not": "a list"}', 422, "bad_export"),
        ("claude", b"\xff\xfe", 422, "bad_export"),
        ("chatgpt", b'[{"title": "no mapping"}]', 422, "bad_export"),
        ("turns", b'[{"user_input": 5}]', 422, "bad_export"),
    ],
)
def test_the_api_refuses_what_is_not_an_export_and_writes_nothing(api, route, body, status, rule):
    response = api.post(f"/users/hal/imports/{route}", raw=body)

    assert response.status_code == status, response.content
    assert rule is None or response.json()["rule"] == rule
    assert not MemoryUser.objects.filter(external_id="hal").exists()


@pytest.mark.parametrize("route", ["word", "jsonl", "CHATGPT", "chatgpt.json"])
def test_a_post_to_a_format_there_is_no_route_for_is_a_json_404_naming_the_formats(api, route):
    response = api.post(f"/users/hal/imports/{route}", raw=b"[]")

    assert response.status_code == 404, response.content
    assert response["Content-Type"] == "application/json; charset=utf-8"
    body = response.json()
    assert repr(route) in body["detail"] and "/imports/chatgpt" in body["detail"]
    assert body["formats"] == ["chatgpt", "claude", "turns"]
    assert not MemoryUser.objects.filter(external_id="hal").exists()


def test_a_post_to_an_imports_number_is_a_json_405_and_a_word_for_its_number_a_404(api):
    posted = api.post("/users/hal/imports/7", raw=b"[]")
    read = api.get("/users/hal/imports/word")

    assert (posted.status_code, posted["Allow"]) == (405, "GET")
    assert posted.json()["detail"] == "POST is not allowed at /api/v1/users/hal/imports/7; it takes GET."
    assert read.status_code == 404 and "imports are numbered" in read.json()["detail"]


def test_a_read_key_posting_to_an_unknown_format_is_refused_as_for_any_import(api, alice):
    reader = ApiClient(issue_key(alice.tenant, ("read",)))

    assert reader.post("/users/hal/imports/word", raw=b"[]").status_code == 403


def test_an_export_with_nothing_to_import_says_so_and_creates_no_one(api):
    response = api.post("/users/kit/imports/chatgpt", raw=b'[{"mapping": {}}]')

    assert response.status_code == 200
    assert (response.json()["import_id"], response.json()["total"]) == (None, 0)
    assert not MemoryUser.objects.filter(external_id="kit").exists()


def test_the_api_takes_turns_and_refuses_alone_one_it_cannot_post(api, django_capture_on_commit_callbacks):
    turns = [
        {"turn_id": "a", "session_id": "s", "user_input": "I keep bees.", "occurred_at": "2022-04-01T08:00:00Z"},
        {"turn_id": "b", "session_id": "s", "user_input": "I moved.", "occurred_at": "last spring"},
        {"turn_id": "c", "session_id": "s", "user_input": "   "},
    ]
    with django_capture_on_commit_callbacks(execute=True):
        started = api.post("/users/lea/imports/turns", turns).json()

    done = api.get(f"/users/lea/imports/{started['import_id']}").json()
    assert done["added"] == 1
    assert [(r["turn_id"], r["rule"]) for r in done["refused"]] == [("b", "bad_turn"), ("c", "empty")]


def test_the_api_refuses_an_export_over_its_cap(api, settings):
    settings.MEMORY_IMPORT_MAX_BYTES = 1024

    body = [{"user_input": f"Note {n}: I like trail {n}."} for n in range(40)]
    response = api.post("/users/ivy/imports/turns", body)

    assert response.status_code == 422 and response.json()["rule"] == "export_too_large"
    assert "import_conversations" in response.json()["detail"]


def test_a_read_key_cannot_import_and_another_tenant_cannot_read_the_import(alice, bob_api):
    reader = ApiClient(make_tenant("reader", scopes=("read",)).raw_key)
    batch, _ = import_start(tenant=alice.tenant, user_id="jo", kind="jsonl", text=jsonl_export(1))

    assert reader.post("/users/jo/imports/turns", [{"user_input": "hi"}]).status_code == 403
    assert bob_api.get(f"/users/jo/imports/{batch.pk}").status_code == 404


def test_a_turn_no_database_can_keep_is_refused_alone_without_its_words(api, django_capture_on_commit_callbacks):
    # JSON's \u escapes allow a NUL and a lone surrogate; neither SQLite's UTF-8 nor jsonb keeps them.
    body = b'[{"turn_id": "nul", "user_input": "a\\u0000b"}, {"turn_id": "half", "user_input": "x\\ud908y"},'
    body += b' {"turn_id": "fine", "user_input": "I keep bees."}]'
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/users/mia/imports/turns", raw=body)

    assert response.status_code == 202, response.content
    done = api.get(f"/users/mia/imports/{response.json()['import_id']}").json()
    assert done["added"] == 1
    assert sorted(r["turn_id"] for r in done["refused"]) == ["half", "nul"]


def _recall_times(api, times: int) -> None:
    assert api.post("/users/reader/facts", {"text": "User drinks green tea."}).status_code == 201
    for n in range(times):
        assert api.post("/users/reader/recall", {"query": f"tea {n}"}).status_code == 200


def test_an_import_posts_one_turn_and_waits_longer_while_live_recalls_are_busy(api, alice, settings):
    settings.MEMORY_IMPORT_YIELD_ABOVE, settings.MEMORY_IMPORT_BUSY_SECONDS = 0.5, 30.0
    _recall_times(api, 6)  # six recalls in the last ten seconds: 0.6 a second
    batch, _ = import_start(tenant=alice.tenant, user_id="fay", kind="jsonl", text=jsonl_export(4))

    step = import_step(batch.pk)

    assert (step.posted, step.wait, step.held_back) == (1, 30.0, False)
    assert Turn.objects.filter(user__external_id="fay").count() == 1


def test_an_import_goes_at_its_full_pace_when_live_recalls_are_quiet(api, alice, settings):
    settings.MEMORY_IMPORT_YIELD_ABOVE = 0.5
    _recall_times(api, 5)  # 0.5 a second: not above the setting
    batch, _ = import_start(tenant=alice.tenant, user_id="gus", kind="jsonl", text=jsonl_export(4))

    step = import_step(batch.pk)

    assert (step.posted, step.wait) == (4, 1.0) and step.batch.state == "done"
