"""The local model's two paths: one text (a query) and a batch (indexing) give the same vector."""

from __future__ import annotations

from io import StringIO

import numpy as np
import pytest
from django.core.management import call_command

from recall import onnx_model
from recall.embeddings import LocalEmbedder, embedder_state, get_embedder

LONG = " ".join(f"On day {i} the user walked the dog along the river and fed the ducks." for i in range(60))


@pytest.mark.parametrize("text", ["what is my dog called?", LONG], ids=["query", "longer than the model's window"])
def test_one_text_is_embedded_exactly_as_in_a_batch(text):
    embedder = get_embedder()
    alone = embedder.embed([text])
    batched = embedder.embed([text, "User keeps bees on the roof."])
    assert alone.shape == (1, embedder.dim)
    assert np.allclose(alone[0], batched[0], atol=1e-5)
    assert np.isclose(np.linalg.norm(alone[0]), 1.0, atol=1e-5)


TEXTS = [
    "what is my dog called?",
    "We just adopted a dog called Biscuit.",
    "I'm training for the Berlin marathon in April.",
    "Ça va? Je m'appelle Zoë et j'habite à Zürich.",
    LONG,
]


def test_onnx_runtime_gives_the_vectors_torch_gives(settings):
    """The indexed vectors stay valid when the runtime changes: same model name, same vectors."""
    settings.MEMORY_EMBEDDING_RUNTIME = "onnx"
    on_onnx = LocalEmbedder().embed(TEXTS)
    settings.MEMORY_EMBEDDING_RUNTIME = "torch"
    on_torch = LocalEmbedder().embed(TEXTS)
    cosines = (on_onnx * on_torch).sum(axis=1)
    assert cosines.min() > 0.99999, cosines
    # One text on its own and in a padded batch.
    settings.MEMORY_EMBEDDING_RUNTIME = "onnx"
    alone = LocalEmbedder().embed([TEXTS[0]])
    assert float(alone[0] @ on_torch[0]) > 0.99999


def test_a_missing_export_is_made_from_the_package_before_the_first_embedding(settings, tmp_path):
    settings.MEMORY_EMBEDDING_RUNTIME = "onnx"
    settings.MEMORY_MODEL_DIR = tmp_path
    assert not onnx_model.exported_file().exists()
    vectors = LocalEmbedder().embed(["what is my dog called?"])
    assert onnx_model.exported_file().exists()
    assert onnx_model.exported_file().parent == tmp_path
    assert [p.name for p in tmp_path.iterdir()] == [onnx_model.exported_file().name]  # no partial file left
    assert vectors.shape == (1, 384)


def test_the_export_command_says_where_the_file_is_and_does_not_redo_it(settings, tmp_path):
    settings.MEMORY_MODEL_DIR = tmp_path
    out = StringIO()
    call_command("export_embedding_model", stdout=out)
    assert "Exported" in out.getvalue()
    made = onnx_model.exported_file().stat().st_mtime_ns
    out = StringIO()
    call_command("export_embedding_model", stdout=out)
    assert f"present: {onnx_model.exported_file()}" in out.getvalue()
    assert onnx_model.exported_file().stat().st_mtime_ns == made


def test_health_says_which_runtime_runs_the_local_model(settings):
    settings.MEMORY_EMBEDDER = "local"
    settings.MEMORY_EMBEDDING_RUNTIME = "onnx"
    assert embedder_state()["runtime"] == "onnx"
