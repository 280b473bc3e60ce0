"""Connections persist across requests, so a request neither opens nor closes a WAL connection."""

from __future__ import annotations

import pytest
from django.core.wsgi import get_wsgi_application
from django.db import connection
from django.test import RequestFactory


def _serve(app, path: str) -> int:
    """One request through the real WSGI handler, including the request_finished signal."""
    status = []
    response = app(RequestFactory().get(path).environ, lambda s, headers, exc_info=None: status.append(s))
    b"".join(response)
    response.close()  # sends request_finished, where Django closes connections past CONN_MAX_AGE
    return int(status[0].split()[0])


@pytest.mark.django_db(transaction=True)
def test_it_keeps_one_database_connection_across_requests():
    app = get_wsgi_application()
    assert _serve(app, "/api/v1/health") == 200
    first = connection.connection
    assert first is not None
    assert _serve(app, "/api/v1/health") == 200
    assert connection.connection is first
