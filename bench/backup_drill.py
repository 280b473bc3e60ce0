"""bench_backup: a backup taken while turns stream through the API, two erasures after it, and a
restore into a fresh folder (docs/deployment.md, "Backups and restore"; docs/measurements.md).

The steps run against a throwaway `make run` set-up (bench/throwaway.py). `backup` and
`restore` run as the operator runs them, as `manage.py` child processes; the restore's
environment names a fresh folder and the live service's erasure journal, which is what
makes the erasures made after the backup stick. bench/backup_compare.py holds the checks.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.test.utils import override_settings
from tqdm import tqdm

from bench import backup_compare, freshness, recall_store, throwaway
from bench.api.client import Connection
from bench.api.report import git_commit
from bench.ingest import Post, Timings
from bench.locomo_data import conversation_turns
from bench.pipeline.replay import user_id_for
from bench.pipeline.replay_llm import conversation_plan
from core.backup import manifest as manifests
from facts.models import ApiKey, Fact, MemoryUser, Tenant, Turn, TurnState
from recall.engines.sqlite import backup as sqlite_store
from recall.models import PendingIndex

PEOPLE = 4  # real users told facts through the API: one erased, one loses a fact, two untouched
FACTS_PER_PERSON = 5
PHASES = ("before", "during", "after")


def person_id(n: int) -> str:
    return f"drill-person-{n}"


def person_fact(n: int, i: int) -> str:
    # A code no other text holds: the byte checks look for it.
    return f"Drill person {n} keeps item {i} in locker DRL{n:02d}X{i:02d}QZ."


def tell_people(conn: Connection) -> dict[str, list[dict]]:
    """PEOPLE users, each told FACTS_PER_PERSON facts through POST /users/{id}/facts."""
    told: dict[str, list[dict]] = {}
    for n in range(1, PEOPLE + 1):
        for i in range(1, FACTS_PER_PERSON + 1):
            status, body, _ = conn.json("POST", f"/users/{person_id(n)}/facts", {"text": person_fact(n, i)})
            if status != 201:
                raise RuntimeError(f"storing a fact answered {status}: {body}")
            told.setdefault(person_id(n), []).append(body)
    return told


def endless_posts(conversations: list[tuple[str, dict]]) -> Iterator[Post]:
    """The conversations' turns interleaved, over and over; each pass gets new turn ids, so a
    short data file streams as long as needed and every post is a new turn (202)."""
    queues = [[Post(user_id_for(name), spec) for spec in conversation_turns(conv)] for name, conv in conversations]
    for round_ in itertools.count():
        for post in itertools.chain.from_iterable(itertools.zip_longest(*queues)):
            if post is not None:
                yield Post(post.user, dataclasses.replace(post.spec, dia_id=f"{post.spec.dia_id}-{round_}"))


@dataclass
class Stream:
    """Posts turns at `rate` per second from one client until stopped; each latency is filed
    under the phase current when the post started (before, during or after the backup)."""

    url: str
    key: str
    posts: Iterator[Post]
    rate: float
    progress: object = None
    phase: str = "before"
    timings: dict[str, Timings] = field(default_factory=lambda: {p: Timings() for p in PHASES})
    _stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        conn = Connection(self.url, self.key)
        started = time.monotonic()
        for i, post in enumerate(self.posts):
            delay = started + i / self.rate - time.monotonic()
            if self._stop.wait(max(0.0, delay)):
                return
            phase, began = self.phase, time.perf_counter()
            try:
                status, data, _ = conn.send("POST", f"/users/{post.user}/turns", json.dumps(post.body()).encode())
                outcome, detail = str(status), "" if status == 202 else data.decode(errors="replace")[:200]
            except OSError as exc:
                outcome, detail = "no answer", str(exc)
            self.timings[phase].record(time.perf_counter() - began, outcome, detail)
            if self.progress:
                self.progress(1)  # type: ignore[operator]

    def summary(self) -> dict:
        return {phase: timings.summary() for phase, timings in self.timings.items()}


def wait_until_idle(tenant: Tenant, timeout: float) -> float | None:
    """Seconds until no turn of the tenant waits and the index outbox is empty; None on timeout."""
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        waiting = Turn.objects.filter(tenant=tenant, state__in=[TurnState.QUEUED, TurnState.EXTRACTING]).exists()
        if not waiting and not PendingIndex.objects.exists():
            return round(time.monotonic() - began, 1)
        time.sleep(0.5)
    return None


def manage(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Run `manage.py args` as the operator would; (seconds, its standard output)."""
    argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *args]
    began = time.monotonic()
    child = subprocess.run(argv, env=env, cwd=settings.BASE_DIR, capture_output=True, text=True)
    seconds = round(time.monotonic() - began, 2)
    if child.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed (exit {child.returncode}): {child.stderr[-2000:]}")
    return seconds, child.stdout.strip()


