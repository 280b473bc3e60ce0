"""manage.py bench_api: load against the HTTP API; req/s, p50/p95/p99 and errors per route and
concurrency (docs/measurements.md, "API under load")."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from urllib.parse import urlsplit

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from bench import throwaway
from bench.api.client import api_base
from bench.api.report import table
from bench.api.run import Options, Target, run
from bench.api.workload import ROUTE_NAMES
from facts.models import ApiKey, Tenant

MAX_CLIENTS = 256
# A user's profile facts have a budget of MEMORY_PROFILE_BUDGET_CHARS (docs/api.md): 300 bench
# facts hold about 5,000 characters of profile facts, inside the default 8,000.
MAX_FACTS_PER_USER = 300
# The server bench_api starts must measure itself, not its rate limiter's refusals.
UNLIMITED = "1000000/min"
SERVER_ENV = {
    "MEMORY_RATE_LIMIT_READ": UNLIMITED,
    "MEMORY_RATE_LIMIT_WRITE": UNLIMITED,
    "MEMORY_RATE_LIMIT_RECALL": UNLIMITED,
    # Turns go to the offline rule-based extractor: nothing leaves the machine.
    "OPENAI_API_KEY": "",
    "OPENAI_BASE_URL": "",
}
WORKER_CONCURRENCY = 2  # as scripts/run.sh starts the worker
MAX_WEB_SERVERS = 4


class Command(BaseCommand):
    help = (
        "Load test the REST API: a throwaway tenant with --users users of 100 facts each (stored through "
        "the API and indexed by the worker), then --requests requests per route and concurrency: recall "
        "with new queries (no embedding cache hit), recall with repeated queries, context, store fact "
        "and post turn. Prints req/s, p50/p95/p99 ms and errors per route and concurrency, and the first "
        "recall after a fresh start. Without --url it starts the production server (gunicorn with "
        "gunicorn.conf.py, or --server runserver) and a Celery worker on a throwaway database."
    )

    def add_arguments(self, parser):
        parser.add_argument("--url", help="a running service (e.g. http://127.0.0.1:8000); needs --api-key")
        parser.add_argument("--api-key", help="a key of a tenant on --url with read and write (admin: clean up)")
        parser.add_argument(
            "--server", choices=throwaway.SERVERS, help="the server to start without --url (default gunicorn)"
        )
        parser.add_argument("--users", type=int, default=20, help="bench users of 100 facts each (default 20)")
        parser.add_argument("--facts-per-user", type=int, default=100, help="facts each bench user holds (default 100)")
        parser.add_argument("--requests", type=int, default=400, help="requests per route and concurrency")
        parser.add_argument("--concurrency", default="1,4,16", help="simultaneous clients, comma-separated")
        parser.add_argument(
            "--routes",
            default=",".join(ROUTE_NAMES),
            help=f"the steps to time, comma-separated (default all: {','.join(ROUTE_NAMES)})",
        )
        parser.add_argument("--json", dest="json_out", help="write the figures as JSON here")
        parser.add_argument(
            "--settle-timeout",
            type=float,
            default=600,
            help="before and between steps the worker catches up (index sync, turn backlog); give up "
            "when it made no progress for this many seconds (default 600)",
        )
        parser.add_argument(
            "--no-keepalive",
            dest="keepalive",
            action="store_false",
            help="open a new connection for every request (default: one kept-alive connection per client)",
        )
        parser.add_argument(
            "--web-servers",
            type=int,
            default=1,
            help="web servers bench_api starts on one database, as separate hosts would run them; the "
            "clients take turns over them (default 1; not with --url)",
        )
        parser.add_argument("--keep", action="store_true", help="keep the temp folder / the bench users on --url")

    def handle(self, *args, url, api_key, server, json_out, keep, web_servers, **given):
        options = _options(given, erase_users=bool(url) and not keep)
        if not 1 <= web_servers <= MAX_WEB_SERVERS:
            raise CommandError(f"--web-servers takes 1 to {MAX_WEB_SERVERS}; got {web_servers}.")
        if url and web_servers > 1:
            raise CommandError("--web-servers counts the servers bench_api starts; with --url it starts none.")
        if json_out and not Path(json_out).resolve().parent.is_dir():
            raise CommandError(f"The folder of --json {json_out} does not exist.")
        if url:
            target = self._external_target(url, api_key, server)
            self._finish(run(options, target, self.stderr), json_out)
        elif api_key:
            raise CommandError("--api-key goes with --url; without --url bench_api makes its own tenant.")
        elif workdir := throwaway.enter_rerun():
            self._finish(self._run_own(options, server or "gunicorn", workdir, web_servers), json_out)
        else:
            self._rerun(options, server or "gunicorn", json_out, keep, web_servers)

    def _rerun(self, options: Options, server: str, json_out: str | None, keep: bool, web_servers: int) -> None:
        """Run again as a child process whose settings point at a temp folder (bench/throwaway.py)."""
        argv = ["--server", server, "--users", str(options.users), "--facts-per-user", str(options.facts_per_user)]
        argv += ["--requests", str(options.requests), "--concurrency", ",".join(map(str, options.concurrency))]
        argv += ["--routes", ",".join(options.routes)]
        argv += ["--settle-timeout", str(options.settle_timeout), "--web-servers", str(web_servers)]
        if not options.keepalive:
            argv.append("--no-keepalive")
        if json_out:
            argv += ["--json", str(Path(json_out).resolve())]
        throwaway.rerun(
            "bench_api", argv, what="The benchmark", keep=keep, stdout=self.stdout, stderr=self.stderr, env=SERVER_ENV
        )

    @staticmethod
    def _external_target(url: str, api_key: str | None, server: str | None) -> Target:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise CommandError(f"--url {url!r} is not an http(s) URL; e.g. --url http://127.0.0.1:8000")
        if not api_key:
            raise CommandError("--url needs --api-key: a key of a tenant there (create_tenant prints one).")
        if server:
            raise CommandError("--server picks the server bench_api starts; it does not apply with --url.")
        return Target(api_base(url), api_key, "external")

    def _run_own(self, options: Options, server: str, workdir: Path, web_servers: int) -> dict:
        """Inside the throwaway folder (migrated): make the tenant, start server and worker, measure."""
        if server == "gunicorn":
            call_command("collectstatic", interactive=False, verbosity=0)  # as scripts/run.sh does
        tenant = Tenant.objects.create(name="bench-api")
        _, key = ApiKey.objects.issue(tenant=tenant, name="bench_api", scopes=["read", "write"])
        started = time.monotonic()
        with throwaway.service(
            workdir=workdir, concurrency=WORKER_CONCURRENCY, server=server, web_servers=web_servers
        ) as stack:
            startup = round(time.monotonic() - started, 1)
            target = Target(stack.url, key, server, restart=stack.restart_web, urls=stack.urls)
            result = run(options, target, self.stderr)
            result["phase_seconds"] = {"start_server_and_worker": startup, **result["phase_seconds"]}
            result["worker_restarts"] = stack.worker.restarts
            result["web_servers"] = web_servers
            if server == "gunicorn":
                result["gunicorn"] = throwaway.gunicorn_settings(dict(os.environ))
        return result

    def _finish(self, result: dict, json_out: str | None) -> None:
        self.stdout.write(table(result))
        if json_out:
            Path(json_out).write_text(json.dumps(result, indent=2))
            self.stdout.write(f"wrote {json_out}")


def _options(given: dict, *, erase_users: bool) -> Options:
    users, facts_per_user, requests = given["users"], given["facts_per_user"], given["requests"]
    if min(users, facts_per_user, requests) < 1 or given["settle_timeout"] <= 0:
        raise CommandError("--users, --facts-per-user, --requests and --settle-timeout must be positive.")
    if facts_per_user > MAX_FACTS_PER_USER:
        raise CommandError(f"--facts-per-user goes up to {MAX_FACTS_PER_USER}: more would meet a user's budgets.")
    return Options(
        users=users,
        facts_per_user=facts_per_user,
        requests=requests,
        concurrency=_clients(given["concurrency"]),
        routes=_routes(given["routes"]),
        settle_timeout=given["settle_timeout"],
        keepalive=given["keepalive"],
        erase_users=erase_users,
    )


def _routes(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = sorted(set(names) - set(ROUTE_NAMES))
    if not names or unknown:
        raise CommandError(f"--routes takes names from {', '.join(ROUTE_NAMES)}; got {text!r}.")
    return [name for name in ROUTE_NAMES if name in names]


def _clients(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise CommandError(f"--concurrency takes comma-separated client counts, e.g. 1,4,16; got {text!r}.") from exc
    if not values or any(v < 1 or v > MAX_CLIENTS for v in values):
        raise CommandError(f"--concurrency needs client counts from 1 to {MAX_CLIENTS}; got {text!r}.")
    return list(dict.fromkeys(values))
