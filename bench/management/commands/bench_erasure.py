"""manage.py bench_erasure: on PostgreSQL, what a stream of forgets costs another tenant's
recall, and how long until the forgotten words leave the table files (docs/design.md §8)."""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test.utils import override_settings
from tqdm import tqdm

from bench import recall_store
from core import engine
from core.stats import rounded
from facts import services
from facts.models import Fact, MemoryUser, Tenant
from facts.scrub import user_data_tables
from recall import indexer
from recall.services import recall

MARKER = "Qzvormarker"
# A partition of a table partitioned by user: the recall index's, or (since issue 33's
# facts/migrations/0010) the Django-model tables that hold a person's words.
PARTITION = re.compile(r"^(?:recall|facts|profiles)_[a-z_]+_p\d+$")
# The partitioned tables the reader's recall reads.
READ_TABLES = ("recall_fts", "recall_doc", "recall_vector", "facts_fact", "facts_entity")
ACTOR = services.Actor("staff", "bench-erasure")


class Reader(threading.Thread):
    """Another tenant's recall, back to back, timed; `mark` starts a new phase."""

    def __init__(self, user: MemoryUser, queries: list[str]) -> None:
        super().__init__(daemon=True)
        self.user, self.queries, self.phase = user, queries, "baseline"
        self.times: dict[str, list[float]] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            i = 0
            while not self.stop.is_set():
                started = time.perf_counter()
                recall(user=self.user, query=self.queries[i % len(self.queries)], k=10, mode="lexical", log=False)
                self.times.setdefault(self.phase, []).append((time.perf_counter() - started) * 1000)
                i += 1
        finally:
            connection.close()

    def summary(self) -> dict:
        return {
            phase: {
                "n": len(v),
                "p50_ms": rounded(v, 0.5, 1),
                "p95_ms": rounded(v, 0.95, 1),
                "max_ms": round(max(v), 1),
            }
            for phase, v in self.times.items()
        }


