"""Start each role of the deployment on its own host (network namespace) of the drill.

PostgreSQL 16 + pgvector are the `pgserver` wheel's binaries (as tests/on_postgres.py finds
them), run as its unprivileged `pgserver` user since PostgreSQL refuses root; the replica is
`pg_basebackup -R` of the primary. Redis and HAProxy are Debian's. The Django processes are
this checkout's, with one environment shared by every host.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from netns import SUBNET, Network
from procs import Proc, wait_for

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PG_USER = "pgserver"
WEB_PORT = 8000
LLM_PORT = 8080
# The hosts: role -> last octet of its address.
HOSTS = {
    "proxy": 10,
    "web1": 11,
    "web2": 12,
    "dbw": 20,
    "llmw": 21,
    "redis": 30,
    "pg1": 40,
    "pg2": 41,
    "llm": 50,
    "client": 100,
}
_SCRUB = ("DATABASE_", "CELERY_", "OPENAI_", "MEMORY_", "DJANGO_", "WEB_", "REDIS_")


def pg_bin(name: str) -> str:
    from pgserver._commands import POSTGRES_BIN_PATH

    return str(POSTGRES_BIN_PATH / name)


def addr(role: str) -> str:
    return f"{SUBNET}.{HOSTS[role]}"


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


class Cluster:
    def __init__(
        self,
        net: Network,
        tmp: Path,
        *,
        replica_env: bool = True,
        log_statements: bool = False,
        db_concurrency: int = 4,
    ) -> None:
        self.net, self.tmp, self.log_statements = net, tmp, log_statements
        self.db_concurrency = db_concurrency
        self.procs: dict[str, Proc] = {}
        self.logs = tmp / "logs"
        self.logs.mkdir()
        # platformdirs (imported by pgserver) wants a private runtime folder.
        (tmp / "runtime").mkdir(mode=0o700)
        os.environ.setdefault("XDG_RUNTIME_DIR", str(tmp / "runtime"))
        db = f"postgresql://postgres@{addr('pg1')}:5432/memory"
        self.db_url = db
        self.replica_url = f"postgresql://postgres@{addr('pg2')}:5432/memory"
        env = {k: v for k, v in os.environ.items() if not k.startswith(_SCRUB)}
        env.update(
            {
                "HF_HUB_OFFLINE": "1",
                "TRANSFORMERS_OFFLINE": "1",
                "PYTHONUNBUFFERED": "1",
                "SECRET_KEY": secrets.token_urlsafe(50),
                "ALLOWED_HOSTS": ",".join(addr(r) for r in ("proxy", "web1", "web2")),
                "DATABASE_URL": db,
                "CELERY_BROKER_URL": f"redis://{addr('redis')}:6379/0",
                "OPENAI_API_KEY": "drill",
                "OPENAI_BASE_URL": f"http://{addr('llm')}:{LLM_PORT}/v1",
                "MEMORY_LLM_MODEL": "drill-model",
                "MEMORY_LLM_TIMEOUT_SECONDS": "5",
                "MEMORY_LLM_BACKOFF_SECONDS": "0.5",
                # A killed worker's task comes back after this (Redis' unacked set).
                "CELERY_VISIBILITY_TIMEOUT": "30",
                "CELERY_TASK_SOFT_TIME_LIMIT": "15",
                "CELERY_TASK_TIME_LIMIT": "20",
                # The sweep runs often; its marker through the db queue finds lost turns however
                # long the backlog (facts/lost_turns.py), and a claimed turn is stuck 5 minutes
                # after its claim, on the queue's clock.
                "MEMORY_TURN_SWEEP_SECONDS": "10",
                "MEMORY_TURN_STUCK_SECONDS": "300",
                "MEMORY_INDEX_DRAIN_SECONDS": "10",
                # The clients' 20 recalls/s come from one key: counted in Redis, never refused.
                "MEMORY_RATE_LIMIT_READ": "100000/min",
                "MEMORY_RATE_LIMIT_RECALL": "100000/min",
                "MEMORY_RATE_LIMIT_WRITE": "100000/min",
                "MEMORY_WORKER_NICE": "0",  # the whole drill already runs under nice -n 10
                "MEMORY_EMBEDDING_THREADS": "1",
                "WEB_WORKERS": "1",
                "WEB_THREADS": "4",
                "WEB_TIMEOUT": "30",
                "WEB_FORWARDED_ALLOW_IPS": addr("proxy"),
            }
        )
        if replica_env:
            env["DATABASE_REPLICA_URLS"] = self.replica_url
        self.env = env

    # --- helpers ----------------------------------------------------------------------
    def spawn(self, name: str, role: str, args: list[str], env: dict | None = None, cwd: Path | None = None) -> Proc:
        proc = Proc(name, self.net.run_in(role, args), env=env or self.env, log_dir=self.logs, cwd=cwd or ROOT)
        self.procs[name] = proc
        return proc

    def run(self, role: str, args: list[str], env: dict | None = None, timeout: float = 300) -> str:
        out = subprocess.run(
            self.net.run_in(role, args), cwd=ROOT, env=env or self.env, capture_output=True, text=True, timeout=timeout
        )
        if out.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed in {role}:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}")
        return out.stdout

    def as_pg(self, args: list[str]) -> list[str]:
        return ["setpriv", f"--reuid={PG_USER}", f"--regid={PG_USER}", "--init-groups", *args]

    def manage(self, role: str, *args: str) -> str:
        return self.run(role, [str(BIN / "python"), "manage.py", *args])

    # --- PostgreSQL ---------------------------------------------------------------------
    def pg_dir(self, role: str) -> Path:
        return self.tmp / role

    def _pg_owned(self, data: Path) -> Path:
        from pgserver.utils import ensure_user_exists

        # PostgreSQL runs as pgserver: it must reach its folders under our temp folder. The user
        # is the one the pgserver package makes when it first runs as root; on a machine where
        # it never ran (the drill before any test), it is made here the same way.
        self.tmp.chmod(0o755)
        data.mkdir(mode=0o700)
        user = ensure_user_exists(PG_USER)
        assert user is not None
        os.chown(data, user.pw_uid, user.pw_gid)
        return data

    def start_primary(self) -> None:
        data = self._pg_owned(self.pg_dir("pg1"))
        init = [pg_bin("initdb"), "-D", str(data), "--auth=trust", "-U", "postgres", "--encoding=utf8"]
        subprocess.run(self.as_pg(init), check=True, capture_output=True)
        with (data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {SUBNET}.0/24 trust\nhost replication all {SUBNET}.0/24 trust\n")
        self._start_postgres("pg1")
        self.run("pg1", [pg_bin("psql"), "-h", addr("pg1"), "-U", "postgres", "-c", "CREATE DATABASE memory"])

    def start_replica(self) -> None:
        data = self._pg_owned(self.pg_dir("pg2"))
        backup = [pg_bin("pg_basebackup"), "-h", addr("pg1"), "-U", "postgres", "-D", str(data), "-R", "-X", "stream"]
        self.run("pg2", self.as_pg([*backup, "-c", "fast"]))
        self._start_postgres("pg2")

    def _start_postgres(self, role: str) -> None:
        data = self.pg_dir(role)
        # The socket outside the data folder: pg_basebackup would copy its lock file.
        sockets = self.tmp / f"sock-{role}"
        if not sockets.exists():
            self._pg_owned(sockets)
        args = [
            pg_bin("postgres"),
            "-D",
            str(data),
            "-c",
            f"listen_addresses={addr(role)}",
            "-c",
            f"unix_socket_directories={sockets}",
            "-c",
            "max_connections=60",
            "-c",
            "shared_buffers=64MB",
            "-c",
            "wal_keep_size=512MB",
        ]
        if self.log_statements:
            # Every statement in the server's log: the drill counts the recalls' vector searches
            # each server ran (share_served), the one measure that needs no help from the app.
            args += ["-c", "log_min_duration_statement=0"]
        self.spawn(role, role, self.as_pg(args), env={"PATH": os.environ["PATH"], "LANG": "C.UTF-8"})
        wait_for(lambda: self._pg_ready(role), 60, f"PostgreSQL on {role}")

    def _pg_ready(self, role: str) -> bool:
        if not self.procs[role].alive():
            raise RuntimeError(f"PostgreSQL on {role} exited:\n{self.procs[role].log()}")
        probe = self.net.run_in(role, [pg_bin("pg_isready"), "-q", "-h", addr(role), "-U", "postgres"])
        return subprocess.run(probe, capture_output=True).returncode == 0

    def replica_apply_delay(self, delay: str | None) -> None:
        """Make the replica apply each commit `delay` after the primary made it (None: at once).

        `recovery_min_apply_delay`, reloaded with SIGHUP: the WAL still arrives at once, only its
        replay waits, so the replica's data is that much behind. (The issue also offers tc
        netem; this kernel has no netem or prio qdisc: "Specified qdisc kind is unknown".)"""
        conf = self.pg_dir("pg2") / "postgresql.auto.conf"
        lines = [line for line in conf.read_text().splitlines() if not line.startswith("recovery_min_apply_delay")]
        if delay is not None:
            lines.append(f"recovery_min_apply_delay = '{delay}'")
        conf.write_text("\n".join(lines) + "\n")
        os.kill(self.procs["pg2"].pid, 1)

    def restart_primary(self) -> float:
        """A fast shutdown (SIGINT: open transactions roll back, clients are cut) and a start;
        the seconds the primary accepted no connection."""
        proc, began = self.procs["pg1"], time.monotonic()
        os.kill(proc.pid, 2)
        assert proc.popen is not None
        proc.popen.wait(timeout=120)
        self._start_postgres("pg1")
        return time.monotonic() - began

    # --- Redis, the extractor, the proxy --------------------------------------------------
    def start_redis(self, wait: bool = True) -> None:
        data = self.tmp / "redis"
        data.mkdir(exist_ok=True)
        # The decision: an append-only file written before each reply (appendfsync always),
        # so a message Redis has acknowledged survives a kill -9 of Redis itself.
        args = [
            shutil.which("redis-server") or "redis-server",
            "--bind",
            addr("redis"),
            "--port",
            "6379",
            "--dir",
            str(data),
            "--save",
            "",
            "--appendonly",
            "yes",
            "--appendfsync",
            "always",
            "--protected-mode",
            "no",
        ]
        self.spawn("redis", "redis", args, cwd=data)
        if wait:
            wait_for(lambda: self.listening("redis", 6379), 30, "redis-server")

    def start_llm(self) -> None:
        server = [str(BIN / "python"), str(ROOT / "scripts/hosts/llm_server.py"), addr("llm"), str(LLM_PORT)]
        self.spawn("llm", "llm", server)

    def start_proxy(self) -> None:
        cfg = self.tmp / "haproxy.cfg"
        cfg.write_text(haproxy_config())
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        self.spawn("proxy", "proxy", [haproxy, "-db", "-f", str(cfg)])

    def listening(self, name: str, port: int) -> bool:
        """Whether `name`'s host accepts connections on `port`; an error if its process ended."""
        if not self.procs[name].alive():
            raise RuntimeError(f"{name} exited:\n{self.procs[name].log()}")
        return port_open(addr(name), port)

    # --- the application ----------------------------------------------------------------
    def migrate(self) -> None:
        """Migrations, from the db worker's host."""
        self.manage("dbw", "migrate", "--noinput", "-v", "0")

    def create_tenant(self) -> str:
        """The tenant whose key the clients use: its key."""
        out = self.manage("dbw", "create_tenant", "drill")
        return next(line.split("=", 1)[1] for line in out.splitlines() if line.startswith("api_key="))

    def start_web(self, role: str) -> None:
        env = {**self.env, "WEB_BIND": f"{addr(role)}:{WEB_PORT}", "MEMORY_VAR_DIR": str(self._var(role))}
        self.spawn(role, role, [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py"], env=env)

    def web_ready(self, role: str, since: int = 0) -> bool:
        proc = self.procs[role]
        if not proc.alive():
            raise RuntimeError(f"{role} exited:\n{proc.log()}")
        return "request threads warm" in proc.log_since(since) and port_open(addr(role), WEB_PORT)

    def start_db_worker(self) -> None:
        schedule = self._var("dbw") / "celerybeat-schedule"
        self._worker("dbw", "db", ["-B", "--schedule", str(schedule)], self.db_concurrency)

    def start_llm_worker(self) -> None:
        self._worker("llmw", "llm,embed", [], 1)

    def _worker(self, role: str, queues: str, extra: list[str], concurrency: int) -> None:
        env = {**self.env, "MEMORY_VAR_DIR": str(self._var(role))}
        if role == "llmw":
            env.pop("DATABASE_URL")  # a worker host without the database
            env.pop("DATABASE_REPLICA_URLS", None)
        args = [str(BIN / "celery"), "-A", "memory_service", "worker", "-Q", queues, "-n", f"{role}@drill"]
        args += [
            "--concurrency",
            str(concurrency),
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            *extra,
        ]
        self.spawn(role, role, args, env=env)

    def worker_ready(self, role: str, since: int = 0) -> bool:
        proc = self.procs[role]
        if not proc.alive():
            raise RuntimeError(f"{role} exited:\n{proc.log()}")
        return " ready." in proc.log_since(since)

    def redis_up(self) -> bool:
        try:
            return bool(self._redis().ping())
        except Exception:  # noqa: BLE001 (starting: refused or loading its file)
            return False

    def redis_queues(self) -> dict[str, int]:
        """Messages waiting in each queue, and those delivered but not yet acknowledged."""
        r = self._redis()
        counts = {queue: int(r.llen(queue)) for queue in ("db", "llm", "embed")}
        counts["unacked"] = int(r.hlen("unacked"))
        return counts

    def _redis(self):
        import redis

        return redis.Redis(host=addr("redis"), port=6379, socket_timeout=2, socket_connect_timeout=2)

    def _var(self, role: str) -> Path:
        path = self.tmp / f"var-{role}"
        path.mkdir(exist_ok=True)
        return path

    def vector_searches(self) -> dict[str, int]:
        """Vector searches (one per recall of the facts; recall/engines/postgresql/vec.py) each
        PostgreSQL server has run so far, counted in its statement log."""
        return {
            role: sum(
                1
                for line in self.procs[role].log_since(0).splitlines()
                if "duration:" in line and "embedding <=>" in line
            )
            for role in ("pg1", "pg2")
        }

    def restart(self, name: str) -> None:
        """Start a killed host's process again with the same command."""
        self.procs[name].start()

    def stop_all(self) -> None:
        """Clients first (proxy, web), then workers, then the stores they use; each tier at
        once. PostgreSQL stops in immediate mode (SIGQUIT): its folder is deleted next, and a
        fast shutdown's checkpoint spent 16 s in fsync on a loaded machine (7,000 files). Every
        check is done by now, so a process gets 3 s before kill -9 (gunicorn's graceful stop
        and Celery's warm one waited for their requests and tasks: 10 s a tier)."""
        tiers = [("proxy", "web1", "web2"), ("dbw", "llmw", "llm"), ("redis", "pg2", "pg1")]
        named = {name for tier in tiers for name in tier}
        for tier in [*tiers, tuple(n for n in list(self.procs) if n not in named)]:
            procs = [self.procs[name] for name in tier if name in self.procs]
            for proc in procs:
                proc.ask_to_stop(signal.SIGQUIT if proc.name in ("pg1", "pg2") else signal.SIGTERM)
            deadline = time.monotonic() + 3
            for proc in procs:
                proc.finish_stop(deadline)


def haproxy_config() -> str:
    servers = "\n".join(
        f"    server {role} {addr(role)}:{WEB_PORT} check inter 500ms fall 2 rise 2" for role in ("web1", "web2")
    )
    return f"""global
    maxconn 512
defaults
    mode http
    timeout connect 1s
    timeout client 30s
    timeout server 30s
    retries 3
    option redispatch
    retry-on conn-failure empty-response
frontend api
    bind {addr("proxy")}:80
    default_backend web
backend web
    balance roundrobin
{servers}
"""
