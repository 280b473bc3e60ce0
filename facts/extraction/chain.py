"""Extraction as a chain of three Celery tasks (docs/design.md §4, scale-out).

    extract_turn (db queue)     claim the turn, salience gate, build the job
      -> call_extractor (llm)   the one LLM call, retries, re-ask; no database
      -> apply_extraction (db)  apply the reply in one transaction, or fail

Only the db tasks open the database, so `llm` workers can run on machines
that cannot reach the database. Every message carries what the next step
needs. A worker that consumes both the `db` and the `llm` queue (`make run`'s)
runs the three steps in one task instead. All tasks are acks_late: a worker
killed mid-task leaves the message to be delivered again, and the state
compare-and-sets make a second run harmless.

The turns service (facts.services.turns) sends `extract_turn`, so the chain stands below it;
facts.tasks, which Celery discovers, names these tasks beside the periodic ones that call the
services.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from core.queues import about_users, consumes, eager, users_named
from facts.extraction.apply import apply
from facts.extraction.job import Job, Result
from facts.extraction.pipeline import prepare

log = logging.getLogger(__name__)

# A database that cannot be reached for a moment (the primary restarting, a failover) must not
# leave a turn `queued` or `extracting` until the sweep calls it stuck (MEMORY_TURN_STUCK_SECONDS,
# 15 min): in the many-hosts drill's primary restart an extract_turn that found the primary
# shutting down dropped its turn, and the apply's backoff had grown to 30 s by the time the
# primary was back (docs/measurements.md §20). Both db steps are sent again after 1, 2, 4, 8,
# then every 10 s, without jitter: a turn moves on at most 10 s after the database answers
# again, and 30 tries span about 4.5 minutes, after which the sweep takes over. Claiming and
# applying are compare-and-sets on the turn's state, so a second delivery changes nothing.
DATABASE_RETRY: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 1,
    "retry_backoff_max": 10,
    "retry_jitter": False,
    "max_retries": 30,
}


@shared_task(
    name="facts.extract_turn",
    bind=True,
    acks_late=True,
    **DATABASE_RETRY,
    # It may call the model itself (below), so it has call_extractor's limits.
    soft_time_limit=settings.MEMORY_LLM_WORST_CASE_SECONDS + 30,
    time_limit=settings.MEMORY_LLM_WORST_CASE_SECONDS + 60,
)
def extract_turn(self: Task[..., None], turn_pk: int, enqueued_at: float | None = None, resent: bool = False) -> None:
    """Claim and prepare the turn; where this worker also serves the `llm` queue (`make run`'s
    one worker on every queue), call the extractor and apply its reply in this same task:
    two messages fewer per turn, and no wait in the queue between the steps.

    `resent`: sent again for a client's repeated post of a turn still queued; it claims only a
    queued turn, so a turn the first message already claimed is not extracted twice."""
    job = prepare(turn_pk, enqueued_at, queued_only=resent, user_pk=_person(self))
    if job is None:
        return
    job.timing["llm_sent_at"] = time.time()
    if consumes(settings.MEMORY_QUEUE_LLM) and not eager():
        apply(job, extract(job))
    else:
        call_extractor.apply_async((job.to_message(),), **about_users(job.user_pk))


def _person(task: Task[..., None]) -> int | None:
    """The turn's person, from the message's header (facts.services.turns `_send`); None for a
    message sent before the header was (the turn is then found by its id alone)."""
    users = users_named(task.request.headers)
    return int(users[0]) if len(users) == 1 else None


# Time limits above the worst case of one call with its retries and re-ask (settings).
@shared_task(
    name="facts.call_extractor",
    acks_late=True,
    soft_time_limit=settings.MEMORY_LLM_WORST_CASE_SECONDS + 30,
    time_limit=settings.MEMORY_LLM_WORST_CASE_SECONDS + 60,
)
def call_extractor(job: dict[str, Any]) -> None:
    """`job`: a Job's message (facts.extraction.job), as every version of extract_turn sent it."""
    # Touches no database: this may run on an LLM-only machine.
    prepared = Job.from_message(job)
    result = extract(prepared)
    apply_extraction.apply_async((prepared.to_message(), result.to_message()), **about_users(prepared.user_pk))


def extract(job: Job) -> Result:
    """The model's reply to the job (or why there is none), with its timings."""
    # The llm module is imported here, not at the top, because it loads the openai SDK
    # (seconds of start-up), which only workers of the llm queue need; the web process
    # never calls the model.
    from facts.extraction.llm import ExtractionFailed, run_extractor

    started = time.time()
    try:
        call = run_extractor(job)
        result = Result(
            reply=call.reply, extractor=call.extractor, llm_ms=call.llm_ms, tries=call.tries, reasks=call.reasks
        )
    except ExtractionFailed as exc:
        result = Result(error=exc.reason, extractor=f"llm:{settings.MEMORY_LLM_MODEL}")
    except Exception as exc:  # a bug or an unexpected SDK error: fail the turn visibly, keep its messages
        log.exception("Extractor crashed on turn %s", job.turn_pk)
        result = Result(error=f"extractor crashed: {type(exc).__name__}: {exc}")
    now = time.time()
    result.timing = {"llm_started": started, "llm_task_ms": round((now - started) * 1000, 3), "apply_sent_at": now}
    return result


@shared_task(name="facts.apply_extraction", acks_late=True, **DATABASE_RETRY)
def apply_extraction(job: dict[str, Any], result: dict[str, Any]) -> None:
    """`job` and `result`: their messages (facts.extraction.job), as every version sent them."""
    apply(Job.from_message(job), Result.from_message(result))
