"""User ids out of log lines: a path or query naming a user shows a keyed hash instead.

Django's request log ("Not Found: /api/v1/users/<id>/facts") and gunicorn's
access log would otherwise keep an end user's id after the user is erased
(docs/design.md §8). The hash (HMAC of the id under SECRET_KEY, 10 hex digits)
still lets an operator follow one user through the log while the user exists.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import logging
import re
from typing import Any
from urllib.parse import unquote

from django.conf import settings
from gunicorn import glogging

# /users/<id> (REST, dashboard), /entities/user/<id> (mem0), user_id=<id> (mem0 queries).
_USER_IN_PATH = re.compile(r"(/users/|/entities/user/)([^/?#\s\"']+)")
_USER_IN_QUERY = re.compile(r"((?:^|[?&])user_id=)([^&#\s\"']+)")


def user_tag(external_id: str) -> str:
    key = settings.SECRET_KEY.encode()
    return "~" + hmac.new(key, unquote(external_id).encode(), hashlib.sha256).hexdigest()[:10]


def redact(text: str) -> str:
    if "user" not in text:
        return text
    text = _USER_IN_PATH.sub(lambda m: m.group(1) + user_tag(m.group(2)), text)
    return _USER_IN_QUERY.sub(lambda m: m.group(1) + user_tag(m.group(2)), text)


# gunicorn ships no type information, so its Logger is Any to mypy.
class RedactingGunicornLogger(glogging.Logger):  # type: ignore[misc]
    """gunicorn's access log (WEB_ACCESS_LOG) with every request field redacted."""

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: datetime.timedelta) -> dict[str, Any]:
        fields = super().atoms(resp, req, environ, request_time)
        return {name: redact(value) if isinstance(value, str) else value for name, value in fields.items()}


class RedactUserIds(logging.Filter):
    """On a handler: the record's message is rendered, redacted and frozen before any formatter runs."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        # Django's request log attaches the request; a formatter that prints it would undo this.
        if hasattr(record, "request"):
            record.request = None
        return True
