"""bench_api's report: the JSON document and the table the terminal shows."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime

from django.conf import settings

from bench.api.workload import CONTEXT_MAX_TOKENS, RECALL_K, ROUTE_NAMES
from core import engine

FIRST_REQUEST_TARGET = 2.0  # the first recall after a start within 2x the steady p50


def git_commit() -> dict:
    """The commit of this checkout (the server's too when bench_api started it), and whether it had changes."""

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", *args], cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": git("rev-parse", "HEAD"), "dirty": bool(status) if status is not None else None}


def assemble(*, target, options, results: dict, first: dict, load: tuple, extra: dict) -> dict:
    steady = results.get("recall_new", {}).get(str(min(options.concurrency)), {}).get("p50_ms")
    first = {
        **first,
        "steady_p50_ms": steady,
        "ratio": round(first["ms"] / steady, 2) if steady else None,
        "steady_from": f"recall_new, {min(options.concurrency)} client(s)",
    }
    start, end = load
    return {
        "server": target.server,
        "url": target.url,
        "web_servers": len(target.all_urls),
        "urls": target.all_urls,
        "engine": engine.current().name,
        "git": git_commit(),
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "load_average": {"start": [round(x, 2) for x in start], "end": [round(x, 2) for x in end]},
        "users": options.users,
        "facts_per_user": options.facts_per_user,
        "requests": options.requests,
        "concurrency": options.concurrency,
        "keepalive": options.keepalive,
        "recall_k": RECALL_K,
        "context_max_tokens": CONTEXT_MAX_TOKENS,
        "first_request": first,
        "results": results,
        "notes": list(target.notes),
        **extra,
    }


def table(report: dict) -> str:
    """One row per route and concurrency: req/s, p50/p95/p99 ms, errors (429s among them)."""
    lines = [
        f"server {report['server']} at {report['url']}"
        f"{f' and {n - 1} more on the same database' if (n := report.get('web_servers', 1)) > 1 else ''}"
        f" ({report.get('engine', '?')}), commit {str(report['git']['commit'])[:12]}"
        f"{' (with changes)' if report['git']['dirty'] else ''}; {report['users']} users x "
        f"{report['facts_per_user']} facts; {report['requests']} requests per step"
        f"{'' if report['keepalive'] else ', a new connection per request'}",
        f"load average at start {report['load_average']['start']}, at end {report['load_average']['end']}",
        f"{'route':<16} {'clients':>7} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>7} {'429':>5}",
    ]
    for route in ROUTE_NAMES:
        for concurrency, row in report["results"].get(route, {}).items():
            cells = [_num(row["req_per_s"]), _num(row["p50_ms"]), _num(row["p95_ms"]), _num(row["p99_ms"])]
            line = f"{route:<16} {concurrency:>7} " + " ".join(f"{c:>8}" for c in cells)
            line += f" {row['errors']:>7} {row['rate_limited']:>5}"
            if row.get("error_samples"):
                line += f"  e.g. {row['error_samples'][0][:80]}"
            lines.append(line)
    lines.append(_first_line(report["first_request"]))
    lines += [f"note: {note}" for note in report["notes"]]
    return "\n".join(lines)


def _first_line(first: dict) -> str:
    when = "after a fresh start" if first["fresh_server"] else "of this run (the server was already running)"
    line = f"first recall {when}: {first['ms']:.1f} ms (status {first['status']})"
    if first["ratio"] is not None:
        verdict = "within" if first["ratio"] <= FIRST_REQUEST_TARGET else "over"
        line += (
            f"; steady p50 ({first['steady_from']}) {first['steady_p50_ms']:.1f} ms; "
            f"x{first['ratio']:.2f}, {verdict} the {FIRST_REQUEST_TARGET:g}x target"
        )
    return line


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
