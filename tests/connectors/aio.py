"""Run an async client from a synchronous test."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import anyio


def run_async(main):
    """anyio.run(main) on a thread of its own: the session's browser fixture (Playwright) may keep an
    event loop running on the test thread, where a second loop cannot start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, main).result()
