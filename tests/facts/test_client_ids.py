"""One rule for the ids clients choose (user_id, session_id, turn_id): facts.services.users.validate_id."""

from __future__ import annotations

import pytest

from core.errors import Rejected
from facts import services
from facts.models import MemoryUser, Turn


@pytest.mark.parametrize("name", ["user_id", "session_id", "turn_id"])
@pytest.mark.parametrize("value", ["", "a" * 129, "a/b", "a\\b", "tab\there", "nul\x00", "del\x7f", "u1\n"])
def test_every_client_id_refuses_the_same_values_naming_the_id(name, value):
    with pytest.raises(Rejected) as refused:
        services.validate_id(value, name)
    assert refused.value.rule == name and name in refused.value.detail


def test_a_user_id_ending_in_a_newline_is_refused_and_no_user_is_created(alice):
    # The old user-id pattern let one trailing newline through (`$` matches before it).
    with pytest.raises(Rejected):
        services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1\n")
    assert not MemoryUser.objects.exists()


def test_a_session_id_with_a_delete_character_is_422_and_stores_nothing(api):
    # Session and turn ids used to allow DEL (0x7f), which user ids refused.
    r = api.post("/users/u1/turns", {"session_id": "s\x7f1", "user_input": "I like tea."})
    assert r.status_code == 422 and r.json()["rule"] == "session_id"
    assert not Turn.objects.exists() and not MemoryUser.objects.exists()


def test_surrounding_spaces_are_trimmed_from_session_and_turn_ids(api):
    r = api.post("/users/u1/turns", {"session_id": " s1 ", "turn_id": " t1 ", "user_input": "I like tea."})
    assert r.status_code == 202, r.content
    assert Turn.objects.get().session_id == "s1" and r.json()["turn_id"] == "t1"


@pytest.mark.parametrize("char", ["\u00ad", "\u200b", "\u202e", "\ufeff", "\U000e0041", "\x85", "\x9f"])
def test_a_character_the_floor_refuses_in_an_id_is_outside_the_schemas_id_pattern(char):
    # Schemathesis sends what the schema allows and reports a 422 for it (ST202): the pattern
    # must leave out every character the injection floor refuses wherever it stands.
    import re

    from core.schemas import ID_PATTERN
    from facts.guard import Rejected
    from facts.services.users import validate_id

    assert re.fullmatch(ID_PATTERN, f"user{char}") is None
    with pytest.raises(Rejected):
        validate_id(f"user{char}", "user_id")


@pytest.mark.parametrize("char", ["\x1f", "\u00ad", "\u200b", "\U000e0041", "\x92"])
def test_a_character_the_floor_refuses_in_a_key_is_outside_the_schemas_key_pattern(char):
    import re

    from facts.guard import Rejected, check_identifier
    from facts.schemas import FactIn

    # Schemathesis sent a key holding \x1f, which the schema allowed (ST202 in a fresh-clone run).
    pattern = FactIn.model_json_schema()["properties"]["key"]["pattern"]
    assert re.fullmatch(pattern, f"home{char}") is None
    with pytest.raises(Rejected):
        check_identifier(f"home{char}", "key")
