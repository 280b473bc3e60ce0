"""Synthetic stores for `bench_recall`: many users, measured users with real vectors.

The store grows through the requested sizes (in index rows: facts plus
episodes) in one tenant. Each chunk holds whole users whose rows are
interleaved (round-robin), so one user's facts and episodes are spread over the
chunk's pages as they would be after months of writes. Episodes are finished
Turn rows indexed in the episode tables (recall.tables.EPISODES) with the
exchange around them, as recall.episode_index indexes a processed turn. The
measured users' rows get real all-MiniLM-L6-v2 vectors; filler users get
random unit vectors (the scan costs the same whatever the numbers are).
"""

from __future__ import annotations

import hashlib
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from django.db import connection, transaction

from core.stats import rounded
from facts.models import Fact, MemoryUser, Tenant, Turn, TurnState
from recall import fts, slots, vec
from recall.embeddings import embed_query, get_embedder, query_cache
from recall.index import Document, document_of_text, exchange_of
from recall.services import recall
from recall.tables import EPISODES, FACTS, Tables

_SYLLABLES = [c + v for c in "bcdfghjklmnprstvwz" for v in ("a", "e", "i", "o", "u", "ai", "ou", "ee")]
_FUNCTION = ["the", "a", "with", "in", "on", "for", "and", "at", "from", "to"]
SYNTHETIC_MODEL = "synthetic-random-unit"


def _vector_tables(t: Tables, measured: bool) -> Tables:
    """The filler users' random vectors go to the live slot's table by name: `vec.upsert` leaves
    out the rows of a model recall does not serve, and without them the filler users would have
    no vectors at all, a smaller table than the store the command says it built."""
    return t if measured else slots.state().live_tables(t)


