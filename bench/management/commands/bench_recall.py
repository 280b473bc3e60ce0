"""manage.py bench_recall: recall latency of one user as the store grows (docs/api.md)."""

from __future__ import annotations

import json
import resource
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.test.utils import override_settings
from tqdm import tqdm

from bench import recall_store
from recall.services import MODES


class Command(BaseCommand):
    help = (
        "Build synthetic stores of each total size in one throwaway tenant (users of --facts-per-user "
        "facts each, and --episodes-per-user episodes) and time recall of one measured user per mode, "
        "query embedding excluded and timed separately. With episodes, sizes count index rows (facts + "
        "episodes) and recall searches both. Point DATABASE_URL at a scratch database for the large sizes."
    )

    def add_arguments(self, parser):
        parser.add_argument("--sizes", default="10000,100000,1000000")
        parser.add_argument("--facts-per-user", type=int, default=100)
        parser.add_argument(
            "--episodes-per-user",
            type=int,
            default=0,
            help="episodes (finished turns) per user; above 0, recall runs with sources facts and episodes",
        )
        parser.add_argument("--queries", type=int, default=200)
        parser.add_argument("--measured-users", type=int, default=20)
        parser.add_argument("--json", dest="json_out")
        parser.add_argument("--keep", action="store_true", help="leave the bench tenant in the database")

    def handle(self, *args, sizes, facts_per_user, episodes_per_user, queries, measured_users, json_out, keep, **_):
        try:
            size_list = sorted({int(s) for s in sizes.split(",") if s.strip()})
        except ValueError as exc:
            raise CommandError(f"--sizes takes comma-separated integers, got {sizes!r}.") from exc
        if not size_list or facts_per_user < 1 or queries < 1:
            raise CommandError("--sizes, --facts-per-user and --queries must be positive.")
        if episodes_per_user < 0:
            raise CommandError("--episodes-per-user must be 0 (facts only) or more.")
        rows_per_user = facts_per_user + episodes_per_user
        if size_list[0] < rows_per_user * 2:
            raise CommandError("Each size needs room for at least two users; raise --sizes.")
        measured_users = max(1, min(measured_users, size_list[0] // rows_per_user))

        # Query logging would keep every bulk INSERT's SQL in memory.
        with override_settings(DEBUG=False):
            builder = recall_store.Builder(facts_per_user, measured_users, episodes_per_user=episodes_per_user)
            report = self._run(builder, size_list, queries, keep)
        self.stdout.write(self._table(report))
        if json_out:
            Path(json_out).write_text(json.dumps(report, indent=2))
            self.stdout.write(f"wrote {json_out}")

    def _run(self, builder: recall_store.Builder, sizes, n_queries, keep) -> dict:
        store = builder.store
        sources = ("facts", "episodes") if builder.epu else ("facts",)
        growth = []
        queries = None
        try:
            for size in sizes:
                with tqdm(total=size - store.total, desc=f"building {size:,}", unit="row", file=self.stderr) as bar:
                    builder.grow(size, progress=bar.update)
                if queries is None:
                    queries = builder.queries(n_queries)
                timings = recall_store.time_recall(queries, list(MODES), sources=sources)
                rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                counts = {"total_rows": store.total, "total_facts": store.facts, "total_episodes": store.episodes}
                growth.append({**counts, **timings, "max_rss_mb": round(rss_mb)})
                self.stderr.write(
                    f"{store.total:,} rows ({store.facts:,} facts + {store.episodes:,} episodes): "
                    f"hybrid p95 {timings['hybrid']['p95_ms']} ms"
                )
            embed = recall_store.time_embedding(queries or [])
            disk = recall_store.disk_usage()
        finally:
            if not keep:
                recall_store.drop(store)
        return {
            "growth": growth,
            "embed": embed,
            "vectors": store.vector_kind,
            "sources": list(sources),
            "facts_per_user": builder.fpu,
            "episodes_per_user": builder.epu,
            "queries": n_queries,
            "build_seconds": round(store.build_seconds, 1),
            "disk_bytes": disk,
            "database": str(settings.DATABASES["default"]["NAME"]),
        }

    @staticmethod
    def _table(report: dict) -> str:
        lines = [
            f"vectors: {report['vectors']}",
            f"sources: {', '.join(report['sources'])} ({report['facts_per_user']} facts and "
            f"{report['episodes_per_user']} episodes per user)",
            f"{'rows':>10} {'facts':>10} {'episodes':>10} "
            + " ".join(f"{m + ' p50':>13} {m + ' p95':>13}" for m in MODES)
            + "  max RSS MB",
        ]
        for row in report["growth"]:
            cells = " ".join(f"{row[m]['p50_ms']:>13.3f} {row[m]['p95_ms']:>13.3f}" for m in MODES)
            counts = f"{row['total_rows']:>10,} {row['total_facts']:>10,} {row['total_episodes']:>10,}"
            lines.append(f"{counts} {cells}  {row['max_rss_mb']:>10}")
        first, last = report["growth"][0], report["growth"][-1]
        ratio = last["hybrid"]["p95_ms"] / max(first["hybrid"]["p95_ms"], 1e-9)
        lines.append(f"hybrid p95 growth {first['total_rows']:,} -> {last['total_rows']:,} rows: x{ratio:.2f}")
        lines.append(f"query embedding: p50 {report['embed']['p50_ms']} ms, p95 {report['embed']['p95_ms']} ms")
        if report["disk_bytes"]:
            sizes = ", ".join(f"{name} {size / 2**20:.0f} MiB" for name, size in report["disk_bytes"].items())
            lines.append(f"disk: {sizes}")
        return "\n".join(lines)
