"""Moving a whole store from the embedded SQLite file into an empty PostgreSQL database
(`manage.py move_store`, docs/deployment.md "From the embedded default to PostgreSQL").

Every row of every model (tenants, keys, staff, users, facts with their history and
audit, turns, episodes' turns, entities, edges, profiles, receipts, logs, sessions) is
copied with its primary key, in one transaction on the target, and the target's
sequences are moved past the copied keys. The recall index is rebuilt on the target by
the target's own engine (rebuild_recall_index), since its tables differ between engines;
the vectors are copied (recall/move_vectors.py), or computed again with --reembed.
Verification compares row counts per model and recalls a sample of facts by their own
text on both sides.

The source must be served by nobody while it is copied: a write made after the copy would be
lost at the switch. The command holds the store's in-use lock alone from before it looks at
the target until it has verified (core/db/in_use.py), so it refuses a store that a
web server, worker or other command has open, and a process that starts meanwhile waits.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from django.apps import apps
from django.conf import settings
from django.core.management.color import no_style
from django.db import connection, connections, models, transaction

from core.db import in_use
from core.db.postgresql_urls import database_config

TARGET = "move_target"
SAMPLE_QUERY_CHARS = 200
# Rows the index rebuild on the target writes itself (the embedder's status, the outbox it
# drains): copied like the rest, but not compared.
REBUILT = {"recall.EmbedderReport", "recall.PendingIndex"}


class MoveRefused(Exception):
    pass


@dataclass
class Verification:
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # model -> (source, target)
    sampled: int = 0
    found_on_source: int = 0
    found_on_target: int = 0
    top10_overlap: float = 0.0

    @property
    def counts_equal(self) -> bool:
        return all(a == b for label, (a, b) in self.counts.items() if label not in REBUILT)


def target_settings(url: str) -> dict[str, Any]:
    config = database_config(url)
    if config["ENGINE"] != "django.db.backends.postgresql":
        raise MoveRefused(f"--to must be a postgresql:// URL, not {url.split(':', 1)[0]}://.")
    defaults = {
        "ATOMIC_REQUESTS": False,
        "AUTOCOMMIT": True,
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,
        "OPTIONS": {},
        "TIME_ZONE": None,
        "TEST": {},
    }
    return {**defaults, **config}


def refuse_a_visible_password(url: str) -> None:
    """A password on the command line is shown by `ps` to every user of the host while the move runs."""
    config = target_settings(url)
    if config.get("PASSWORD") or "password" in config.get("OPTIONS", {}):
        raise MoveRefused(
            "--to carries a password, which `ps` shows to every user of this host while the move runs: "
            "put the URL in MEMORY_MOVE_TO_URL (the environment or .env) instead and leave out --to."
        )


def source_alone() -> contextlib.ExitStack:
    """This process as the only user of the SQLite store until the returned stack closes."""
    name = str(connection.settings_dict["NAME"])
    stack = contextlib.ExitStack()
    try:
        stack.enter_context(in_use.alone(name))
    except in_use.StoreInUse as exc:
        raise MoveRefused(
            f"The store is in use: {exc} A write made after the copy would be lost at the switch, so stop the "
            "web server and the workers, then run move_store again."
        ) from None
    return stack


def open_target(url: str) -> None:
    connections.settings[TARGET] = target_settings(url)


def refuse_unless_empty() -> None:
    tables = connections[TARGET].introspection.table_names()
    if tables:
        raise MoveRefused(
            f"The target database is not empty ({len(tables)} tables, e.g. {', '.join(sorted(tables)[:3])}); "
            "move_store only fills an empty database. Create a new one (CREATE DATABASE ...) and try again."
        )


def _manage(url: str, *args: str) -> None:
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run([sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *args], env=env, check=True)


def migrate_target(url: str) -> None:
    _manage(url, "migrate", "--noinput", "-v", "0")


def copied_models() -> list[type[models.Model]]:
    return [m for m in apps.get_models(include_auto_created=True) if m._meta.managed and not m._meta.proxy]


def copy_rows(progress: Callable[[str, int], None], batch: int = 2000) -> None:
    """Every row of every model, keys kept, in one transaction on the target."""
    chosen = copied_models()
    target = connections[TARGET]
    with transaction.atomic(using=TARGET):
        with target.cursor() as cursor:
            # migrate created content types and permissions of its own; the source's replace them.
            tables = ", ".join(target.ops.quote_name(m._meta.db_table) for m in chosen)
            cursor.execute(f"TRUNCATE {tables} CASCADE")
        for model in chosen:
            rows = model._base_manager.using("default").order_by("pk")
            chunk: list[models.Model] = []
            for row in rows.iterator(chunk_size=batch):
                chunk.append(row)
                if len(chunk) >= batch:
                    model._base_manager.using(TARGET).bulk_create(chunk)
                    progress(model._meta.label, len(chunk))
                    chunk = []
            if chunk:
                model._base_manager.using(TARGET).bulk_create(chunk)
                progress(model._meta.label, len(chunk))
        with target.cursor() as cursor:
            for statement in target.ops.sequence_reset_sql(no_style(), chosen):
                cursor.execute(statement)


def rebuild_target_index(url: str, vectors: Path | None) -> None:
    """FTS rows by the target's engine; vectors copied from `vectors` (an export of the
    source's, recall/move_vectors.py), or computed again when there is none."""
    if vectors is not None:
        _manage(url, "move_store", "--load-vectors", str(vectors))
    # Writes the FTS rows; embeds only what has no current vector (all of it without a copy).
    _manage(url, "rebuild_recall_index")
    if vectors is None:
        _manage(url, "reindex_embeddings")


