"""Which extractor is active, for the health route and the dashboard."""

from __future__ import annotations

from django.conf import settings


def extractor_state() -> dict:
    if settings.OPENAI_API_KEY:
        return {"active": "llm", "model": settings.MEMORY_LLM_MODEL, "base_url": settings.OPENAI_BASE_URL or "default"}
    return {
        "active": "rules",
        "note": "No OPENAI_API_KEY: the offline rule-based extractor handles clear first-person statements only.",
    }
