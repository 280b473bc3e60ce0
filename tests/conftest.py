"""Shared fixtures: three tenants (alice, bob, charlie) and API clients for them.

Tests run against a real SQLite file (settings.DATABASES TEST NAME) with FTS5
and sqlite-vec loaded, and Celery in eager mode unless a test starts workers.
"""

from __future__ import annotations

import os

os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import pytest  # noqa: E402

from tests.base import ApiClient, make_tenant  # noqa: E402


@pytest.fixture
def alice(db):
    return make_tenant("alice")


@pytest.fixture
def bob(db):
    return make_tenant("bob")


@pytest.fixture
def api(alice):
    """A JSON client authenticated as alice's full-scope key."""
    return ApiClient(alice.raw_key)


@pytest.fixture
def bob_api(bob):
    return ApiClient(bob.raw_key)