class Command(BaseCommand):
    help = (
        "PostgreSQL only, on a scratch database: grow a synthetic store to --size-mb, store --forgets "
        "marked facts through the write path, forget them one by one while another tenant recalls, run "
        "the compaction pass, and report recall latency per phase, the pass's lock hold per table and "
        "whether the marked words are still in the data files."
    )

    def add_arguments(self, parser):
        parser.add_argument("--size-mb", type=int, default=1000)
        parser.add_argument("--forgets", type=int, default=200)
        parser.add_argument("--per-second", type=float, default=20.0)
        parser.add_argument(
            "--legacy", type=int, default=0, help="also time this many forgets with the old per-forget VACUUM (FULL)"
        )
        parser.add_argument("--episodes-per-user", type=int, default=20)
        parser.add_argument("--json", dest="json_out")

    def handle(self, *args, size_mb, forgets, per_second, legacy, episodes_per_user, json_out, **_):
        if not engine.current().compacts_in_background:
            raise CommandError(
                "bench_erasure measures PostgreSQL's compaction pass; point DATABASE_URL at a scratch PostgreSQL "
                "database."
            )
        if size_mb < 1 or forgets < 1 or per_second <= 0 or legacy < 0:
            raise CommandError("--size-mb, --forgets and --per-second must be positive, --legacy 0 or more.")
        with override_settings(DEBUG=False):
            report: dict = {"build": self._grow(size_mb, episodes_per_user)}
            reader = self._reader()
            victims = self._victims(forgets + legacy)
            reader.start()
            time.sleep(10)
            if legacy:
                reader.phase = "legacy_vacuum_full_per_forget"
                report["legacy_forget_seconds"] = [self._legacy_forget(f) for f in victims[:legacy]]
            reader.phase = "forget_stream"
            report["forget_ms"] = self._stream(victims[legacy:], per_second)
            reader.phase = "compaction_pass"
            started = time.perf_counter()
            pass_report = engine.current().compact_pass()
            report["pass_seconds"] = round(time.perf_counter() - started, 2)
            reader.phase = "after"
            time.sleep(5)
            reader.stop.set()
            reader.join()
        assert pass_report is not None
        report["pass_complete"] = pass_report.complete
        report["held_seconds"] = {
            t: round(s, 3) for t, s in sorted(pass_report.held_seconds.items(), key=lambda x: -x[1])
        }
        report["longest_hold"] = self._longest_holds(pass_report.held_seconds)
        report["reader"] = reader.summary()
        # What the promise is about: the other tenant's recall while the pass rewrites.
        report["other_tenant_recall_during_pass"] = report["reader"].get("compaction_pass")
        report["reader_relations_rewritten"] = sorted(set(pass_report.held_seconds) & self._relations_of(reader.user))
        report["marker_files_after_pass"] = self._files_with(MARKER.encode())
        report["marker_relations_after_pass"] = self._relations_with(MARKER.encode())
        report["database_mb_after"] = self._size_mb()
        self.stdout.write(json.dumps(report, indent=2))
        if json_out:
            Path(json_out).write_text(json.dumps(report, indent=2))

    @staticmethod
    def _longest_holds(held: dict[str, float]) -> dict:
        """The longest ACCESS EXCLUSIVE hold of one rewrite: of a partition (a slice of a
        partitioned table) and of a table rewritten whole."""
        parts = {n: s for n, s in held.items() if PARTITION.match(n)}
        whole = {n: s for n, s in held.items() if n not in parts}
        out = {}
        for kind, holds in (("partition", parts), ("whole_table", whole), ("any", held)):
            if holds:
                name = max(holds, key=holds.__getitem__)
                out[kind] = {"relation": name, "seconds": round(holds[name], 3), "rewrites": len(holds)}
        return out

    @staticmethod
    def _relations_of(user: MemoryUser) -> set[str]:
        """The partitions holding the reader's rows (its recall opens these)."""
        names = set()
        with connection.cursor() as cursor:
            for table in READ_TABLES:
                cursor.execute(f"SELECT DISTINCT tableoid::regclass::text FROM {table} WHERE user_id = %s", [user.pk])
                names |= {row[0] for row in cursor.fetchall()}
        return names

    def _size_mb(self) -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_database_size(current_database())")
            return int(cursor.fetchone()[0] // 2**20)

    def _grow(self, size_mb: int, episodes_per_user: int) -> dict:
        builder = recall_store.Builder(100, 0, episodes_per_user=episodes_per_user)
        started = time.perf_counter()
        with tqdm(total=size_mb, unit="MB", desc="store") as bar:
            bar.update(self._size_mb())
            while (now := self._size_mb()) < size_mb:
                builder.grow(builder.store.total + recall_store.CHUNK_ROWS)
                bar.update(self._size_mb() - now)
        with connection.cursor() as cursor:
            cursor.execute(
                # A partitioned table has no storage of its own: its partitions' sizes, summed.
                "SELECT name, pg_total_relation_size(to_regclass(name)) + coalesce((SELECT "
                "sum(pg_total_relation_size(relid)) FROM pg_partition_tree(to_regclass(name))), 0) "
                "FROM unnest(%s::text[]) AS name",
                [sorted(user_data_tables())],
            )
            tables = {name: int(size // 2**20) for name, size in cursor.fetchall() if size}
        return {
            "index_rows": builder.store.total,
            "seconds": round(time.perf_counter() - started),
            "mb": self._size_mb(),
            "table_mb": tables,
        }

    def _reader(self) -> Reader:
        builder = recall_store.Builder(100, 0)
        builder.grow(2000)
        user = MemoryUser.objects.filter(tenant=builder.store.tenant).first()
        if user is None:
            raise CommandError("The reader's tenant has no user.")
        texts = list(Fact.objects.filter(user=user).values_list("text", flat=True)[:50])
        return Reader(user, [" ".join(t.rstrip(".").split()[1:4]) for t in texts])

    def _victims(self, n: int) -> list[Fact]:
        """Facts through the write path (validation, floor, history), indexed like any other."""
        user = services.memory_user_get_or_create(tenant=Tenant.objects.create(name="bench-erasure"), user_id="victim")
        facts = [
            services.fact_store(user=user, text=f"User visits {MARKER}{i:05d} clinic weekly.", actor=ACTOR).fact
            for i in tqdm(range(n), desc="victim facts")
        ]
        indexer.index_items([f.pk for f in facts], [], vectors="skip")
        found = self._files_with(MARKER.encode())
        if not found:
            raise CommandError("The marked facts are not in the data files before the forgets; nothing to measure.")
        return facts

    def _stream(self, facts: list[Fact], per_second: float) -> dict:
        times = []
        for fact in tqdm(facts, desc="forgets"):
            started = time.perf_counter()
            services.fact_forget(fact=fact, actor=ACTOR)
            times.append((time.perf_counter() - started) * 1000)
            time.sleep(max(0.0, 1 / per_second - times[-1] / 1000))
        return {
            "n": len(times),
            "p50": rounded(times, 0.5, 1),
            "p95": rounded(times, 0.95, 1),
            "max": round(max(times), 1),
        }

    def _legacy_forget(self, fact: Fact) -> float:
        """What every forget did before: the forget, then VACUUM (FULL, ANALYZE) of every user-data table."""
        started = time.perf_counter()
        services.fact_forget(fact=fact, actor=ACTOR)
        tables = sorted(set(connection.introspection.table_names()) & user_data_tables())
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM (FULL, ANALYZE) {', '.join(connection.ops.quote_name(t) for t in tables)}")
        return round(time.perf_counter() - started, 2)

    def _relations_with(self, needle: bytes) -> list[str]:
        """The relations (by their file's name) whose data files hold `needle`."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT current_setting('data_directory'), oid FROM pg_database WHERE datname = current_database()"
            )
            folder, oid = cursor.fetchone()
            names = []
            for path in (Path(folder) / "base" / str(oid)).iterdir():
                if path.is_file() and needle in path.read_bytes():
                    node = path.name.split("_")[0].split(".")[0]
                    cursor.execute("SELECT coalesce(pg_filenode_relation(0, %s::oid)::text, %s)", [node, path.name])
                    names.append(cursor.fetchone()[0])
        return sorted(names)

    def _files_with(self, needle: bytes) -> int:
        with connection.cursor() as cursor:
            cursor.execute("CHECKPOINT")
            cursor.execute(
                "SELECT current_setting('data_directory'), oid FROM pg_database WHERE datname = current_database()"
            )
            folder, oid = cursor.fetchone()
        hits = 0
        for path in (Path(folder) / "base" / str(oid)).iterdir():
            if path.is_file() and needle in path.read_bytes():
                hits += 1
        return hits
