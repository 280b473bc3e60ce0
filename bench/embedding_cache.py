"""The evaluations' text -> vector memo (`eval_recall`, `bench_embedder_switch`, `eval_pipeline`).

One LoCoMo or LongMemEval run embeds the same texts many times (ablation variants re-index
them; LongMemEval's histories share sessions), and `--embedding-cache FILE` keeps the memo
between runs, so a re-run measures recall rather than the embedding model again. A file names
the model that computed its vectors: read for another model it is refused, never served as
that model's vectors.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


class CachingEmbedder:
    """Wraps the configured embedder with a text -> vector memo (ablation variants re-index
    the same texts; `--embedding-cache` keeps it between runs)."""

    def __init__(self, inner, cache: dict[str, np.ndarray] | None = None) -> None:
        self.inner = inner
        self.model_name = inner.model_name
        self.cache = cache if cache is not None else {}

    def embed(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            self.cache.update(zip(missing, self.inner.embed(missing), strict=True))
        return np.stack([self.cache[t] for t in texts]) if texts else self.inner.embed([])


class OtherModelsCache(ValueError):
    """The cache file holds another model's vectors."""


def load_embedding_cache(path: Path | None, model: str | None = None) -> dict[str, np.ndarray]:
    """The file's text -> vector memo; `model` (the embedder's) must be the one it was written for
    (files written before the model was kept in them name none and are read as they are)."""
    if path is None or not path.exists():
        return {}
    with np.load(path, allow_pickle=False) as data:
        written_for = str(data["model"]) if "model" in data else ""
        if model and written_for and written_for != model:
            raise OtherModelsCache(f"{path} holds vectors of {written_for}, not of {model}; name another file.")
        if "texts" in data:  # the first format: texts as one fixed-width string array
            return dict(zip(data["texts"].tolist(), data["vectors"], strict=True))
        ends = data["text_ends"].tolist()
        blob = data["text_bytes"].tobytes()
        texts = [blob[start:end].decode() for start, end in zip([0, *ends][:-1], ends, strict=True)]
        return dict(zip(texts, data["vectors"], strict=True))


def save_embedding_cache(path: Path | None, cache: dict[str, np.ndarray], model: str | None = None) -> None:
    """The texts as their UTF-8 bytes end to end with where each ends: a fixed-width string array
    pads every text to the longest (4 bytes a character), gigabytes for a large corpus."""
    if path is None or not cache:
        return
    texts = list(cache)
    encoded = [t.encode() for t in texts]
    np.savez(
        path,
        text_bytes=np.frombuffer(b"".join(encoded), dtype=np.uint8),
        text_ends=np.cumsum([len(e) for e in encoded], dtype=np.int64),
        vectors=np.stack([cache[t] for t in texts]).astype(np.float32),
        model=np.array(model or ""),  # "" names no model (written by a caller that did not say)
    )
