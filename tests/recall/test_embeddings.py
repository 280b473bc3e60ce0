"""The local model's two paths: one text (a query) and a batch (indexing) give the same vector."""

from __future__ import annotations

import numpy as np
import pytest

from recall.embeddings import get_embedder

LONG = " ".join(f"On day {i} the user walked the dog along the river and fed the ducks." for i in range(60))


@pytest.mark.parametrize("text", ["what is my dog called?", LONG], ids=["query", "longer than the model's window"])
def test_one_text_is_embedded_exactly_as_in_a_batch(text):
    embedder = get_embedder()
    alone = embedder.embed([text])
    batched = embedder.embed([text, "User keeps bees on the roof."])
    assert alone.shape == (1, embedder.dim)
    assert np.allclose(alone[0], batched[0], atol=1e-5)
    assert np.isclose(np.linalg.norm(alone[0]), 1.0, atol=1e-5)
