"""`manage.py check` warns (memory_service.W003) when the deployment's web threads and Celery's
connections can exceed what the PostgreSQL server accepts; a transaction-mode pooler in front
(DATABASE_POOLER=pgbouncer) bounds the server's connections instead."""

from __future__ import annotations

import pytest
from django.db import connection

from recall.engines.postgresql.checks import connection_budget, connection_budget_warnings


def test_a_deployment_that_fits_is_not_warned_about():
    assert connection_budget_warnings((2, 2, 4), 4, 97) == []


def test_a_deployment_past_the_servers_slots_is_warned_about_with_the_sum():
    [warning] = connection_budget_warnings((10, 4, 8), 6, 97)
    assert warning.id == "memory_service.W003"
    assert "Up to 326 connections" in warning.msg and "97" in warning.msg
    assert "DATABASE_POOLER=pgbouncer" in warning.hint


@pytest.mark.django_db
def test_the_check_reads_the_servers_max_connections(settings):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no connection limit")
    settings.DATABASE_WEB_HOSTS = 1
    assert connection_budget() == []
    settings.DATABASE_WEB_HOSTS = 1000  # 1000 hosts x 2 processes x 4 threads
    [warning] = connection_budget()
    assert warning.id == "memory_service.W003" and "Up to 8004 connections" in warning.msg
    settings.DATABASE_POOLER = "pgbouncer"
    assert connection_budget() == []
