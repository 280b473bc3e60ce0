"""The settings' reader of environment variables: django-environ's, except for a malformed value.

django-environ stops the settings import with a bare ValueError on `SQLITE_CACHE_MB=abc`
(no variable named), and reads `DEBUG=maybe` as off without a word. This reader instead
notes the variable, its value and the forms it accepts, and carries on with the default;
the system check `memory_service.E010`-`E015` (memory_service/settings_checks.py) reports
every note at once, and `manage.py check`, gunicorn and the Celery worker refuse to start
on them (docs/deployment.md, "Settings are checked at start"). An empty value counts as unset.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

from core.redact import mask_url

NOT_A_NUMBER = "memory_service.E010"
NOT_ON_OFF = "memory_service.E011"
NOT_A_CHOICE = "memory_service.E012"
NOT_A_URL = "memory_service.E013"
NOT_AN_ADDRESS = "memory_service.E014"
NOT_A_RATE = "memory_service.E015"

ON = frozenset({"1", "true", "on", "yes"})
OFF = frozenset({"0", "false", "off", "no"})


@dataclass(frozen=True)
class Malformed:
    """One environment variable whose value the settings could not take."""

    variable: str
    value: str
    accepted: str  # the forms it accepts, as the message tells them
    check_id: str


T = TypeVar("T")


# django-environ ships no type information, so its Env is Any to mypy.
class Env(environ.Env):  # type: ignore[misc]
    """environ.Env with bounds on numbers, choices and checked values; `malformed` holds the notes."""

    def __init__(self, **scheme: Any) -> None:
        super().__init__(**scheme)
        self.malformed: list[Malformed] = []

    def int(  # keyword-only bounds added to django-environ's
        self, var: str, default: Any = environ.Env.NOTSET, *, minimum: int | None = None, maximum: int | None = None
    ) -> Any:
        return self._number(var, default, builtins.int, "a whole number", minimum, maximum)

    def float(
        self, var: str, default: Any = environ.Env.NOTSET, *, minimum: float | None = None, maximum: float | None = None
    ) -> Any:
        return self._number(var, default, _finite_float, "a number", minimum, maximum)

    def bool(self, var: str, default: Any = environ.Env.NOTSET) -> Any:
        raw = self._given(var, default)
        if raw is None:
            return default
        if raw.lower() in ON | OFF:
            return raw.lower() in ON
        return self._note(var, raw, "on or off (also true/false, yes/no, 1/0)", NOT_ON_OFF, default)

    def choice(self, var: str, default: str, choices: Collection[str]) -> str:
        """One of `choices`, matched without regard to case (LOG_LEVEL=info is INFO)."""
        raw = self._given(var, default)
        if raw is None:
            return default
        for choice in choices:
            if raw.lower() == choice.lower():
                return choice
        return self._note(var, raw, " or ".join(f"'{choice}'" for choice in choices), NOT_A_CHOICE, default)

    def checked(
        self,
        var: str,
        default: str,
        accepted: str,
        parse: Callable[[str], object],
        check_id: str,
        *,
        url: builtins.bool = False,
    ) -> str:
        """The value as given, once `parse` (the rule of whatever reads it later) takes it."""
        raw = self._given(var, default)
        if raw is None:
            return default
        try:
            parse(raw)
        # What the parsers we reuse raise: ours, and gunicorn's for addresses (RuntimeError).
        except (ValueError, RuntimeError, ImproperlyConfigured):
            # A URL may carry a password: the message shows it masked.
            return self._note(var, mask_url(raw) if url else raw, accepted, check_id, default)
        return raw

    def url(self, var: str, default: str, schemes: Collection[str], example: str) -> str:
        """A URL with one of `schemes`, and a host where the scheme names a server."""
        return self.checked(
            var, default, f"a URL like {example}", lambda raw: _check_url(raw, schemes), NOT_A_URL, url=True
        )

    def _number(
        self,
        var: str,
        default: Any,
        parse: Callable[[str], builtins.float],
        kind: str,
        minimum: builtins.float | None,
        maximum: builtins.float | None,
    ) -> Any:
        raw = self._given(var, default)
        if raw is None:
            return default
        try:
            value = parse(raw)
        except ValueError:
            value = None
        if value is None or (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            return self._note(var, raw, _range(kind, minimum, maximum), NOT_A_NUMBER, default)
        return value

    def _given(self, var: str, default: Any) -> str | None:
        """The stripped value; None when unset or empty (and there is a default to take)."""
        raw = self.ENVIRON.get(var, "").strip()
        if not raw and default is environ.Env.NOTSET:
            raise environ.ImproperlyConfigured(f"Set the {var} environment variable")
        return raw or None

    def _note(self, var: str, raw: str, accepted: str, check_id: str, default: T) -> T:
        # Two settings may read one variable (SQLITE_BUSY_TIMEOUT_SECONDS): one note is enough.
        if all(note.variable != var for note in self.malformed):
            self.malformed.append(Malformed(var, raw, accepted, check_id))
        return default


def _finite_float(raw: str) -> float:
    value = builtins.float(raw)
    if not math.isfinite(value):
        raise ValueError(raw)
    return value


def _range(kind: str, minimum: float | None, maximum: float | None) -> str:
    if minimum is not None and maximum is not None:
        return f"{kind} from {minimum:g} to {maximum:g}"
    if minimum is not None:
        return f"{kind}, at least {minimum:g}"
    return kind


# Schemes whose URL names a server: one without a host ("http:/x", "redis://:pw@/0") is a typo.
SERVER_SCHEMES = frozenset({"http", "https", "redis", "rediss", "amqp", "amqps", "pyamqp"})


def _check_url(raw: str, schemes: Collection[str]) -> None:
    parts = urlsplit(raw)
    if parts.scheme not in schemes:
        raise ValueError(f"scheme {parts.scheme!r}")
    if parts.scheme in SERVER_SCHEMES and not parts.hostname:
        raise ValueError("no host")
    parts.port  # noqa: B018 - raises ValueError on a port that is not a number
