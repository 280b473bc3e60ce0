"""`make run`'s demo key (manage.py demo_setup): the same key at every start, so configured
clients keep working, until asked to rotate it (`make run ROTATE_KEY=1`)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from facts.key_cache import key_for
from facts.models import ApiKey

pytestmark = pytest.mark.django_db


def _start(*args: str) -> str:
    out = io.StringIO()
    call_command("demo_setup", *args, stdout=out)
    return re.search(r"api_key=(\S+)", out.getvalue()).group(1)


@pytest.fixture(autouse=True)
def var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    settings.MEMORY_API_KEY_CACHE_SECONDS = 0
    return tmp_path


def test_a_restart_prints_the_same_key_and_it_still_works():
    first = _start()
    again = _start()
    assert again == first and key_for(first) is not None


def test_rotate_key_revokes_the_kept_key_and_prints_a_new_one(var_dir):
    first = _start()
    rotated = _start("--rotate-key")
    assert rotated != first and key_for(first) is None and key_for(rotated) is not None
    assert _start() == rotated  # the new one is kept in its turn
    assert (var_dir / "demo_api_key").stat().st_mode & 0o777 == 0o600


def test_a_kept_key_revoked_elsewhere_is_replaced(var_dir):
    first = _start()
    ApiKey.objects.filter(name="demo").update(revoked_at="2026-01-01T00:00:00Z")
    replaced = _start()
    assert replaced != first and key_for(replaced) is not None
