"""Which extractor is active, for the health route, the turns API and the dashboard."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings

from facts.models import Turn


def _configured_here() -> dict[str, Any]:
    queues = {"db": settings.MEMORY_QUEUE_DB, "llm": settings.MEMORY_QUEUE_LLM}
    if settings.OPENAI_API_KEY:
        return {
            "active": "llm",
            "model": settings.MEMORY_LLM_MODEL,
            "base_url": settings.OPENAI_BASE_URL or "default",
            "json_mode": settings.MEMORY_LLM_JSON_MODE,
            "max_tries": settings.MEMORY_LLM_MAX_TRIES,
            "queues": queues,
        }
    return {
        "active": "rules",
        "note": "No OPENAI_API_KEY: the offline rule-based extractor handles clear first-person statements only "
        "(name, lives in, works at/as, allergic to, prefers/likes/dislikes, uses, diet).",
        "queues": queues,
    }


def _reported_by_workers() -> dict[str, Any] | None:
    """What the extraction workers last ran, from the newest turn that recorded it.

    The LLM worker decides (its own OPENAI_API_KEY), and its result carries the
    extractor's name to the db queue, which stores it on the turn: the one place
    every process can read.
    """
    row = Turn.objects.exclude(extractor="").order_by("-pk").values("extractor", "finished_at").first()
    if row is None:
        return None
    name = row["extractor"]
    return {"extractor": name, "at": row["finished_at"].isoformat() if row["finished_at"] else None}


def extractor_state() -> dict[str, Any]:
    """The extractor the workers actually ran (newest turn), else what this host's settings say."""
    here = _configured_here()
    reported = _reported_by_workers()
    if reported is None:
        return {**here, "source": "settings of this host (no turn extracted yet)"}
    active = "llm" if reported["extractor"].startswith("llm") else "rules"
    state = {**here, "active": active, "source": "the workers (newest extracted turn)", "reported": reported}
    if active == here["active"]:
        return state
    # This host's settings differ from what the workers run: report the workers'.
    state = {"active": active, "source": state["source"], "reported": reported, "queues": here["queues"]}
    state["configured_here"] = here["active"]
    if active == "llm":
        state["model"] = reported["extractor"].partition(":")[2] or "unknown"
    return state


# Every answer to a posted turn (REST, MCP) names the active extractor: a read of the newest
# extracted turn, anyone's, which PostgreSQL plans on every partition of the turns (7 ms a POST
# at 64 partitions, docs/measurements.md §20). Those answers reuse what this process read in the
# last few seconds; the health route and the dashboard read it afresh (`extractor_state`).
ACTIVE_FOR_SECONDS = 5.0
_active: dict[str, Any] = {}
_clock = time.monotonic  # a test moves it


def active_extractor() -> str:
    """The active extractor ("llm" or "rules") as `extractor_state` said it at most
    ACTIVE_FOR_SECONDS ago in this process."""
    now = _clock()
    if _active and now - _active["read_at"] < ACTIVE_FOR_SECONDS:
        return str(_active["name"])
    name = str(extractor_state()["active"])
    _active.update(name=name, read_at=now)
    return name
