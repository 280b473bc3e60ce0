from __future__ import annotations

import pytest

from tests.webhooks.receiver import Receiver, Server


@pytest.fixture
def receiver():
    """A loopback endpoint that records what it is sent (tests/webhooks/receiver.py)."""
    rec = Receiver()
    server = Server(rec)
    yield rec, server
    server.stop()
