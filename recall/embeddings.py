"""Which embedding provider serves: a local model (all-MiniLM-L6-v2 by default, offline) or any
OpenAI-compatible endpoint, chosen by settings.MEMORY_EMBEDDER (the providers: recall/embedders.py).

`get_embedder()` returns the configured provider, `embedder_for(name)` the one that
computes a given model's vectors (the live switch, recall/switch.py, serves the model the
store says). Each has `.model_name`, `.embed(texts)` (documents) and `.embed_queries(texts)`
-> float32 array (n, dim) of unit-length rows; the two differ for models trained with a
query and a passage prefix (e5). Local models load lazily, once per process. Query
embeddings go through an LRU cache (`embed_query`). Failures raise EmbedderError and are
remembered for `embedder_state()` (shown by /api/v1/health).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from django.conf import settings

# The providers and their failure record live in recall/embedders.py; these names are this
# module's too, as callers have always imported them from here.
from recall.embedders import E5_MODEL_NAME as E5_MODEL_NAME
from recall.embedders import INT8_MODEL_NAME as INT8_MODEL_NAME
from recall.embedders import LOCAL_DIM as LOCAL_DIM
from recall.embedders import LOCAL_MODEL_NAME as LOCAL_MODEL_NAME
from recall.embedders import LOCAL_MODELS as LOCAL_MODELS
from recall.embedders import E5Embedder as E5Embedder
from recall.embedders import EmbedderError as EmbedderError
from recall.embedders import Int8Embedder as Int8Embedder
from recall.embedders import LocalEmbedder as LocalEmbedder
from recall.embedders import OpenAIEmbedder as OpenAIEmbedder
from recall.embedders import _state, _state_lock
from recall.lru import LRU

_local = LocalEmbedder()
_int8 = Int8Embedder()
_e5 = E5Embedder()
_LOCAL: dict[str, LocalEmbedder | E5Embedder] = {LOCAL_MODEL_NAME: _local, INT8_MODEL_NAME: _int8, E5_MODEL_NAME: _e5}
# Every provider: the local models and the endpoint. `provider` tells them apart.
Embedder = LocalEmbedder | E5Embedder | OpenAIEmbedder

_remote: dict[tuple[str, str, str, float], OpenAIEmbedder] = {}


def get_embedder() -> Embedder:
    """The provider of the model recall serves on this store: the one a switch recorded
    (recall/switch.py), else the settings' model. Each local model is shared by the process."""
    return embedder_for(live_model())


def embedders_in_use() -> list[Embedder]:
    """The embedders a web process uses: the one recall serves and, when the consent classifier is
    on, the one it reads messages with (the model its weights were trained on), each once. Both
    are the default model's int8 copy unless recall is set to serve another (docs/measurements.md
    §25): then both are loaded before the first request."""
    from facts import consent_model  # a floor below; imported here so a bare import stays light

    used = [get_embedder()]
    if settings.MEMORY_CONSENT_CLASSIFIER:
        reader = embedder_for(consent_model.load_model().embedding_model)
        if reader is not used[0]:
            used.append(reader)
    return used


def live_model() -> str:
    """The model recall serves; the settings' model where the store cannot be read (an embed
    worker without a database, a store not migrated yet, a process that may not touch it)."""
    from recall import slots  # it reads the store's models: not imported on a bare import of this module

    try:
        return slots.state().live_model
    except Exception:  # no database here: what this process computes is the settings' model
        return slots.configured_model()


def embedder_for(model_name: str) -> Embedder:
    """The provider computing `model_name`'s vectors: a local model by its name, else the
    OpenAI-compatible endpoint of the settings (when MEMORY_EMBEDDER=openai)."""
    if settings.MEMORY_EMBEDDER == "openai" and model_name == settings.MEMORY_EMBEDDING_MODEL:
        return _openai(model_name)
    if model_name in _LOCAL:
        return _LOCAL[model_name]
    if settings.MEMORY_EMBEDDER != "openai":
        raise EmbedderError(
            f"No local embedding model is called {model_name!r} (local models: {', '.join(LOCAL_MODELS)}); "
            "an endpoint's model needs MEMORY_EMBEDDER=openai."
        )
    return _openai(model_name)


def _openai(model_name: str) -> OpenAIEmbedder:
    config = (
        model_name,
        settings.MEMORY_EMBEDDING_BASE_URL or settings.OPENAI_BASE_URL,
        settings.OPENAI_API_KEY,
        settings.MEMORY_EMBEDDING_TIMEOUT_SECONDS,
    )
    if config not in _remote:
        _remote[config] = OpenAIEmbedder(model_name=config[0], base_url=config[1], api_key=config[2], timeout=config[3])
    return _remote[config]


# LRU of query embeddings keyed by (tenant, model, text): repeated prompts skip the model. The
# tenant is in the key so that no tenant can tell, from a faster answer or any figure, whether
# another tenant recently asked the same text; for the same reason no one is shown how full the
# cache is (issue 33, item 9).
query_cache: LRU[tuple[str, str, str], np.ndarray] = LRU(size=2048)


def embed_query(text: str, embedder: Embedder | None = None, *, tenant_id: object) -> np.ndarray:
    """The query's embedding, from this tenant's cached entries or the model."""
    embedder = embedder or get_embedder()
    key = (str(tenant_id), embedder.model_name, text)
    cached = query_cache.get(key)
    if cached is not None:
        return cached
    # A model trained with query and passage prefixes embeds a query as a query.
    vector: np.ndarray = getattr(embedder, "embed_queries", embedder.embed)([text])[0]
    vector.setflags(write=False)
    query_cache.put(key, vector)
    return vector


def embedder_state() -> dict[str, Any]:
    """For /api/v1/health; never loads the model. `model` is the one recall serves (after a
    live switch, not necessarily the settings' one), `configured_model` the settings' one."""
    from recall import slots

    try:
        now = slots.state()
    except Exception:  # no database here (see live_model)
        now = slots.State("a", slots.configured_model())
    model = now.live_model
    provider = "openai" if settings.MEMORY_EMBEDDER == "openai" and model not in LOCAL_MODELS else "local"
    if provider == "openai":
        ready = bool(model)
        loaded = ready
        runtime = "remote"
    else:
        local = _LOCAL.get(model, _local)
        loaded = local.loaded
        runtime = local.runtime
        ready = True
    with _state_lock:
        state = _state.copy()
    return {
        "provider": provider,
        "model": model,
        "configured_model": slots.configured_model(),
        "building_model": now.building_model or None,
        "kept_model": now.kept_model or None,
        "runtime": runtime,
        # Ready when configured and the last call (if any) succeeded.
        "ready": ready and (state["last_error"] is None or (state["last_ok_at"] or 0) > (state["last_error_at"] or 0)),
        "configured": ready,
        "loaded": loaded,
        "last_error": state["last_error"],
        "last_error_at": state["last_error_at"],
        "last_ok_at": state["last_ok_at"],
    }
