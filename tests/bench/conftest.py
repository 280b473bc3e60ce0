"""The benchmark tests use the recall fixtures (the real model, a writer that runs the index sync)."""

from tests.recall.conftest import Memory, _fresh_query_cache, memory, model  # noqa: F401
