"""The local model's two paths: one text (a query) and a batch (indexing) give the same vector."""

from __future__ import annotations

from io import StringIO

import numpy as np
import pytest
from django.core.management import call_command

from recall import onnx_model
from recall.embeddings import (
    INT8_MODEL_NAME,
    LocalEmbedder,
    embedder_for,
    embedder_state,
    embedders_in_use,
    get_embedder,
)

# The model's files and vectors only: the PostgreSQL run would load torch again for nothing (14 s in CI).
pytestmark = pytest.mark.no_database

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
    assert "int8 copy in" in out.getvalue()
    made = onnx_model.exported_file().stat().st_mtime_ns, onnx_model.quantized_file().stat().st_mtime_ns
    out = StringIO()
    call_command("export_embedding_model", stdout=out)
    assert f"present: {onnx_model.exported_file()}" in out.getvalue()
    assert f"present: {onnx_model.quantized_file()}" in out.getvalue()
    assert (onnx_model.exported_file().stat().st_mtime_ns, onnx_model.quantized_file().stat().st_mtime_ns) == made
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_the_int8_model_is_a_model_of_its_own_close_to_the_float_one(settings):
    """Close enough to rank alike, not equal: a store keeps its vectors apart (another name)."""
    settings.MEMORY_EMBEDDING_RUNTIME = "torch"  # the int8 copy runs on ONNX Runtime whatever this says
    int8 = embedder_for(INT8_MODEL_NAME)
    assert int8.model_name == "all-MiniLM-L6-v2-int8" != LocalEmbedder.model_name
    assert int8.runtime == "onnx"
    settings.MEMORY_EMBEDDING_RUNTIME = "onnx"
    float_vectors, int8_vectors = LocalEmbedder().embed(TEXTS), int8.embed(TEXTS)
    cosines = (float_vectors * int8_vectors).sum(axis=1)
    assert cosines.min() > 0.98, cosines
    assert cosines.min() < 0.9999, "the int8 weights should change the vectors a little"
    for vectors in (float_vectors, int8_vectors):
        assert int(np.argmax(vectors[1:] @ vectors[0])) == 0  # the dog question finds the dog turn


def test_an_int8_vector_does_not_depend_on_the_texts_embedded_with_it(settings):
    """Its activations are scaled over a run's whole input: batched with a text of about its length,
    a text's vector moved to cosine 0.993 of its own. So the int8 model runs one text at a time."""
    int8 = embedder_for(INT8_MODEL_NAME)
    text = "We just adopted a dog called Biscuit and he loves the beach."
    neighbours = ["My sister teaches chemistry in Porto and plays the cello too.", LONG, TEXTS[3]]
    alone = int8.embed([text])[0]
    for batched in (int8.embed([text, *neighbours])[0], int8.embed([*neighbours, text])[-1]):
        assert np.abs(batched - alone).max() <= 1e-6


def test_health_names_the_int8_models_runtime_when_a_store_serves_it(settings):
    settings.MEMORY_EMBEDDING_LOCAL_MODEL = INT8_MODEL_NAME
    settings.MEMORY_EMBEDDING_RUNTIME = "torch"
    state = embedder_state()
    assert (state["model"], state["runtime"]) == (INT8_MODEL_NAME, "onnx")


def test_health_says_which_runtime_runs_the_local_model(settings):
    settings.MEMORY_EMBEDDER = "local"
    settings.MEMORY_EMBEDDING_RUNTIME = "onnx"
    assert embedder_state()["runtime"] == "onnx"


# Texts of many lengths, from a few word pieces to past the model's 256.
MIXED = [
    "what is my dog called?",
    "User keeps bees on the roof.",
    LONG,
    " ".join(["We walked along the river to the old mill."] * 6),
    " ".join(["We walked along the river to the old mill."] * 3),
    "Ça va? Je m'appelle Zoë et j'habite à Zürich, près du lac.",
    " ".join(f"On day {i} the user fed the ducks." for i in range(20)),
]


def _onnx_model(settings):
    settings.MEMORY_EMBEDDING_RUNTIME = "onnx"
    embedder = LocalEmbedder()
    return embedder._load(threads=1)


def test_a_batch_holds_texts_of_about_one_length_so_few_pad_pieces_are_computed(settings):
    """Every row of a batch is computed at its longest text's length: a short text batched with a
    long one costs the long one's work (LongMemEval's turns, a few words to 256 pieces, were padded
    to about twice the pieces they hold; docs/measurements.md §27)."""
    model = _onnx_model(settings)
    fed: list[np.ndarray] = []
    run = model._session.run

    def recording(names, feed):
        fed.append(feed["attention_mask"])
        return run(names, feed)

    model._session = type("Recording", (), {"run": staticmethod(recording)})()
    model.embed(MIXED, batch_size=64)
    assert sum(len(mask) for mask in fed) == len(MIXED)
    for mask in fed:
        lengths = mask.sum(axis=1)
        assert mask.shape[1] == lengths.max()
        assert lengths.max() - lengths.min() <= max(8, 0.1 * lengths.max()), lengths


@pytest.mark.parametrize("batch_size", [64, 2])
def test_a_texts_vector_does_not_depend_on_the_batch_it_is_computed_in(settings, batch_size):
    model = _onnx_model(settings)
    alone = np.stack([model.embed([text])[0] for text in MIXED])
    batched = model.embed(MIXED, batch_size=batch_size)
    assert np.abs(alone - batched).max() <= 1e-6


def test_batches_keep_each_text_once_longest_first_within_the_size():
    lengths = [5, 256, 250, 100, 95, 6, 240, 256, 7, 60, 40]
    cut = onnx_model.batches(lengths, batch_size=2)
    assert sorted(i for batch in cut for i in batch) == list(range(len(lengths)))
    assert cut == [[1, 7], [2, 6], [3, 4], [9], [10], [8, 5], [0]]


def test_a_web_process_loads_the_consent_classifiers_model_beside_recalls(settings):
    """The classifier reads with the model its weights were trained on, the int8 copy recall serves
    by default: one model then; recall on another model loads both before the first request
    (gunicorn.conf.py)."""
    settings.MEMORY_EMBEDDING_LOCAL_MODEL = INT8_MODEL_NAME
    settings.MEMORY_CONSENT_CLASSIFIER = True
    assert [e.model_name for e in embedders_in_use()] == [INT8_MODEL_NAME]
    settings.MEMORY_EMBEDDING_LOCAL_MODEL = LocalEmbedder.model_name
    assert [e.model_name for e in embedders_in_use()] == [LocalEmbedder.model_name, INT8_MODEL_NAME]
    settings.MEMORY_CONSENT_CLASSIFIER = False
    assert [e.model_name for e in embedders_in_use()] == [LocalEmbedder.model_name]
