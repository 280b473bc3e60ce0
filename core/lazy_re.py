"""A list of regular expressions compiled the first time one of them is used.

The consent rules (facts/consent_rules.py and its siblings) are some hundreds of long
patterns: compiling them at import cost 0.3-0.5 s of CPU in every process that imports the
service's tasks, each `manage.py` command, Celery worker and test subprocess included, though
only the processes that read a person's turn ever run them. gunicorn's master compiles them
before it forks (facts.consent.warm), so no request waits.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Sequence
from typing import overload


class Patterns(Sequence[re.Pattern[str]]):
    """The patterns of `sources`, in order; their count is known without compiling them."""

    def __init__(self, sources: Sequence[str]) -> None:
        self.sources: tuple[str, ...] = tuple(sources)
        self._compiled: list[re.Pattern[str]] | None = None
        self._lock = threading.Lock()

    def compiled(self) -> list[re.Pattern[str]]:
        if self._compiled is None:
            with self._lock:  # two request threads of one worker: compiled once
                if self._compiled is None:
                    self._compiled = [re.compile(source) for source in self.sources]
        return self._compiled

    @overload
    def __getitem__(self, index: int) -> re.Pattern[str]: ...

    @overload
    def __getitem__(self, index: slice) -> list[re.Pattern[str]]: ...

    def __getitem__(self, index: int | slice) -> re.Pattern[str] | list[re.Pattern[str]]:
        return self.compiled()[index]

    def __iter__(self) -> Iterator[re.Pattern[str]]:
        return iter(self.compiled())

    def __len__(self) -> int:
        return len(self.sources)

    def __add__(self, other: Patterns) -> Patterns:
        """Both lists, this one's first, still not compiled."""
        return Patterns(self.sources + other.sources)
