"""mem0 (the `mem0ai` package) on the same LongMemEval questions, in this process, offline.

mem0 gets the same all-MiniLM-L6-v2 directory as our embedder (its `huggingface` embedder,
sentence-transformers), its own in-memory Qdrant store and `infer=False`: every message of the
history is stored as it was said, with its session's date as `created_at` and its message id
as metadata, and the question is mem0's `search`. Nothing may leave the machine: telemetry is
off, Hugging Face is offline, and the LLM mem0 insists on configuring points at a closed
loopback port and is never called (`infer=False` calls no model).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.longmemeval import DEPTH, Question

OFFLINE_ENV = {"MEM0_TELEMETRY": "False", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
COLLECTION = "longmemeval"


def _config(workdir: Path) -> dict:
    from qdrant_client import QdrantClient

    from recall.onnx_model import package_model_dir

    return {
        "embedder": {"provider": "huggingface", "config": {"model": str(package_model_dir()), "embedding_dims": 384}},
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "collection_name": COLLECTION,
                "embedding_model_dims": 384,
                "client": QdrantClient(location=":memory:"),
            },
        },
        # Never called with infer=False; port 9 (discard) on loopback, should it ever be.
        "llm": {"provider": "openai", "config": {"api_key": "unused", "openai_base_url": "http://127.0.0.1:9/v1"}},
        "history_db_path": str(workdir / "history.sqlite3"),
    }


@contextmanager
def mem0_memory() -> Iterator:
    """A mem0 Memory whose files (history, its ~/.mem0 folder) live in a temp folder."""
    with tempfile.TemporaryDirectory(prefix="mem0-baseline-") as tmp:
        wanted = {**OFFLINE_ENV, "MEM0_DIR": tmp}
        before = {key: os.environ.get(key) for key in wanted}
        # mem0 reads these when it is imported (here, the first time) and when it runs.
        os.environ.update(wanted)
        # One INFO line per stored message otherwise.
        logging.getLogger("mem0").setLevel(logging.WARNING)
        try:
            from mem0 import Memory

            yield Memory.from_config(_config(Path(tmp)))
        finally:
            for key, value in before.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


class BatchedEmbedder:
    """mem0 embeds each added message on its own, on torch; this hands it the vectors of one
    batched pass of our ONNX export of the same model directory instead (cosine 0.9999999 to
    torch's, docs/recall.md): the same vectors, several times faster. Queries still go
    through mem0's own embedder."""

    def __init__(self, inner, ours) -> None:
        self.inner = inner
        self.ours = ours  # our embedder (the command's memo of it)
        self.vectors: dict[str, list[float]] = {}

    def prepare(self, texts: list[str]) -> None:
        wanted = list(dict.fromkeys(texts))
        missing = [t for t in wanted if t not in self.vectors]
        computed = self.ours.embed(missing) if missing else []
        known = {**self.vectors, **{t: row.tolist() for t, row in zip(missing, computed, strict=True)}}
        self.vectors = {t: known[t] for t in wanted}  # one history at a time

    def embed(self, text, memory_action=None):
        found = self.vectors.get(text) if isinstance(text, str) else None
        return found if found is not None else self.inner.embed(text, memory_action)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def add_history(memory, question: Question) -> int:
    """Every message of the question's history, as mem0's user `question.id`; returns the count."""
    messages = [(s, m) for s in question.sessions for m in s.messages if m.text.strip()]
    memory.embedding_model.prepare([m.text for _, m in messages])
    for session, message in messages:
        memory.add(
            [{"role": message.role, "content": message.text}],
            user_id=question.id,
            infer=False,
            metadata={"created_at": session.when.isoformat(), "session_id": session.id, "message_id": message.id},
        )
    return len(messages)


def ranked_items(memory, question: Question) -> list[set[str]]:
    """mem0's search for the question: each result as the message it holds."""
    found = memory.search(question.text, filters={"user_id": question.id}, top_k=DEPTH, threshold=0.0)
    return [{item["metadata"]["message_id"]} for item in found["results"] if item.get("metadata", {}).get("message_id")]


def use_batched_embedder(memory, ours=None) -> None:
    from recall.embeddings import get_embedder

    if not isinstance(memory.embedding_model, BatchedEmbedder):
        memory.embedding_model = BatchedEmbedder(memory.embedding_model, ours or get_embedder())


def forget(memory, question: Question) -> None:
    """Drop the question's memories from the store, so each search sees one history only
    (mem0's search filters by user anyway; this keeps the in-memory store small)."""
    from qdrant_client import models

    memory.vector_store.client.delete(
        collection_name=COLLECTION,
        points_selector=models.FilterSelector(
            filter=models.Filter(
                must=[models.FieldCondition(key="user_id", match=models.MatchValue(value=question.id))]
            )
        ),
    )
