"""Embedding providers (issue 3 fills this in)."""

from __future__ import annotations

from django.conf import settings


def embedder_state() -> dict:
    return {"provider": settings.MEMORY_EMBEDDER, "ready": False}
