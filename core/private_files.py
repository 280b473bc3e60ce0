"""The service's folder and database files hold personal data: only the service's own
user may read them (0700 for the folder, 0600 for the files), whatever the umask.

SQLite creates a database's `-wal` and `-shm` files with the mode of the database file
itself, so a database file created 0600 keeps its companions private too. A file that
already exists is never opened here, only chmod'ed: opening and closing a database file
in a process that has SQLite connections to it would drop their POSIX locks
(docs/testing.md, "Reading the database files").
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600
COMPANIONS = ("", "-wal", "-shm", "-journal")


def private_folder(path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
    _tighten(path, FOLDER_MODE)


def private_new_folders(path: Path) -> None:
    """Create `path` and whichever of its parents do not exist yet, each 0700; a folder that
    already exists keeps its mode (a backup into /tmp/x must not make /tmp private)."""
    missing = [folder for folder in (path, *path.parents) if not folder.exists()]
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=FOLDER_MODE)
        except FileExistsError:
            continue  # made meanwhile by another process: not ours to change
        folder.chmod(FOLDER_MODE)  # exactly 0700, whatever the umask took away


def private_database(path: Path) -> None:
    """Create the database file 0600 if it does not exist yet, and narrow the mode of an
    existing one and its companions (an install from before this rule)."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    for suffix in COMPANIONS:
        _tighten(Path(f"{path}{suffix}"), FILE_MODE)


def private_text(path: Path, text: str) -> None:
    """Write a new small file (a generated secret) that is 0600 from its first byte."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    with os.fdopen(fd, "w") as out:
        out.write(text)


def private_text_once(path: Path, text: str) -> str:
    """The text of `path`, which is written with `text` first if it does not exist yet.

    Several processes may start at once on a fresh folder (the web workers and the Celery
    worker of `make run`): each writes its text to a file of its own and links it into place,
    which only one of them can do, so every process reads the same complete text, never a file
    another process has created but not yet written."""
    if not path.exists():
        draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        private_text(draft, text)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process linked its own first: that text is the one
        except OSError:  # a file system without hard links: the plain way
            with contextlib.suppress(FileExistsError):
                private_text(path, text)
        finally:
            draft.unlink()
    private_file_mode(path)
    return path.read_text().strip()


def private_file_mode(path: Path) -> None:
    """Narrow an existing file to 0600 (never opening it)."""
    _tighten(path, FILE_MODE)


def _tighten(path: Path, mode: int) -> None:
    try:
        info = path.stat()
    except FileNotFoundError:
        return
    # Only what this user owns; a shared folder an operator chose is theirs to set.
    if info.st_uid == os.getuid() and info.st_mode & 0o777 & ~mode:
        path.chmod(mode)


def is_file_database(name: str) -> bool:
    return bool(name) and name != ":memory:" and not name.startswith("file:")