def vocabulary(size: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


# Rows written per transaction while building: 200 users of 100 facts, as before episodes.
CHUNK_ROWS = 20_000
TURNS_PER_SESSION = 20


@dataclass
class Store:
    tenant: Tenant
    total: int = 0  # index rows: facts + episodes
    facts: int = 0
    episodes: int = 0
    measured: list[tuple[MemoryUser, list[str]]] = field(default_factory=list)  # texts queries are drawn from
    vector_kind: str = ""
    build_seconds: float = 0.0


class Builder:
    def __init__(self, facts_per_user: int, measured_users: int, seed: int = 11, episodes_per_user: int = 0) -> None:
        self.fpu = facts_per_user
        self.epu = episodes_per_user
        self.rows_per_user = facts_per_user + episodes_per_user
        self.measured_users = measured_users
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.vocab = vocabulary(5000)
        # Zipf-like word frequencies, like natural text.
        weights = 1.0 / np.arange(1, len(self.vocab) + 1) ** 0.9
        self.cum = np.cumsum(weights / weights.sum())
        self.store = Store(Tenant.objects.create(name=f"bench-{uuid.uuid4().hex[:8]}"))
        self.model = get_embedder().model_name
        self.epoch = datetime(2024, 1, 1, tzinfo=UTC)

    def _sentence(self, lead: str = "User", length: tuple[int, int] = (6, 12)) -> str:
        picks = np.searchsorted(self.cum, self.np_rng.random(self.rng.randint(*length)))
        words = [self.vocab[min(i, len(self.vocab) - 1)] for i in picks]
        for _ in range(self.rng.randint(1, 3)):
            words.insert(self.rng.randrange(len(words)), self.rng.choice(_FUNCTION))
        return lead + " " + " ".join(words) + "."

    def _random_vectors(self, n: int) -> np.ndarray:
        matrix = self.np_rng.standard_normal((n, 384), dtype=np.float32)
        return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)

    def grow(self, target: int, progress: Callable[[int], None] | None = None) -> None:
        """Add whole users until the store holds `target` index rows (facts + episodes)."""
        started = time.perf_counter()
        chunk_users = max(1, CHUNK_ROWS // self.rows_per_user)
        while self.store.total < target:
            n_users = max(1, min(chunk_users, (target - self.store.total) // self.rows_per_user))
            measured = len(self.store.measured) < self.measured_users
            if measured:
                n_users = min(n_users, self.measured_users - len(self.store.measured))
            self._add_chunk(n_users, measured)
            if progress:
                progress(n_users * self.rows_per_user)
        self.store.build_seconds += time.perf_counter() - started

    def _add_chunk(self, n_users: int, measured: bool) -> None:
        tenant = self.store.tenant
        base = MemoryUser.objects.filter(tenant=tenant).count()
        with transaction.atomic():
            users = MemoryUser.objects.bulk_create(
                [MemoryUser(tenant=tenant, external_id=f"bench-{base + i}") for i in range(n_users)]
            )
            texts = {u.pk: [self._sentence() for _ in range(self.fpu)] for u in users}
            said = self._add_episodes(users, measured) if self.epu else {}
            # Round-robin across the chunk's users: a user's rows are not contiguous.
            order = [(u, j) for j in range(self.fpu) for u in users]
            when = self.epoch + timedelta(seconds=self.store.total)
            facts = Fact.objects.bulk_create(
                [
                    Fact(
                        tenant=tenant,
                        user=u,
                        text=texts[u.pk][j],
                        text_hash=hashlib.sha1(texts[u.pk][j].encode()).hexdigest(),
                        valid_from=when,
                        created_at=when,
                        updated_at=when,
                        last_mentioned_at=when,
                        embedding_model=self.model if measured else SYNTHETIC_MODEL,
                    )
                    for u, j in order
                ],
                batch_size=2000,
            )
            if measured:
                matrix = get_embedder().embed([f.text for f in facts])
                model = self.model
            else:
                matrix = self._random_vectors(len(facts))
                model = SYNTHETIC_MODEL
            docs = [Document(f.pk, f.user_id, f.text, "", f.text) for f in facts]
            fts.insert_new((d.fact_id, d.user_id, d.digest, d.body, d.context) for d in docs)
            vec.upsert(
                (
                    (d.fact_id, d.user_id, model, d.digest, row.astype(np.float32).tobytes())
                    for d, row in zip(docs, matrix, strict=True)
                ),
                _vector_tables(FACTS, measured),
            )
        self.store.facts += len(facts)
        self.store.total += len(facts)
        if measured:
            self.store.measured.extend((u, texts[u.pk] + said.get(u.pk, [])) for u in users)
        self.store.vector_kind = (
            f"real {self.model} vectors for the {len(self.store.measured)} measured users, "
            "synthetic random unit vectors for the filler users"
        )

    def _add_episodes(self, users: list[MemoryUser], measured: bool) -> dict[int, list[str]]:
        """`epu` finished turns per user, indexed as episodes (inside the chunk's transaction).
        Returns what each user said. A turn is a longer message than a fact, with the end of the
        assistant message it answered and the start of the reply as its indexed context."""
        tenant = self.store.tenant
        said = {u.pk: [self._sentence("I", (10, 24)) for _ in range(self.epu)] for u in users}
        replies = {u.pk: [self._sentence("You", (8, 16)) for _ in range(self.epu)] for u in users}
        order = [(u, j) for j in range(self.epu) for u in users]
        # A turn every 8 hours: a user's 1,000 turns span about a year, as months of conversation.
        when = [self.epoch + timedelta(hours=8 * j) for j in range(self.epu)]
        turns = Turn.objects.bulk_create(
            [
                Turn(
                    tenant=tenant,
                    user=u,
                    session_id=f"s{j // TURNS_PER_SESSION}",
                    turn_id=f"t{j}",
                    user_input=said[u.pk][j],
                    assistant_response=replies[u.pk][j],
                    occurred_at=when[j],
                    created_at=when[j],
                    state=TurnState.DONE,
                )
                for u, j in order
            ],
            batch_size=2000,
        )
        docs = []
        for turn, (u, j) in zip(turns, order, strict=True):
            answered = replies[u.pk][j - 1] if j % TURNS_PER_SESSION else ""
            docs.append(
                document_of_text(turn.pk, u.pk, turn.user_input, exchange_of(answered, turn.assistant_response))
            )
        if measured:
            matrix, model = get_embedder().embed([d.embed_text for d in docs]), self.model
        else:
            matrix, model = self._random_vectors(len(docs)), SYNTHETIC_MODEL
        fts.insert_new(((d.fact_id, d.user_id, d.digest, d.body, d.context) for d in docs), EPISODES)
        vec.upsert(
            (
                (d.fact_id, d.user_id, model, d.digest, row.astype(np.float32).tobytes())
                for d, row in zip(docs, matrix, strict=True)
            ),
            _vector_tables(EPISODES, measured),
        )
        self.store.episodes += len(turns)
        self.store.total += len(turns)
        return said

    def queries(self, count: int) -> list[tuple[MemoryUser, str]]:
        out = []
        for _ in range(count):
            user, texts = self.rng.choice(self.store.measured)
            # Words of one of the user's facts (or, with episodes, of what they said), minus the lead word.
            words = [w for w in self.rng.choice(texts).rstrip(".").split()[1:] if w not in _FUNCTION]
            picked = self.rng.sample(words, k=min(len(words), self.rng.randint(2, 4)))
            out.append((user, "what about " + " ".join(picked) + "?"))
        return out


def percentiles(values: list[float], cpu: list[float] | None = None) -> dict:
    out = {"p50_ms": rounded(values, 0.50, 3), "p95_ms": rounded(values, 0.95, 3)}
    if cpu:
        # CPU time of this process: what the recall itself costs, even when
        # other work on the machine makes wall-clock time wait for a core.
        out["cpu_p50_ms"] = rounded(cpu, 0.50, 3)
        out["cpu_p95_ms"] = rounded(cpu, 0.95, 3)
    return out


def time_embedding(queries: list[tuple[MemoryUser, str]]) -> dict:
    embedder = get_embedder()
    embedder.embed(["warm up"])
    times = []
    for user, text in queries:
        query_cache.clear()
        started = time.perf_counter()
        embed_query(text, embedder, tenant_id=user.tenant_id)
        times.append((time.perf_counter() - started) * 1000)
    return percentiles(times)


def time_recall(
    queries: list[tuple[MemoryUser, str]], modes: list[str], k: int = 10, sources: tuple[str, ...] = ("facts",)
) -> dict:
    """Recall latency per mode over `sources` with the query embedding already cached (excluded)."""
    for user, text in queries:
        embed_query(text, tenant_id=user.tenant_id)
    # Warm-up: one query per measured user and mode, so the timed queries see
    # the steady state (each user's pages cached once), not 20 cold first reads.
    first: dict[int, tuple[MemoryUser, str]] = {}
    for user, text in queries:
        first.setdefault(user.pk, (user, text))
    for user, text in list(first.values()) + queries[:10]:
        for mode in modes:
            recall(user=user, query=text, k=k, mode=mode, log=False, sources=sources)
    out = {}
    for mode in modes:
        times, cpu = [], []
        for user, text in queries:
            started, cpu_started = time.perf_counter(), time.process_time()
            recall(user=user, query=text, k=k, mode=mode, log=False, sources=sources)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - cpu_started) * 1000)
        out[mode] = percentiles(times, cpu)
    return out


def disk_usage() -> dict:
    """Bytes of the database file and its WAL (this SQLite build has no dbstat table)."""
    name = Path(str(connection.settings_dict["NAME"]))
    return {path.name: path.stat().st_size for path in (name, Path(f"{name}-wal")) if path.exists()}


def drop(store: Store) -> None:
    """Remove the bench tenant, its turns and its index rows (use a throwaway database for big sizes)."""
    with transaction.atomic():
        for user_id in MemoryUser.objects.filter(tenant=store.tenant).values_list("pk", flat=True):
            fts.delete_user(user_id)
            vec.delete_user(user_id)
            fts.delete_user(user_id, EPISODES)
            vec.delete_user(user_id, EPISODES)
        Fact.objects.filter(tenant=store.tenant)._raw_delete(Fact.objects.db)
        # Bench facts name no source turn, so the turns go without a cascade through Django.
        Turn.objects.filter(tenant=store.tenant)._raw_delete(Turn.objects.db)
        store.tenant.delete()