def take_backup(folder: Path) -> dict:
    """`manage.py backup FOLDER` against the live store, while the service serves."""
    seconds, printed = manage(["backup", str(folder)], dict(os.environ))
    manifest = manifests.read(folder)
    return {
        "process_seconds": seconds,
        "copy_seconds": manifest.seconds,  # what the manifest says the copy, counts and checksum took
        "facts": manifest.facts,
        "rows": sum(manifest.row_counts.values()),
        "tables": len(manifest.row_counts),
        "bytes": sum(f["bytes"] for f in manifest.files.values()),
        "journal_seq": manifest.journal_seq,
        "printed": printed,
    }


def restore_into(backup: Path, fresh: Path) -> dict:
    """`manage.py restore BACKUP` into an empty folder; the same erasure journal as the live service."""
    fresh.mkdir()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{fresh / 'memory.sqlite3'}",
        "MEMORY_VAR_DIR": str(fresh),
        "MEMORY_ERASURE_JOURNAL": str(settings.MEMORY_ERASURE_JOURNAL),
        # The live service's key: it signed the manifest and keys the journal (a fresh var/ would make another).
        "SECRET_KEY": settings.SECRET_KEY,
    }
    seconds, printed = manage(["restore", str(backup)], env)
    return {"process_seconds": seconds, "printed": printed}


def erase_and_forget(conn: Connection, admin: Connection, told: dict[str, list[dict]]) -> dict:
    """Erase the first person (admin key) and forget the second person's first fact."""
    erased, keeper = person_id(1), person_id(2)
    status, receipt, _ = admin.json("DELETE", f"/users/{erased}")
    forgotten = told[keeper][0]
    forget_status, _, _ = conn.json("DELETE", f"/facts/{forgotten['id']}")
    return {
        "erased_user": erased,
        "erase_status": status,
        "receipt_counts": receipt.get("counts"),
        "forgotten_fact": forgotten["id"],
        "forgotten_of": keeper,
        "forget_status": forget_status,
    }


@dataclass
class Options:
    facts: int
    rate: float
    baseline_seconds: float
    after_seconds: float
    queries: int
    sample_users: int
    timeout: float


FACTS_PER_USER = 100  # as bench_recall builds its users
MEASURED_USERS = 5  # built users with real vectors, whom the recall queries ask about
WORKER_CONCURRENCY = 2  # as scripts/run.sh starts it


