"""System checks of the settings: every environment variable is read when the process starts.

A malformed value used to surface late: `MEMORY_RATE_LIMIT_WRITE=100000` started fine and
then every keyed request answered 500. The settings note what they could not read
(memory_service/environment.py); these checks report each note with the variable and the
forms it accepts, and so do `manage.py check`, gunicorn (gunicorn.conf.py) and the Celery
worker (memory_service/celery.py), which refuse to start on an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import Error, register

from memory_service.environment import NOT_A_CHOICE, Malformed

HINT = "Fix it in the environment (or .env); .env.example describes every variable."
CROSSED_LIMITS = "memory_service.E016"


@register()
def check_settings(app_configs: Sequence[AppConfig] | None = None, **kwargs: Any) -> list[Error]:
    return settings_errors(settings)


def settings_errors(values: Any) -> list[Error]:
    """The errors of a settings object: django.conf.settings, or a settings module's namespace."""
    return [
        *[malformed_error(note) for note in values.MALFORMED_ENVIRONMENT],
        *_unknown_categories(values.MEMORY_HIGH_RISK_CATEGORIES),
        *_crossed_time_limits(values.CELERY_TASK_SOFT_TIME_LIMIT, values.CELERY_TASK_TIME_LIMIT),
    ]


def malformed_error(note: Malformed) -> Error:
    return Error(f"{note.variable}={note.value!r} is not accepted: use {note.accepted}.", hint=HINT, id=note.check_id)


def _unknown_categories(categories: list[str]) -> list[Error]:
    from facts.extraction.schema import CATEGORIES

    unknown = [category for category in categories if category not in CATEGORIES]
    if not unknown:
        return []
    known = ", ".join(sorted(CATEGORIES))
    message = f"MEMORY_HIGH_RISK_CATEGORIES names no category {', '.join(map(repr, unknown))}: use some of {known}."
    return [Error(message, hint=HINT, id=NOT_A_CHOICE)]


def _crossed_time_limits(soft: int, hard: int) -> list[Error]:
    # Celery raises SoftTimeLimitExceeded for the task to clean up; at or after the hard
    # limit the pool process is killed first, so the soft limit would never be seen.
    if soft < hard:
        return []
    message = f"CELERY_TASK_SOFT_TIME_LIMIT={soft} must be below CELERY_TASK_TIME_LIMIT={hard} (seconds)."
    return [Error(message, hint=HINT, id=CROSSED_LIMITS)]


def startup_report() -> str | None:
    """Run every system check, as `manage.py check` does; the report when any is an error.

    For processes that Django does not start through a management command (gunicorn's
    master, the Celery worker), so that they refuse to start on what `check` refuses."""
    from django.core.management import call_command
    from django.core.management.base import SystemCheckError

    try:
        call_command("check")
    except SystemCheckError as exc:
        return str(exc)
    return None
