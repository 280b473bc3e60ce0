"""Which SQLite stores a process has open, so a restore can refuse a store in use.

Every process that opens a connection to a database file (web server, worker, a
manage.py command) holds a shared flock(2) on `<database>.in-use` until it exits;
`restore` takes it exclusively, without waiting, before it replaces the file, and
keeps it until the new file is in place. A process that starts meanwhile waits for
the restore to finish rather than open a file about to be replaced. Like the writers'
lock (core/db/writers.py) it is a file of its own: it never touches the
database file's POSIX locks. `move_store` reads a store it must be the only user of
(`alone`): it turns its own shared lock exclusive for as long as it copies.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections.abc import Iterator

from core.private_files import FILE_MODE

_held: dict[str, int] = {}
# A server's request threads open their connections at the same time.
_holding = threading.Lock()


class StoreInUse(Exception):
    pass


def _lock_path(database: str) -> str:
    return f"{database}.in-use"


def hold(database: str) -> None:
    """Mark this process as a user of `database` (once per process; forks share it)."""
    with _holding:
        if database in _held:
            return
        fd = os.open(_lock_path(database), os.O_RDWR | os.O_CREAT, FILE_MODE)
        fcntl.flock(fd, fcntl.LOCK_SH)
        _held[database] = fd


def release(database: str) -> None:
    with _holding:
        fd = _held.pop(database, None)
    if fd is not None:
        os.close(fd)


@contextlib.contextmanager
def exclusive(database: str) -> Iterator[None]:
    """Hold `database` for replacing; StoreInUse when another process has it open."""
    fd = os.open(_lock_path(database), os.O_RDWR | os.O_CREAT, FILE_MODE)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreInUse(
                f"{database} is open in another process (the web server, a worker or a manage.py "
                "command): stop them and run restore again."
            ) from None
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def alone(database: str) -> Iterator[None]:
    """Be the only process using `database` while the block runs; StoreInUse when another has it open.

    This process's own connections go on as before (they share its lock); a process that
    starts meanwhile waits until the block ends."""
    hold(database)
    fd = _held[database]
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        # flock(2) may have dropped the shared lock on the way: hold it afresh on next use.
        release(database)
        raise StoreInUse(
            f"{database} is open in another process (the web server, a worker or a manage.py command)."
        ) from None
    try:
        yield
    finally:
        with _holding:
            if _held.get(database) == fd:
                fcntl.flock(fd, fcntl.LOCK_SH)
