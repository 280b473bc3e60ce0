"""The mem0-compatible door as one NinjaAPI: the Platform's routes (mem0_api/api.py) and, beside
them, mem0's self-hosted server's (/memories, /search, ...; mem0_api/selfhosted.py, which maps
their bodies onto the Platform handlers). Composed here so neither module imports the other's
importer back."""

from __future__ import annotations

from mem0_api.api import mem0_api
from mem0_api.selfhosted import router as selfhosted_router

mem0_api.add_router("", selfhosted_router)

__all__ = ["mem0_api"]
