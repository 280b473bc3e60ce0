"""Applying replies: ids, the confidence policy, expiry, and graph edges."""

from __future__ import annotations

from datetime import UTC, datetime

from facts import services
from facts.models import Edge, Fact, MemoryUser, Status
from tests.facts.extraction.conftest import add, reply


def _store(tenant, user_id, text, key, category="other", confidence=None, entities=None, valid_from=None):
    user = services.memory_user_get_or_create(tenant=tenant, user_id=user_id)
    return services.fact_store(
        user=user,
        text=text,
        actor=services.SYSTEM,
        key=key,
        category=category,
        confidence=confidence,
        entities=entities,
        valid_from=valid_from,
    ).fact


def test_an_extractor_naming_a_fact_of_another_user_or_tenant_changes_none_of_theirs(turns, fake_llm, alice, bob):
    other_user = _store(alice.tenant, "u2", "User likes jazz.", "music")
    other_tenant = _store(bob.tenant, "u1", "User likes opera.", "music")
    mine = _store(alice.tenant, "u1", "User likes rock.", "music")
    fake_llm.script(
        reply(
            supersede=[
                {"id": str(other_user.uuid), "text": "User likes techno.", "key": "dance"},
                {"id": str(other_tenant.uuid), "text": "User likes folk.", "key": "folk"},
            ],
            expire=[
                {"id": str(other_user.uuid), "valid_to": None, "reason": "x"},
                {"id": str(other_tenant.uuid), "valid_to": None, "reason": "x"},
                {"id": "f99", "valid_to": None, "reason": "x"},
                {"id": "not-a-uuid", "reason": "x"},
            ],
        )
    )
    turns.post("I don't listen to jazz or opera any more.", turn_id="t1")
    state = turns.get("t1")
    assert state["status"] == "done"
    assert sorted(state["outcome"]["ignored_ids"]) == sorted(
        [str(other_user.uuid), str(other_tenant.uuid)] * 2 + ["f99", "not-a-uuid"]
    )
    for fact in (other_user, other_tenant, mine):
        fact.refresh_from_db()
        assert fact.is_live
    # The replacement texts are kept as this user's own new facts, linked to nothing.
    mine_now = Fact.objects.filter(user=mine.user).exclude(pk=mine.pk)
    assert sorted(mine_now.values_list("text", flat=True)) == ["User likes folk.", "User likes techno."]
    assert not mine_now.filter(replaces__isnull=False).exists()


def test_a_supersede_by_prompt_ref_replaces_the_live_fact(turns, fake_llm, alice):
    old = _store(alice.tenant, "u1", "User uses Vim.", "editor", "environment", entities=["Vim"])
    fake_llm.script(
        reply(
            supersede=[
                {"id": "f1", "text": "User uses Emacs.", "key": "editor", "category": None, "entities": ["Emacs"]}
            ]
        )
    )
    turns.post("I switched from Vim to Emacs.", turn_id="t1")
    old.refresh_from_db()
    new = Fact.objects.live().get()
    assert old.status == Status.SUPERSEDED and old.superseded_by == new and old.valid_to is not None
    assert new.text == "User uses Emacs." and new.category == "environment" and new.chain_id == old.chain_id
    outcome = turns.get("t1")["outcome"]
    assert outcome["superseded"] == [str(old.uuid)] and outcome["added"] == [str(new.uuid)]


def test_a_high_risk_contradiction_at_confidence_half_waits_for_confirmation(turns, fake_llm, alice):
    old = _store(alice.tenant, "u1", "User is allergic to peanuts.", "allergy", "health")
    fake_llm.script(
        reply(
            supersede=[
                {
                    "id": "f1",
                    "text": "User is not allergic to peanuts.",
                    "key": "allergy",
                    "category": "health",
                    "confidence": 0.5,
                }
            ]
        )
    )
    turns.post("Turns out I'm not allergic to peanuts after all.", turn_id="t1")
    old.refresh_from_db()
    pending = Fact.objects.get(status=Status.PENDING)
    # The model's 0.5 counts no more than a first mention (0.4) for a health fact.
    assert old.is_live and pending.replaces == old and pending.confidence == 0.4
    outcome = turns.get("t1")["outcome"]
    assert outcome["pending"] == [str(pending.uuid)] and outcome["superseded"] == []


def test_same_key_new_value_is_arbitrated_without_an_id(turns, fake_llm, alice):
    old = _store(alice.tenant, "u1", "User drinks black coffee.", "coffee", "soft_preference")
    fake_llm.script(reply(add=[add("User drinks flat whites.", "coffee", "soft_preference")]))
    turns.post("These days I drink flat whites.", turn_id="t1")
    old.refresh_from_db()
    assert old.status == Status.SUPERSEDED
    assert Fact.objects.live().get().text == "User drinks flat whites."


