"""bench_db_turns: what a `db` worker spends on each turn, measured in one process (issue 36).

The turns are posted first through the turns service (the web host's part, not measured); then
this process works through them as a `db` worker does (`core.queues.note_consumed`): the claim
(`extract_turn`), the model's reply computed by the offline rules as the drill's scripted model
computes it (not measured: that is the `llm` worker's), the apply with the index write after its
commit (the texts for the vectors go to the `embed` queue), and the profile projections the
turns queue. Messages are captured instead of sent, so no broker is involved; the CPU of
serialising them is the only part of the worker's work this leaves out (and store_vectors,
which follows the `embed` worker's answer).
"""

from __future__ import annotations

import cProfile
import itertools
import pstats
import time
import uuid
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from celery.app.task import Task
from django.conf import settings
from django.db import connection

from bench.locomo_data import TurnSpec, conversation_turns
from bench.pipeline.replay import user_id_for
from core import engine, queues
from facts.extraction import rules
from facts.extraction.apply import apply
from facts.extraction.job import Result
from facts.extraction.pipeline import prepare
from facts.models import Fact, Tenant, Turn
from facts.services.turns import turn_post

STAGES = ("claim", "apply", "projection")
WARM_UP = 10  # turns applied before measuring: loading code, first reads of settings rows


@dataclass
class Meter:
    """CPU and wall seconds and statements per stage, and the messages the stages sent."""

    cpu: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    wall: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    statements: Counter[str] = field(default_factory=Counter)
    sent: list[tuple[str, tuple, dict]] = field(default_factory=list)
    # The person each extract_turn message named in its header (core.queues.about_users), by turn.
    people: dict[int, int] = field(default_factory=dict)
    profiler: cProfile.Profile | None = None

    @contextmanager
    def stage(self, name: str):
        def count(execute, sql, params, many, context):
            self.statements[name] += 1
            return execute(sql, params, many, context)

        if self.profiler:
            self.profiler.enable()
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            with connection.execute_wrapper(count):
                yield
        finally:
            self.cpu[name] += time.process_time() - cpu
            self.wall[name] += time.perf_counter() - wall
            if self.profiler:
                self.profiler.disable()


def interleaved(conversations: list[tuple[str, dict]], turns: int) -> list[tuple[str, TurnSpec]]:
    """The conversations' turns taken in turn, one person per conversation, as the drill streams them."""
    streams = [[(user_id_for(name), spec) for spec in conversation_turns(conv)] for name, conv in conversations]
    merged = (pair for group in itertools.zip_longest(*streams) for pair in group if pair is not None)
    return list(itertools.islice(merged, turns))


@contextmanager
def captured(meter: Meter):
    """Every message sent is recorded instead of going to a broker."""
    original = Task.apply_async

    def record(task, args=None, kwargs=None, **options):
        meter.sent.append((task.name, tuple(args or ()), dict(kwargs or {})))
        users = queues.users_named(options.get("headers"))
        if task.name == "facts.extract_turn" and len(users) == 1:
            meter.people[args[0]] = users[0]

    setattr(Task, "apply_async", record)  # noqa: B010 (a method replaced for the run)
    try:
        yield
    finally:
        setattr(Task, "apply_async", original)  # noqa: B010


@contextmanager
def as_db_worker():
    before = queues._consumed
    queues.note_consumed([settings.MEMORY_QUEUE_DB])
    try:
        yield
    finally:
        queues._consumed = before


def run(conversations: list[tuple[str, dict]], turns: int, *, profile: bool = False) -> tuple[dict[str, Any], Meter]:
    tenant = Tenant.objects.create(name=f"bench-db-turns-{uuid.uuid4().hex[:8]}")
    # CPU time, not wall: the worker waits for the database too, and that is not its CPU.
    meter = Meter(profiler=cProfile.Profile(time.process_time) if profile else None)
    with captured(meter), as_db_worker():
        for user, spec in interleaved(conversations, turns):
            turn_post(
                tenant=tenant,
                user_id=user,
                session_id=spec.session_id,
                turn_id=spec.dia_id,
                user_input=spec.user_input,
                assistant_response=spec.reply,
                occurred_at=spec.when,
            )
        queued = [args[0] for name, args, _ in meter.sent if name == "facts.extract_turn"]
        meter.sent.clear()
        for turn_pk in queued[:WARM_UP]:
            _one_turn(turn_pk, Meter(sent=meter.sent, people=meter.people))
        started = time.perf_counter()
        for turn_pk in queued[WARM_UP:]:
            _one_turn(turn_pk, meter)
        seconds = time.perf_counter() - started
    return _report(tenant, queued[WARM_UP:], seconds, meter), meter


def _one_turn(turn_pk: int, meter: Meter) -> None:
    with meter.stage("claim"):
        job = prepare(turn_pk, None, user_pk=meter.people.get(turn_pk))  # as extract_turn reads it
    if job is None:
        return
    reply = rules.extract([m["user"] for m in job.messages])  # the llm worker's part: not measured
    result = Result(reply=reply, extractor="llm:bench", llm_ms=0.0)
    with meter.stage("apply"):
        apply(job, result)
    from profiles.tasks import project_profile

    projections = [(args, kwargs) for name, args, kwargs in meter.sent if name == project_profile.name]
    meter.sent[:] = [m for m in meter.sent if m[0] != project_profile.name]
    for args, kwargs in projections:
        with meter.stage("projection"):
            project_profile.apply(args=args, kwargs=kwargs)


def _report(tenant: Tenant, measured: list[int], seconds: float, meter: Meter) -> dict[str, Any]:
    done = Turn.objects.filter(pk__in=measured, state="done").count()
    cpu = sum(meter.cpu.values())
    return {
        "engine": engine.current().name,
        "turns_measured": len(measured),
        "turns_done": done,
        "facts": Fact.objects.filter(tenant=tenant).count(),
        "seconds": round(seconds, 2),
        "turns_per_second": round(done / seconds, 1) if seconds else None,
        "cpu_ms_per_turn": round(cpu * 1000 / max(done, 1), 2),
        "statements_per_turn": round(sum(meter.statements.values()) / max(done, 1), 1),
        "by_stage": {
            stage: {
                "cpu_ms_per_turn": round(meter.cpu[stage] * 1000 / max(done, 1), 2),
                "wall_ms_per_turn": round(meter.wall[stage] * 1000 / max(done, 1), 2),
                "statements_per_turn": round(meter.statements[stage] / max(done, 1), 1),
            }
            for stage in STAGES
        },
        "messages_sent": dict(Counter(name for name, _, _ in meter.sent)),
        # Python function calls per turn (with --profile): the work itself, whatever the load.
        "calls_per_turn": round(int(getattr(pstats.Stats(meter.profiler), "total_calls")) / max(done, 1))  # noqa: B009
        if meter.profiler
        else None,
    }