def build_store(facts: int, progress) -> recall_store.Builder:
    # Query logging would keep every bulk INSERT's SQL in memory.
    with override_settings(DEBUG=False):
        builder = recall_store.Builder(FACTS_PER_USER, max(1, min(MEASURED_USERS, facts // FACTS_PER_USER)))
        builder.grow(facts, progress=progress)
    return builder


def run(conversations: list[tuple[str, dict]], options: Options, workdir: Path, stderr) -> dict:
    """The whole drill in the throwaway set-up; the report as a dict."""
    load_at_start = os.getloadavg()
    with tqdm(total=options.facts, desc="building", unit="fact", file=stderr) as bar:
        builder = build_store(options.facts, bar.update)
    tenant = Tenant.objects.create(name="bench-backup")
    _, key = ApiKey.objects.issue(tenant=tenant, name="bench_backup", scopes=["read", "write"])
    _, admin_key = ApiKey.objects.issue(tenant=tenant, name="bench_backup erase", scopes=["admin"])
    extractor = freshness.FreshnessExtractor([conversation_plan(name, conv) for name, conv in conversations])
    llm = freshness.extractor_server(extractor).start()
    env = {"OPENAI_API_KEY": "replay", "OPENAI_BASE_URL": llm.url, "MEMORY_LLM_BACKOFF_SECONDS": "0.2"}
    backup_folder = workdir / "backups" / "drill"
    try:
        with throwaway.service(workdir=workdir, concurrency=WORKER_CONCURRENCY, server="gunicorn", env=env) as stack:
            live, told, counts = _while_serving(
                stack.url, key, admin_key, tenant, conversations, options, backup_folder, stderr
            )
            live["worker_restarts"] = stack.worker.restarts
    finally:
        llm.stop()
    people = [person_id(n) for n in range(2, PEOPLE + 1)]
    queries = builder.queries(options.queries)
    sample = backup_compare.pick_sample(
        str(builder.store.tenant.pk), str(tenant.pk), people, options.sample_users, queries
    )
    report = {**live, **_restore_and_compare(backup_folder, workdir / "restored", sample, live, told, counts)}
    # Other work on the shared machine moves the times: say how busy it was.
    report["load_average"] = {"start": load_at_start, "end": os.getloadavg()}
    report["git"] = git_commit()
    report["checks"] = checks(report)
    report["passed"] = all(report["checks"].values())
    return report


def _while_serving(url, key, admin_key, tenant, conversations, options: Options, backup_folder: Path, stderr):
    """Tell the people their facts, stream turns around the backup, then erase and forget; the
    report's part, what each person was told, and every table's rows around the erasures."""
    conn, admin = Connection(url, key), Connection(url, admin_key)
    told = tell_people(conn)
    wait_until_idle(tenant, options.timeout)
    with tqdm(desc="streaming", unit="turn", file=stderr) as bar:
        stream = Stream(url, key, endless_posts(conversations), options.rate, bar.update)
        stream.start()
        time.sleep(options.baseline_seconds)
        stream.phase = "during"
        backup = take_backup(backup_folder)
        stream.phase = "after"
        time.sleep(options.after_seconds)
        stream.stop()
    drained = wait_until_idle(tenant, options.timeout)
    # The erasures' own effect on every table, counted with nothing else writing.
    before = sqlite_store.row_counts(sqlite_store.live_path())
    erasures = erase_and_forget(conn, admin, told)
    wait_until_idle(tenant, options.timeout)
    after = sqlite_store.row_counts(sqlite_store.live_path())
    live = {
        "store": {"facts": options.facts, "facts_per_user": FACTS_PER_USER, "people": PEOPLE},
        "backup": backup,
        "posts": stream.summary(),
        "drained_after_stream_s": drained,
        "erasures": erasures,
    }
    return live, told, {"before": before, "after": after}


def _restore_and_compare(backup_folder: Path, fresh: Path, sample, live: dict, told, counts) -> dict:
    live_state = backup_compare.state_of(sample)
    restore = restore_into(backup_folder, fresh)
    restored_db = fresh / "memory.sqlite3"
    manifest = manifests.read(backup_folder)
    restore["seconds"] = _restore_seconds(restore["printed"])
    erased, forgotten = live["erasures"]["erased_user"], live["erasures"]["forgotten_fact"]
    with sqlite_store.connection_on(restored_db):
        restored_state = backup_compare.state_of(sample)
        gone = {
            "erased_user_rows": MemoryUser.objects.filter(external_id=erased).count(),
            "forgotten_fact_rows": Fact.objects.filter(uuid=forgotten).count(),
        }
    restored_counts = sqlite_store.row_counts(restored_db)
    return {
        "restore": restore,
        "counts": backup_compare.compare_counts(
            manifest.row_counts, counts["before"], counts["after"], restored_counts, live["erasures"]["receipt_counts"]
        ),
        "same_as_live": backup_compare.compare_states(live_state, restored_state),
        "erased": {**gone, **_bytes_check(backup_folder, fresh, told, live["erasures"])},
    }


def _restore_seconds(printed: str) -> float | None:
    """The time restore reports for itself (`... in 12.3 s;`), without the process's start-up."""
    match = re.search(r" in ([\d.]+) s;", printed)
    return float(match.group(1)) if match else None


def _bytes_check(backup_folder: Path, fresh: Path, told: dict[str, list[dict]], erasures: dict) -> dict:
    """The erased person's and the forgotten fact's texts in no file of the restored folder; a kept
    person's fact in it, and the erased texts in the backup itself (the check can see them)."""
    forgotten = next(f for f in told[erasures["forgotten_of"]] if f["id"] == erasures["forgotten_fact"])
    gone = {f"erased:{f['id']}": f["text"] for f in told[erasures["erased_user"]]}
    gone["erased:user_id"] = erasures["erased_user"]
    gone[f"forgotten:{forgotten['id']}"] = forgotten["text"]
    kept_fact = told[person_id(3)][0]["text"]
    in_restored = backup_compare.texts_in_files(fresh, {**gone, "kept": kept_fact})
    in_backup = backup_compare.texts_in_files(backup_folder, gone)
    return {
        "gone_texts": len(gone),
        "gone_texts_found_in_restored": {
            name: files for name, files in in_restored.items() if files and name != "kept"
        },
        "gone_texts_found_in_backup": sum(1 for files in in_backup.values() if files),
        "kept_text_found_in_restored": bool(in_restored["kept"]),
        "restored_files": sorted(str(p.relative_to(fresh)) for p in fresh.rglob("*") if p.is_file()),
    }


def checks(report: dict) -> dict[str, bool]:
    """What the drill shows, each true or false; `passed` when all are."""
    counts, same, erased, erasures = report["counts"], report["same_as_live"], report["erased"], report["erasures"]
    accepted = all(set(phase["statuses"]) == {"202"} for phase in report["posts"].values())
    return {
        "every_turn_accepted": accepted and report["posts"]["during"]["requests"] > 0,
        "rows_equal_but_the_erasures": counts["equal_but_erasures"],
        "index_whole": counts["index_whole"],
        "facts_history_and_recalls_equal": same["all_equal"] and same["recalls_with_answers"] > 0,
        "erased_user_gone": erasures["erase_status"] == 200 and erased["erased_user_rows"] == 0,
        "forgotten_fact_gone": erasures["forget_status"] == 204 and erased["forgotten_fact_rows"] == 0,
        "no_erased_text_in_restored_files": not erased["gone_texts_found_in_restored"],
        # The byte check can see: the erased texts are in the backup, a kept one in the restored files.
        "byte_check_sees_text": erased["gone_texts_found_in_backup"] == erased["gone_texts"]
        and erased["kept_text_found_in_restored"],
    }
