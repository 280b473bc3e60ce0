"""LongMemEval over several processes: `eval_recall --format longmemeval --jobs N`.

Why: a run is almost all the embedding model (docs/measurements.md §27), and one process with two
intra-op threads kept two cores only about three quarters busy (152% of CPU over 15.5 minutes,
§28). The questions are independent, so N processes with a share of them each, one thread and a
store file of their own, keep the cores busy. Each share writes what it scored and the vectors it
computed; the parent sums them, so the figures are the ones a single process gives
(tests/bench/test_longmemeval.py).
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from django.conf import settings

from bench import throwaway
from bench.embedding_cache import load_embedding_cache, save_embedding_cache
from bench.longmemeval import Tally, new_tally

Tallies = dict[str, dict[str, Tally]]
PROGRESS = "progress "


class ShareFailed(RuntimeError):
    """A share's process stopped with an error; the message holds the end of what it said."""


def pick(items: Sequence, share: str) -> list:
    """Share "i/n" of `items`: every n-th from the i-th, so each share gets long and short
    histories alike."""
    index, count = (int(part) for part in share.split("/"))
    if not 0 <= index < count:
        raise ValueError(f"--shard {share}: want i/n with 0 <= i < n")
    return list(items)[index::count]


def write_share(folder: Path, tallies: Tallies, cache: dict[str, np.ndarray], model: str) -> None:
    """What one share scored, and the vectors it holds, for the parent to sum."""
    rows = {c: {m: {"rows": t.rows, "updates": t.updates} for m, t in modes.items()} for c, modes in tallies.items()}
    (folder / "tallies.json").write_text(json.dumps(rows))
    save_embedding_cache(folder / "vectors.npz", cache, model)


def _read_share(folder: Path, into: Tallies) -> None:
    for corpus, modes in json.loads((folder / "tallies.json").read_text()).items():
        for mode, saved in modes.items():
            tally = into.setdefault(corpus, {}).setdefault(mode, new_tally())
            tally.rows += [(kind, scores) for kind, scores in saved["rows"]]
            tally.updates += saved["updates"]


def run(
    share_args: list[str],
    jobs: int,
    progress: Callable[[int], object],
    cache_path: Path | None,
    model: str,
) -> tuple[Tallies, dict[str, np.ndarray]]:
    """`eval_recall --format longmemeval *share_args` in `jobs` processes, each on its own SQLite
    store and one embedding thread; their tallies summed and their vectors joined."""
    threads = max(1, settings.MEMORY_EMBEDDING_THREADS // jobs)
    with tempfile.TemporaryDirectory(prefix="longmemeval-shares-") as workdir:
        folders = [Path(workdir) / f"share-{i}" for i in range(jobs)]
        lock = threading.Lock()
        processes = [
            _start(folder, [*share_args, "--shard", f"{i}/{jobs}"], threads) for i, folder in enumerate(folders)
        ]
        readers = [threading.Thread(target=_follow, args=(p, progress, lock), daemon=True) for p in processes]
        for reader in readers:
            reader.start()
        try:
            codes = _wait_for_all_or_a_failure(processes)
        finally:
            for p in processes:  # an interrupted run leaves no share behind (its migrate either)
                if p.poll() is None:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
        for reader in readers:
            reader.join()
        if bad := [(folder, code) for folder, code in zip(folders, codes, strict=True) if code]:
            folder, code = bad[0]
            said = (folder / "stderr.txt").read_text(errors="replace")[-2000:]
            raise ShareFailed(f"{folder.name} stopped with exit status {code}:\n{said}")
        tallies: Tallies = {}
        vectors = load_embedding_cache(cache_path, model)
        for folder in folders:
            _read_share(folder, tallies)
            vectors.update(load_embedding_cache(folder / "vectors.npz", model))
        return tallies, vectors


def _wait_for_all_or_a_failure(processes: list[subprocess.Popen]) -> list[int | None]:
    """Each share's exit status once all have ended, or as soon as one fails (the others are
    then stopped by the caller: a run missing a share's questions is no run)."""
    while True:
        codes = [p.poll() for p in processes]
        if all(code is not None for code in codes) or any(codes):
            return codes
        time.sleep(0.5)


def _start(folder: Path, args: list[str], threads: int) -> subprocess.Popen:
    """A share: its store migrated, then the evaluation with its share of the questions."""
    folder.mkdir()
    # Everything under the share's folder: its store, its var files and its erasure journal (the
    # throwaway users it erases must not land in the journal of the store that runs the command).
    env = throwaway.inner_env(folder, {"MEMORY_EMBEDDING_THREADS": str(threads)})
    manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
    evaluate = [*manage, "eval_recall", "--format", "longmemeval", *args, "--shard-out", str(folder)]
    script = f"{_quoted([*manage, 'migrate', '-v0'])} && exec {_quoted(evaluate)}"
    with (folder / "stderr.txt").open("w") as stderr:  # the share writes its own copy
        return subprocess.Popen(
            ["sh", "-c", script], env=env, stdout=subprocess.PIPE, stderr=stderr, text=True, start_new_session=True
        )


def _quoted(argv: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in argv)


def _follow(process: subprocess.Popen, progress: Callable[[int], object], lock: threading.Lock) -> None:
    """The share's progress lines, into the parent's bar."""
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith(PROGRESS):
            with lock:
                progress(int(line[len(PROGRESS) :]))
