"""User ids in request paths never reach a log line in clear (Django's request log, gunicorn's access log)."""

from __future__ import annotations

import logging
from datetime import timedelta
from types import SimpleNamespace

from core.logredact import RedactingGunicornLogger, RedactUserIds, redact, user_tag


def _handler_lines(logger_name: str):
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record):
            lines.append(self.format(record))

    handler = Collect()
    handler.addFilter(RedactUserIds())
    logger = logging.getLogger(logger_name)
    logger.addHandler(handler)
    return lines, lambda: logger.removeHandler(handler)


def test_a_4xx_on_a_users_path_logs_a_keyed_hash_not_the_id(api):
    lines, detach = _handler_lines("django.request")
    try:
        r = api.get("/users/alice-patient-4471/facts")
    finally:
        detach()
    assert r.status_code == 404
    assert lines, "django.request logged nothing for a 404"
    assert not any("alice-patient-4471" in line for line in lines), lines
    assert any(user_tag("alice-patient-4471") in line for line in lines), lines


def test_the_configured_console_handler_redacts():
    handlers = logging.getLogger().handlers
    assert any(isinstance(f, RedactUserIds) for h in handlers for f in h.filters), handlers


def test_mem0_paths_and_queries_are_redacted():
    text = 'GET /v1/memories/?user_id=bob%40example.com&limit=5 and /v2/entities/user/bob/ "/users/bob"'
    out = redact(text)
    assert "bob" not in out
    assert out.count(user_tag("bob")) == 2 and user_tag("bob@example.com") in out


def test_the_same_user_always_gets_the_same_tag_and_others_differ():
    assert user_tag("u1") == user_tag("u1") != user_tag("u2")


def test_gunicorn_access_atoms_are_redacted():
    config = SimpleNamespace(
        errorlog="-",
        loglevel="info",
        accesslog=None,
        access_log_format="",
        syslog=False,
        capture_output=False,
        logconfig=None,
        logconfig_dict={},
        logconfig_json=None,
        disable_redirect_access_to_syslog=False,
        user=0,
        group=0,
        permit_unconventional_http_method=False,
    )
    logger = RedactingGunicornLogger.__new__(RedactingGunicornLogger)
    logger.cfg = config
    environ = {
        "REQUEST_METHOD": "DELETE",
        "RAW_URI": "/api/v1/users/carol/facts?key=email",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "PATH_INFO": "/api/v1/users/carol/facts",
        "QUERY_STRING": "user_id=carol",
    }
    response = SimpleNamespace(status="200 OK", sent=10, headers=[])
    atoms = logger.atoms(response, SimpleNamespace(headers=[]), environ, timedelta(milliseconds=5))
    assert "carol" not in atoms["r"] + atoms["U"] + atoms["q"]
    assert user_tag("carol") in atoms["r"] and atoms["q"] == "user_id=" + user_tag("carol")
