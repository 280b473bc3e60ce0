"""The index commands: rebuild_recall_index and reindex_embeddings."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from facts.models import Fact, Status
from recall import fts, vec

pytestmark = pytest.mark.django_db


def test_reindex_and_rebuild_bring_the_index_back(memory):
    user = memory.user()
    fact = memory.store(user, "User keeps bees on the roof.")
    from recall import index

    index.forget([fact.pk])
    assert fts.search(user.pk, ["bees"], 5) == [] and vec.vectors([fact.pk]) == {}
    out = StringIO()
    call_command("rebuild_recall_index", stdout=out)
    assert [fid for fid, _ in fts.search(user.pk, ["bees"], 5)] == [fact.pk]
    call_command("reindex_embeddings", "--tenant", str(user.tenant_id), stdout=out)
    assert fact.pk in vec.vectors([fact.pk])
    assert "embedded=1" in out.getvalue()
    with pytest.raises(CommandError, match="No tenant"):
        call_command("reindex_embeddings", "--tenant", "00000000-0000-0000-0000-000000000000")


def test_rebuild_drops_a_vector_left_without_its_fts_row(memory):
    user = memory.user()
    gone = memory.store(user, "User keeps bees on the roof.")
    kept = memory.store(user, "User grows tomatoes.")
    fts.delete([gone.pk])  # as if a sync died between the FTS delete and the vector delete
    Fact.objects.filter(pk=gone.pk).update(status=Status.REJECTED)
    assert gone.pk in vec.vectors([gone.pk])
    out = StringIO()
    call_command("rebuild_recall_index", stdout=out)
    assert vec.vectors([gone.pk]) == {} and kept.pk in vec.vectors([kept.pk])
    assert "stale rows removed=1" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_reindex_embeddings_never_embeds_inside_a_transaction(alice, model, monkeypatch):
    from django.db import connection

    from facts import services
    from recall import index

    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    fact = services.fact_store(user=user, text="User keeps bees on the roof.", actor=services.SYSTEM).fact
    index.forget_vectors([fact.pk])
    in_transaction: list[bool] = []
    real_embed = model.embed

    def embed_and_note(texts):  # the real model; only notes whether a transaction (the write lock) is open
        in_transaction.append(connection.in_atomic_block)
        return real_embed(texts)

    monkeypatch.setattr(model, "embed", embed_and_note)
    out = StringIO()
    call_command("reindex_embeddings", "--all", stdout=out)
    assert "embedded=1" in out.getvalue() and fact.pk in vec.vectors([fact.pk])
    assert in_transaction and not any(in_transaction)
