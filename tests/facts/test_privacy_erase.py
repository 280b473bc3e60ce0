"""user_erase, erase_preview, user_forget_key and user_export, through the real write path and receivers."""

from __future__ import annotations

import json

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from facts import privacy, services
from facts.models import (
    AppliedChange,
    DeletionReceipt,
    Edge,
    Entity,
    Fact,
    FactEntity,
    FactHistory,
    MemoryUser,
    SessionCursor,
    Turn,
)
from facts.signals import user_erasing
from recall import indexer
from tests.facts.dashboard_helpers import apps_has_profiles, memory_user, seed_everything

STAFF = services.Actor("staff", "ines")


def _index(user: MemoryUser) -> None:
    # The recall index fills after commit; these tests never commit, so fill its lexical part directly.
    indexer.index_items(list(Fact.objects.filter(user=user).values_list("pk", flat=True)), [])


def _rows_of(user_pk: int) -> dict[str, int]:
    return {
        "facts": Fact.objects.filter(user_id=user_pk).count(),
        "history": FactHistory.objects.filter(user_id=user_pk).count(),
        "entities": Entity.objects.filter(user_id=user_pk).count(),
        "fact_entities": FactEntity.objects.filter(fact__user_id=user_pk).count(),
        "edges": Edge.objects.filter(user_id=user_pk).count(),
        "turns": Turn.objects.filter(user_id=user_pk).count(),
        "cursors": SessionCursor.objects.filter(user_id=user_pk).count(),
        "applied_changes": AppliedChange.objects.filter(user_id=user_pk).count(),
    }


@pytest.fixture
def two_users(alice):
    seed_everything(alice.tenant, "victim")
    seed_everything(alice.tenant, "bystander")
    victim = MemoryUser.objects.get(external_id="victim")
    bystander = MemoryUser.objects.get(external_id="bystander")
    _index(victim)
    _index(bystander)
    return victim, bystander


def test_it_erases_every_kind_of_row_and_counts_them_in_the_receipt(two_users, alice):
    victim, bystander = two_users
    before = _rows_of(victim.pk)
    assert all(before.values()), before
    bystander_before = _rows_of(bystander.pk)

    receipt = privacy.user_erase(user=victim, actor=STAFF)

    assert not MemoryUser.objects.filter(pk=victim.pk).exists()
    assert not any(_rows_of(victim.pk).values())
    for kind, n in before.items():
        assert receipt.counts[kind] == n, kind
    assert receipt.counts["fts_rows"] == 3  # the index holds live facts only: tool, coffee, Kim
    assert "vectors" in receipt.counts
    if apps_has_profiles():
        assert receipt.counts["profiles"] == 1
    assert _rows_of(bystander.pk) == bystander_before


def test_it_keeps_a_receipt_without_personal_data(two_users, alice):
    victim, _ = two_users
    receipt = privacy.user_erase(user=victim, actor=STAFF)
    stored = DeletionReceipt.objects.get(pk=receipt.pk)
    assert stored.tenant_id == alice.tenant.pk and stored.scope == "user"
    assert stored.user_hash == privacy.user_hash(tenant_id=alice.tenant.pk, external_id="victim")
    assert len(stored.user_hash) == 64 and "victim" not in json.dumps(stored.counts)
    assert (stored.actor_kind, stored.actor_id) == ("staff", "ines")


def test_its_preview_counts_exactly_what_the_erase_deletes_and_deletes_nothing(two_users):
    victim, _ = two_users
    before = _rows_of(victim.pk)
    preview = privacy.erase_preview(user=victim)
    assert _rows_of(victim.pk) == before and MemoryUser.objects.filter(pk=victim.pk).exists()
    assert preview["fts_rows"] > 0
    receipt = privacy.user_erase(user=victim, actor=STAFF)
    assert preview == receipt.counts


def test_its_preview_only_reads_so_it_never_takes_the_write_lock(two_users):
    from django.db import connection

    victim, _ = two_users
    statements: list[str] = []

    def record(execute, sql, params, many, context):
        statements.append(sql.lstrip().split(None, 1)[0].upper())
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        preview = privacy.erase_preview(user=victim)
    assert preview["facts"] > 0 and preview["fts_rows"] > 0
    assert set(statements) == {"SELECT"}, statements


def test_it_erases_nothing_when_a_receiver_fails(two_users):
    victim, _ = two_users
    before = _rows_of(victim.pk)

    def broken(sender, **kwargs):
        raise RuntimeError("index unavailable")

    user_erasing.connect(broken, dispatch_uid="test.broken")
    try:
        with pytest.raises(RuntimeError):
            privacy.user_erase(user=victim, actor=STAFF)
    finally:
        user_erasing.disconnect(dispatch_uid="test.broken")
    assert _rows_of(victim.pk) == before
    assert not DeletionReceipt.objects.exists()


def test_it_deletes_by_key_through_the_write_path_with_a_key_receipt(two_users):
    victim, _ = two_users
    receipt = privacy.user_forget_key(user=victim, key="name", actor=STAFF)
    assert receipt.scope == "key" and receipt.counts == {"facts": 2}
    assert not Fact.objects.filter(user=victim, key="name").exists()
    assert Fact.objects.filter(user=victim, key="tool").exists()
    deletes = FactHistory.objects.filter(user=victim, action="delete")
    assert deletes.count() == 2 and all(d.before.get("text") is None for d in deletes)


def test_it_exports_everything_held_about_the_user_as_json(two_users):
    victim, _ = two_users
    data = privacy.user_export(user=victim)
    json.dumps(data, cls=DjangoJSONEncoder)  # one JSON document
    assert data["user_id"] == "victim" and data["format"] == privacy.EXPORT_FORMAT
    assert len(data["facts"]) == Fact.objects.filter(user=victim).count()
    statuses = {f["status"] for f in data["facts"]}
    assert {"active", "superseded", "pending_confirmation"} <= statuses
    assert all(f["history"] for f in data["facts"])
    assert sum(len(f["history"]) for f in data["facts"]) == FactHistory.objects.filter(user=victim).count()
    assert data["entities"] and data["edges"][0]["relation"] == "uses"
    assert data["turns"][0]["user_input"].startswith("I use zqturn")
    if apps_has_profiles():
        assert data["profile"] and "zqprofile" in json.dumps(data["profile"])
    assert "bystander" not in json.dumps(data, cls=DjangoJSONEncoder)


def test_it_exports_the_trail_of_forgotten_facts_without_their_words(alice):
    user = memory_user(alice.tenant, "u-9")
    fact = services.fact_store(user=user, text="User owns a boat.", actor=STAFF, key="boat").fact
    services.fact_forget(fact=fact, actor=STAFF)
    data = privacy.user_export(user=user)
    assert data["facts"] == []
    trail = data["history_of_deleted_facts"]
    assert [e["action"] for e in trail] == ["insert", "delete"] and "boat." not in json.dumps(trail)
