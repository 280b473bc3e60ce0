"""A module-wide stack for the extraction integration tests: Redis, a db worker,
an LLM worker without the database, the web server, and the fake LLM."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bench.scripted_llm import rules_responder
from tests.base import service_database_url
from tests.fake_llm import FakeLLM
from tests.integration.stack import ROOT, Http, Proc, clean_env, manage, start_redis, start_web, start_worker
from tests.migrated import migrate

VISIBILITY_TIMEOUT = 4  # seconds before Redis hands an unacknowledged task to another worker
DB_WORKER_APP = "integration-db-worker"
DB_WORKER_PROCESSES = 2


@dataclass
class Stack:
    tmp: Path
    http: Http
    llm: FakeLLM
    llm_env: dict
    llm_dir: Path
    llm_worker: Proc
    db_worker: Proc
    db_url: str
    procs: list[Proc] = field(default_factory=list)

    def start_llm_worker(self, name: str) -> Proc:
        self.llm_worker = start_worker(name, "llm", cwd=self.llm_dir, env=self.llm_env, log_dir=self.tmp)
        self.procs.append(self.llm_worker)
        return self.llm_worker


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("extraction-stack")
    llm = FakeLLM(responder=rules_responder)
    procs: list[Proc] = []
    try:
        redis, broker_url = start_redis(tmp)
        procs.append(redis)
        broker = {"CELERY_BROKER_URL": broker_url, "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT)}
        var = tmp / "db-host"
        var.mkdir()
        db_env = clean_env(DATABASE_URL=service_database_url(var), MEMORY_VAR_DIR=str(var), **broker)
        migrate(db_env)
        key = re.search(r"^api_key=(\S+)$", manage(["create_tenant", "integration"], db_env), re.MULTILINE).group(1)

        # The database host: the db-queue worker (it has no LLM key: it never calls the model).
        # Named on the server (libpq's PGAPPNAME), so a test can tell its connections apart.
        worker_env = {**db_env, "PGAPPNAME": DB_WORKER_APP}
        db_worker = start_worker("db", "db", cwd=ROOT, env=worker_env, log_dir=tmp, concurrency=DB_WORKER_PROCESSES)
        procs.append(db_worker)
        # "Another machine": its own working directory, no DATABASE_URL, an empty var folder.
        # No CELERY_SKIP_CHECKS: start-up checks must leave a host without a database alone.
        llm_dir = tmp / "llm-host"
        (llm_dir / "var").mkdir(parents=True)
        llm_env = clean_env(
            MEMORY_VAR_DIR=str(llm_dir / "var"),
            PYTHONPATH=str(ROOT),
            OPENAI_API_KEY="integration-key",
            OPENAI_BASE_URL=llm.url,
            MEMORY_LLM_BACKOFF_SECONDS="0.05",
            **broker,
        )
        llm_worker = start_worker("llm-1", "llm", cwd=llm_dir, env=llm_env, log_dir=tmp)
        procs.append(llm_worker)
        web, base = start_web({**db_env, "OPENAI_API_KEY": "integration-key", "OPENAI_BASE_URL": llm.url}, tmp)
        procs.append(web)
        yield Stack(
            tmp=tmp,
            http=Http(base, key),
            llm=llm,
            llm_env=llm_env,
            llm_dir=llm_dir,
            llm_worker=llm_worker,
            db_worker=db_worker,
            db_url=db_env["DATABASE_URL"],
            procs=procs,
        )
    finally:
        for proc in reversed(procs):
            proc.stop()
        llm.close()
