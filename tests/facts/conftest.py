"""Fixtures shared by the facts tests."""

from __future__ import annotations

import pytest
from kombu import pools as kombu_pools

from facts import bookkeeping
from memory_service.celery import app as celery_app


@pytest.fixture
def broker(tmp_path):
    """Point this process's Celery app at a fresh folder of kombu's filesystem broker, not eager.

    Not the embedded default (tests/integration/embedded.py has that one): a folder
    is the simplest broker to take away and bring back, for the outage tests.
    """
    folders = {name: tmp_path / "broker" / name for name in ("queue", "processed", "control")}
    for folder in folders.values():
        folder.mkdir(parents=True)
    options = {
        "data_folder_in": str(folders["queue"]),
        "data_folder_out": str(folders["queue"]),
        "processed_folder": str(folders["processed"]),
        "control_folder": str(folders["control"]),
        "store_processed": False,
    }
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.broker_url, conf.broker_transport_options, conf.broker_transport)
    # broker_transport names the embedded default's class and would win over the URL's scheme.
    conf.update(
        task_always_eager=False, broker_url="filesystem://", broker_transport_options=options, broker_transport=None
    )
    bookkeeping._last_touch.clear()
    _drop_broker_connections()
    yield folders
    conf.update(
        task_always_eager=saved[0], broker_url=saved[1], broker_transport_options=saved[2], broker_transport=saved[3]
    )
    _drop_broker_connections()


def _drop_broker_connections():
    # Connections to the temp broker are pooled by kombu and Celery; drop them
    # so the next test builds fresh ones from the restored configuration.
    kombu_pools.reset()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def other_session():
    """A second session of the test database (PostgreSQL), as another request or the
    compaction pass would hold one: the lock tests take locks in it."""
    from django.db import connection

    raw = connection.get_new_connection(connection.get_connection_params())
    yield raw
    raw.rollback()
    raw.close()
