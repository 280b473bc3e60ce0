"""move_store's vector copy (recall/move_vectors.py) on its own: an export read back."""

from __future__ import annotations

import numpy as np
import pytest

from facts import services
from facts.models import Fact
from recall import indexer, move_vectors, vec


@pytest.mark.django_db(transaction=True)
def test_an_export_of_a_store_without_episodes_loads_back_the_same_vectors(alice, tmp_path):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="ana")
    for text in ("User lives in Porto.", "User keeps bees."):
        services.fact_store(user=user, text=text, actor=services.SYSTEM)
    ids = list(Fact.objects.values_list("pk", flat=True))
    indexer.index_items(ids, [])
    before = vec.vectors(ids)

    path = tmp_path / "vectors.npz"
    assert move_vectors.export(path) == 2
    vec.delete(ids)
    assert move_vectors.load(path) == 2
    after = vec.vectors(ids)
    assert set(after) == set(ids)
    assert all(np.allclose(after[i], before[i]) for i in ids)