def vector_rows() -> int:
    from recall import vec
    from recall.tables import EPISODES, FACTS

    return vec.total_rows(FACTS) + vec.total_rows(EPISODES)


def row_counts(alias: str) -> dict[str, int]:
    return {m._meta.label: m._base_manager.using(alias).count() for m in copied_models()}


class SampleQuery(TypedDict):
    """A live fact recalled by its own text, on the source store and then on the target."""

    user_pk: int
    query: str
    fact: str  # the fact's uuid


def sample_queries(size: int, seed: int = 7) -> list[SampleQuery]:
    """Live facts to recall by their own text: (tenant, user, query, the fact's id)."""
    from facts.models import Fact

    live = list(Fact.objects.live().values_list("pk", flat=True))
    picked = random.Random(seed).sample(live, min(size, len(live)))
    facts = Fact.objects.filter(pk__in=picked).select_related("user").order_by("pk")
    return [{"user_pk": f.user_id, "query": f.text[:SAMPLE_QUERY_CHARS], "fact": str(f.uuid)} for f in facts.iterator()]


def recall_sample(queries: list[SampleQuery]) -> list[list[str]]:
    """Top 10 fact ids per query on this process's database (facts only, hybrid)."""
    from facts.models import MemoryUser
    from recall.services import recall

    answers = []
    for q in queries:
        user = MemoryUser.objects.get(pk=q["user_pk"])
        items = recall(user=user, query=q["query"], k=10, log=False).items
        answers.append([str(hit.fact.uuid) for hit in items if hasattr(hit, "fact")])
    return answers


def verify(url: str, queries: list[SampleQuery], workdir: Path) -> Verification:
    result = Verification()
    source, target = row_counts("default"), row_counts(TARGET)
    result.counts = {label: (source[label], target.get(label, -1)) for label in source}
    asked = workdir / "move-sample.json"
    answered = workdir / "move-sample-answers.json"
    asked.write_text(json.dumps(queries))
    _manage(url, "move_store", "--answer-sample", str(asked), "--answers", str(answered))
    on_target = json.loads(answered.read_text())
    on_source = recall_sample(queries)
    result.sampled = len(queries)
    result.found_on_source = sum(q["fact"] in top for q, top in zip(queries, on_source, strict=True))
    result.found_on_target = sum(q["fact"] in top for q, top in zip(queries, on_target, strict=True))
    overlaps = [len(set(a) & set(b)) / max(1, len(a)) for a, b in zip(on_source, on_target, strict=True)]
    result.top10_overlap = sum(overlaps) / len(overlaps) if overlaps else 1.0
    return result
