"""Calls made at the same moment from threads, as several worker processes or web requests would."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection


def at_once(work: Callable[..., Any], args: Iterable[tuple]) -> list[Any]:
    """work(*a) for each `a` of `args`, each in a thread of its own (with its own database
    connection, closed after); what each returned, or the exception it raised, in the order
    they finished."""
    outcomes: list[Any] = []

    def run(*arg: Any) -> None:
        try:
            outcomes.append(work(*arg))
        except BaseException as exc:  # noqa: BLE001 - the caller asserts on it
            outcomes.append(exc)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=run, args=arg) for arg in args]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return outcomes