def test_an_expire_sets_valid_to(turns, fake_llm, alice):
    since = datetime(2020, 1, 1, tzinfo=UTC)
    fact = _store(alice.tenant, "u1", "User lives in Berlin.", "home_city", "identity", valid_from=since)
    fake_llm.script(reply(expire=[{"id": "f1", "valid_to": "2025-03-01T00:00:00Z", "reason": "moved out"}]))
    turns.post("I moved out of Berlin on March 1st.", turn_id="t1", occurred_at="2025-03-10T12:00:00Z")
    fact.refresh_from_db()
    assert fact.status == Status.EXPIRED and fact.valid_to.isoformat() == "2025-03-01T00:00:00+00:00"
    assert turns.get("t1")["outcome"]["expired"] == [str(fact.uuid)]


def test_an_expire_without_a_time_uses_the_turn_time(turns, fake_llm, alice):
    fact = _store(alice.tenant, "u1", "User has a gym membership.", "gym")
    fake_llm.script(reply(expire=[{"id": "f1", "valid_to": None, "reason": "cancelled"}]))
    turns.post("I cancelled my gym membership.", turn_id="t1", occurred_at="2030-01-01T00:00:00Z")
    fact.refresh_from_db()
    assert fact.valid_to is not None and fact.valid_to.year < 2030  # never in the future


def test_edges_are_upserted_with_provenance_and_retire_with_their_fact(turns, fake_llm):
    works = add("User works at Initech.", "employer", "project", ["Initech"])
    fake_llm.script(
        reply(
            add=[works],
            edges=[
                {"src": "User", "relation": "works at", "dst": "Initech"},
                {"src": "user", "relation": "Works-At", "dst": "initech"},
            ],
        )
    )
    turns.post("I work at Initech.", turn_id="t1")
    edge = Edge.objects.get()
    fact = Fact.objects.get()
    assert (edge.src.name, edge.relation, edge.dst.name) == ("user", "works_at", "initech")
    assert edge.fact == fact and edge.valid_to is None

    # Superseded: the edge retires with its fact.
    fake_llm.script(
        reply(
            supersede=[
                {
                    "id": "f1",
                    "text": "User works at Globex.",
                    "key": "employer",
                    "category": "project",
                    "entities": ["Globex"],
                }
            ],
            edges=[{"src": "User", "relation": "works_at", "dst": "Globex"}],
        )
    )
    turns.post("I left Initech, I work at Globex now.", turn_id="t2")
    edge.refresh_from_db()
    fact.refresh_from_db()
    assert fact.status == Status.SUPERSEDED and edge.valid_to == fact.valid_to
    live_edge = Edge.objects.get(valid_to=None)
    assert live_edge.dst.name == "globex" and live_edge.fact.text == "User works at Globex."

    # Expired: the same.
    fake_llm.script(reply(expire=[{"id": "f1", "reason": "quit"}]))
    turns.post("I quit Globex.", turn_id="t3")
    live_edge.refresh_from_db()
    assert live_edge.valid_to is not None and not Edge.objects.filter(valid_to=None).exists()


def test_entity_aliases_and_plurals_resolve_to_one_entity(turns, fake_llm, alice):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    from facts.entities import resolve_entity

    pg = resolve_entity(user=user, name="PostgreSQL")
    pg.aliases = ["postgres", "pg"]
    pg.save()
    fake_llm.script(
        reply(
            add=[add("User runs Postgres in production.", "database", "environment", ["Postgres"])],
            edges=[{"src": "Dogs", "relation": "guard", "dst": "pg"}],
        )
    )
    turns.post("We run Postgres in production, and my dogs guard the servers.", turn_id="t1")
    fact = Fact.objects.get()
    assert [t.entity_id for t in fact.entity_tags.all()] == [pg.pk]
    edge = Edge.objects.get()
    assert edge.dst == pg and edge.fact == fact
    assert resolve_entity(user=user, name=" dog ") == edge.src  # singular, plural, case: one entity
    assert MemoryUser.objects.count() == 1


def test_naive_times_from_the_client_and_the_model_are_read_as_utc(turns, fake_llm):
    fake_llm.script(
        reply(
            add=[
                add(
                    "User started learning Greek.",
                    "learning",
                    "project",
                    ["Greek"],
                    valid_from="2025-01-05T09:00:00",
                    event_time="2025-01-05",
                )
            ]
        )
    )
    turns.post("I started learning Greek in early January.", turn_id="t1", occurred_at="2025-03-10T12:00:00")
    state = turns.get("t1")
    assert state["occurred_at"].startswith("2025-03-10T12:00:00")
    fact = Fact.objects.get()
    assert fact.valid_from.isoformat() == "2025-01-05T09:00:00+00:00"
    assert fact.event_time.isoformat() == "2025-01-05T00:00:00+00:00"
    assert "2025-03-10T12:00:00" in fake_llm.user_prompts()[0]


def test_a_fact_without_a_time_from_the_model_is_valid_from_when_its_turn_happened(turns, fake_llm):
    fake_llm.script(reply(add=[add("User keeps bees.", "hobby", "other", ["bees"])]))
    turns.post("I keep bees on the roof.", turn_id="t1", occurred_at="2023-05-08T13:56:00Z")
    fact = Fact.objects.get()
    assert fact.valid_from == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
