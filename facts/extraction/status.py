"""Which extractor is active, for the health route, the turns API and the dashboard."""

from __future__ import annotations

from django.conf import settings


def extractor_state() -> dict:
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
