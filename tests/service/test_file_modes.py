"""The data folder and every database file are private to the service's user, whatever the
umask: var/ 0700; the database, the broker and their -wal/-shm 0600; the secret key 0600, and
one key for processes that start at once; an older install's wider modes are narrowed at start
(core/private_files.py)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

from core.private_files import private_text_once
from tests.integration.stack import ROOT, clean_env

# Writes the database (migrate) and the broker (one message, as a posted turn sends one),
# then, with both still open (so their -wal and -shm exist), prints every file's mode.
SCRIPT = """
import django, json, os, stat
from pathlib import Path
django.setup()
from django.conf import settings
from django.core.management import call_command
from django.db import connection
call_command("migrate", verbosity=0)
connection.ensure_connection()
from memory_service.celery import app
app.send_task("facts.sweep_turns")
var = Path(settings.VAR_DIR)
print(json.dumps({p.name: stat.S_IMODE(p.stat().st_mode) for p in [var, *var.iterdir()]}))
"""
PRIVATE = ["secret_key", "memory.sqlite3", "memory.sqlite3-wal", "memory.sqlite3-shm"]
PRIVATE += ["broker.sqlite3", "broker.sqlite3-wal", "broker.sqlite3-shm"]


def _modes(var: Path) -> dict[str, str]:
    env = clean_env(MEMORY_VAR_DIR=str(var), DJANGO_SETTINGS_MODULE="memory_service.settings")

    def loose_umask():
        os.umask(0o022)

    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, cwd=ROOT, check=True, capture_output=True, preexec_fn=loose_umask
    ).stdout
    return {name: oct(mode) for name, mode in json.loads(out.splitlines()[-1]).items()}


def test_a_new_install_creates_its_folder_0700_and_its_files_0600(tmp_path):
    modes = _modes(tmp_path / "var")
    assert modes["var"] == oct(0o700)
    assert {name: modes.get(name) for name in PRIVATE} == dict.fromkeys(PRIVATE, oct(0o600))


def test_an_older_install_with_wide_modes_is_narrowed_at_start(tmp_path):
    var = tmp_path / "var"
    _modes(var)
    var.chmod(0o755)
    for path in var.iterdir():
        if path.is_file():
            path.chmod(0o644)
    modes = _modes(var)
    assert modes["var"] == oct(0o700)
    assert {name: modes.get(name) for name in PRIVATE} == dict.fromkeys(PRIVATE, oct(0o600))
    assert stat.S_IMODE(var.stat().st_mode) == 0o700


def test_writers_racing_for_a_new_secret_all_read_the_first_one_complete(tmp_path):
    path = tmp_path / "secret_key"
    start = threading.Barrier(8)
    read: list[str] = []

    def write(n: int) -> None:
        start.wait()
        read.append(private_text_once(path, f"secret-{n}-" + "x" * 4000))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(read) == 8 and len(set(read)) == 1 and read[0].endswith("x" * 4000)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no draft left behind


def test_a_writer_that_lost_the_race_reads_the_winners_secret(tmp_path, monkeypatch):
    """Another process made the file between this one's look and its write: no FileExistsError
    (which stopped a process at start), and the winner's key is the one used."""
    path = tmp_path / "secret_key"
    private_text_once(path, "the winner's key")
    looked = Path.exists
    monkeypatch.setattr(Path, "exists", lambda self: False if self == path else looked(self))
    assert private_text_once(path, "the loser's key") == "the winner's key"
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]
