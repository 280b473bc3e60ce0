"""Every setting is read when the process starts: a malformed value is a system check error that
names the variable and the forms it accepts, and `manage.py check`, gunicorn and the Celery
worker refuse to start on it (memory_service/settings_checks.py)."""

from __future__ import annotations

import re
import runpy
import ssl
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.checks.registry import registry
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from memory_service.settings_checks import check_settings, settings_errors
from tests.integration.stack import BIN, ROOT, Proc, clean_env, free_port, wait_for

SETTINGS_FILE = ROOT / "memory_service" / "settings" / "__init__.py"
ENV_EXAMPLE = ROOT / ".env.example"
NUMBER, ON_OFF, CHOICE, URL, ADDRESS, RATE = (f"memory_service.E01{n}" for n in range(6))

# Variable -> a malformed value of it, and the check that refuses it.
MALFORMED = {
    # Django and HTTPS
    "DEBUG": ("maybe", ON_OFF),
    "MEMORY_BENCH_COMMANDS": ("sometimes", ON_OFF),
    "TRUST_X_FORWARDED_PROTO": ("proxy", ON_OFF),
    "SECURE_SSL_REDIRECT": ("2", ON_OFF),
    "SESSION_COOKIE_SECURE": ("yess", ON_OFF),
    "CSRF_COOKIE_SECURE": ("maybe", ON_OFF),
    "SECURE_HSTS_SECONDS": ("-1", NUMBER),
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": ("maybe", ON_OFF),
    "SECURE_HSTS_PRELOAD": ("maybe", ON_OFF),
    # Web server, `make run`, logging
    "WEB_BIND": ("localhost:http", ADDRESS),
    "WEB_WORKERS": ("0", NUMBER),
    "WEB_THREADS": ("four", NUMBER),
    "WEB_TIMEOUT": ("-5", NUMBER),
    "WEB_FORWARDED_ALLOW_IPS": ("10.0.0.1/8", ADDRESS),
    "WORKER_RESTART_SECONDS": ("2s", NUMBER),
    "LOG_LEVEL": ("verbose", CHOICE),
    # Database
    "DATABASE_CONN_MAX_AGE": ("forever", NUMBER),
    "DATABASE_WEB_HOSTS": ("0", NUMBER),
    "DATABASE_WORKER_CONNECTIONS": ("some", NUMBER),
    "DATABASE_POOLER": ("pgpool", CHOICE),
    "DATABASE_SERVER_SIDE_BINDING": ("maybe", ON_OFF),
    "MEMORY_POSTGRES_ERASE_VACUUM": ("yes", CHOICE),
    "MEMORY_POSTGRES_COMPACT_SECONDS": ("5m", NUMBER),
    "MEMORY_POSTGRES_COMPACT_LOCK_WAIT_MS": ("0", NUMBER),
    "MEMORY_POSTGRES_PARTITIONS": ("2000", NUMBER),
    "MEMORY_POSTGRES_PARTITION_WARN_MB": ("5MB", NUMBER),
    "MEMORY_MOVE_TO_URL": ("sqlite:///moved.sqlite3", URL),
    "SQLITE_BUSY_TIMEOUT_SECONDS": ("30s", NUMBER),
    "SQLITE_CACHE_MB": ("2MB", NUMBER),
    "SQLITE_MMAP_MB": ("-1", NUMBER),
    "MEMORY_BACKUP_KEEP": ("seven", NUMBER),
    "MEMORY_BACKUP_EVERY_HOURS": ("-24", NUMBER),
    # Celery
    "CELERY_BROKER_URL": ("localhost:6379", URL),
    "CELERY_TASK_ALWAYS_EAGER": ("maybe", ON_OFF),
    "MEMORY_BROKER_POLL_SECONDS": ("0", NUMBER),
    "MEMORY_BROKER_PREFETCH_WAIT_SECONDS": ("-0.1", NUMBER),
    "MEMORY_WORKER_NICE": ("20", NUMBER),
    "CELERY_VISIBILITY_TIMEOUT": ("15m", NUMBER),
    "CELERY_TASK_SOFT_TIME_LIMIT": ("0", NUMBER),
    "CELERY_TASK_TIME_LIMIT": ("3min", NUMBER),
    # Write path
    "MEMORY_HIGH_RISK_CATEGORIES": ("health,helth", CHOICE),
    "MEMORY_FIRST_MENTION_CONFIDENCE": ("40%", NUMBER),
    "MEMORY_CONFIDENCE_STEP": ("1.5", NUMBER),
    "MEMORY_CONFIRMED_CONFIDENCE": ("-0.1", NUMBER),
    "MEMORY_MAX_FACT_CHARS": ("0", NUMBER),
    "MEMORY_VALUE_JSON_MAX_BYTES": ("16KiB", NUMBER),
    "MEMORY_LIST_MAX_BYTES": ("1000", NUMBER),
    "MEMORY_PROFILE_BUDGET_CHARS": ("8k", NUMBER),
    "MEMORY_OTHER_BUDGET_CHARS": ("-1", NUMBER),
    "MEMORY_MAX_TURN_CHARS": ("nan", NUMBER),
    "MEMORY_IMPORT_TURNS_PER_SECOND": ("0", NUMBER),
    "MEMORY_IMPORT_MAX_WAITING": ("many", NUMBER),
    "MEMORY_IMPORT_YIELD_ABOVE": ("-1", NUMBER),
    "MEMORY_IMPORT_BUSY_SECONDS": ("0.5", NUMBER),
    "MEMORY_IMPORT_MAX_BYTES": ("20MB", NUMBER),
    "MEMORY_WEBHOOK_SWEEP_SECONDS": ("0", NUMBER),
    "MEMORY_WEBHOOK_TIMEOUT_SECONDS": ("soon", NUMBER),
    "MEMORY_WEBHOOK_BACKOFF_SECONDS": ("-1", NUMBER),
    "MEMORY_WEBHOOK_BACKOFF_MAX_SECONDS": ("1h", NUMBER),
    "MEMORY_WEBHOOK_MAX_ATTEMPTS": ("0", NUMBER),
    "MEMORY_WEBHOOK_LOG_DAYS": ("30d", NUMBER),
    "MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS": ("lan", ON_OFF),
    "MEMORY_WEBHOOK_ALLOWED_NETWORKS": ("10.0.0.0/8,192.168.1.0/33", ADDRESS),
    # Extraction and the turn sweep
    "OPENAI_BASE_URL": ("api.openai.com/v1", URL),
    "MEMORY_LLM_TIMEOUT_SECONDS": ("0", NUMBER),
    "MEMORY_LLM_MAX_TRIES": ("0", NUMBER),
    "MEMORY_EXTRACTION_FACTS_CHARS": ("-1", NUMBER),
    "MEMORY_LLM_BACKOFF_SECONDS": ("inf", NUMBER),
    "MEMORY_LLM_JSON_MODE": ("json", ON_OFF),
    "MEMORY_SALIENCE_GATE": ("sometimes", ON_OFF),
    "MEMORY_TURN_SWEEP_SECONDS": ("0", NUMBER),
    "MEMORY_TURN_STUCK_SECONDS": ("-1", NUMBER),
    "MEMORY_TURN_MAX_ATTEMPTS": ("five", NUMBER),
    # Embeddings and recall
    "MEMORY_EMBEDDER": ("huggingface", CHOICE),
    "MEMORY_EMBEDDING_LOCAL_MODEL": ("bge-small-en-v1.5", CHOICE),
    "MEMORY_EMBEDDING_BASE_URL": ("ftp://models.example.org/v1", URL),
    "MEMORY_EMBEDDING_RUNTIME": ("cuda", CHOICE),
    "MEMORY_EMBEDDING_THREADS": ("0", NUMBER),
    "MEMORY_TORCH_THREADS": ("auto", NUMBER),
    "MEMORY_RECALL_DEFAULT_K": ("0", NUMBER),
    "MEMORY_EMBEDDING_TIMEOUT_SECONDS": ("-1", NUMBER),
    "MEMORY_EMBED_BATCH_SIZE": ("0", NUMBER),
    "MEMORY_INDEX_BATCH": ("all", NUMBER),
    "MEMORY_INDEX_DRAIN_SECONDS": ("0", NUMBER),
    "MEMORY_RECALL_FUSION": ("max", CHOICE),
    "MEMORY_RECALL_LEXICAL_WEIGHT": ("-1", NUMBER),
    "MEMORY_RECALL_VECTOR_WEIGHT": ("heavy", NUMBER),
    "MEMORY_RECALL_CANDIDATES": ("0", NUMBER),
    "MEMORY_RECALL_MIN_SIMILARITY": ("2", NUMBER),
    "MEMORY_RECALL_LEXICAL_FLOOR": ("1.1", NUMBER),
    "MEMORY_RECALL_SCORE_DAMPING": ("maybe", ON_OFF),
    "MEMORY_RECALL_FULL_FUSION": ("2", ON_OFF),
    "MEMORY_RECALL_RESCORE_DEPTH": ("0", NUMBER),
    "MEMORY_RECALL_UNIVERSAL_SHARE": ("30%", NUMBER),
    "MEMORY_RECALL_UNIVERSAL_MIN_FACTS": ("-1", NUMBER),
    "MEMORY_RECALL_EMBED_CONTEXT": ("maybe", ON_OFF),
    "MEMORY_RECALL_EXCHANGE_CHARS": ("-300", NUMBER),
    "MEMORY_RECALL_HALF_LIFE_DAYS": ("0", NUMBER),
    "MEMORY_RECALL_TIME_WEIGHT": ("-3", NUMBER),
    "MEMORY_RECALL_RECENCY_WEIGHT": ("1.5", NUMBER),
    "MEMORY_RECALL_LEADER_RATIO": ("0.5", NUMBER),
    "MEMORY_RECALL_EPISODE_MERGE": ("maybe", ON_OFF),
    "MEMORY_RECALL_QUOTE_SOURCES": ("maybe", ON_OFF),
    "MEMORY_RECALL_TURN_KEYS": ("facts", CHOICE),
    "MEMORY_RECALL_FACTS_THROUGH_TURNS": ("sometimes", ON_OFF),
    "MEMORY_CONSENT_CLASSIFIER": ("sometimes", ON_OFF),
    "MEMORY_EPISODE_RETENTION_DAYS": ("0", NUMBER),
    # Profiles, context, metrics
    "MEMORY_PROFILE_EVERY_TURNS": ("0", NUMBER),
    "MEMORY_PROFILE_RECENT_DAYS": ("-1", NUMBER),
    "MEMORY_PROFILE_KEEP_VERSIONS": ("0", NUMBER),
    "MEMORY_CONTEXT_MAX_TOKENS": ("32k", NUMBER),
    "MEMORY_CONTEXT_MIN_CONFIDENCE": ("50", NUMBER),
    "MEMORY_CONTEXT_STALE_DAYS": ("0", NUMBER),
    "MEMORY_CONTEXT_TASK_STALE_DAYS": ("two weeks", NUMBER),
    "METRICS_ALLOW_LOOPBACK": ("maybe", ON_OFF),
    # Rate limits, sign-in throttling, the request path
    "MEMORY_RATE_LIMIT_READ": ("100000", RATE),
    "MEMORY_RATE_LIMIT_WRITE": ("1200/minutes", RATE),
    "MEMORY_RATE_LIMIT_RECALL": ("0/min", RATE),
    "REDIS_URL": ("127.0.0.1:6379", URL),
    "MEMORY_RATE_LIMIT_SLOTS": ("0", NUMBER),
    "MEMORY_LOGIN_FAILURES_PER_ACCOUNT": ("10", RATE),
    "MEMORY_LOGIN_FAILURES_PER_ADDRESS": ("50 per hour", RATE),
    "MEMORY_LOG_BUFFER_ROWS": ("-1", NUMBER),
    "MEMORY_LOG_BUFFER_SECONDS": ("soon", NUMBER),
    "MEMORY_API_KEY_CACHE_SECONDS": ("-30", NUMBER),
    "MEMORY_BENCH_POSTGRES": ("sqlite:///bench.sqlite3", URL),
}
# Any text is a valid value of these (names, keys, paths, host lists); Django's own checks
# cover CSRF_TRUSTED_ORIGINS (4_0.E001) and SECRET_KEY (security.W009).
FREE_FORM = {
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SILENCED_SYSTEM_CHECKS",
    "MEMORY_VAR_DIR",
    "DATABASE_TEST_NAME",
    "MEMORY_MODEL_DIR",
    "OPENAI_API_KEY",
    "MEMORY_LLM_MODEL",
    "MEMORY_EMBEDDING_MODEL",
    "METRICS_TOKEN",
    "WEB_ACCESS_LOG",
    "MEMORY_BACKUP_DIR",
    "MEMORY_PG_DUMP",
    "MEMORY_PG_RESTORE",
    "MEMORY_ERASURE_JOURNAL",
}
# Refused by the settings import itself: no default could stand in for the operator's choice.
REFUSED_AT_IMPORT = {
    "MEMORY_ENV": "prod",
    "DATABASE_URL": "mysql://memory@db.internal/memory",
    "DATABASE_REPLICA_URLS": "mysql://memory@replica.internal/memory",
}


def example_variables() -> set[str]:
    return set(re.findall(r"^# ?([A-Z][A-Z0-9_]*)=", ENV_EXAMPLE.read_text(), re.MULTILINE))


@pytest.fixture
def read_settings(monkeypatch, tmp_path):
    """Run memory_service/settings/ afresh under the given variables (and none of the test
    run's), as a process would at start; the settings module's names as attributes."""

    def read(**variables: str) -> SimpleNamespace:
        for name in example_variables() | set(MALFORMED) | set(REFUSED_AT_IMPORT):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("MEMORY_VAR_DIR", str(tmp_path))
        monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'memory.sqlite3'}")
        for name, value in variables.items():
            monkeypatch.setenv(name, value)
        # The parts run again under these variables (put back as they were after the test).
        for part in [name for name in sys.modules if name.startswith("memory_service.settings.")]:
            monkeypatch.delitem(sys.modules, part)
        return SimpleNamespace(**runpy.run_path(str(SETTINGS_FILE)))

    return read


def test_every_variable_of_env_example_has_a_malformed_value_here():
    unlisted = example_variables() - set(MALFORMED) - FREE_FORM - set(REFUSED_AT_IMPORT)
    assert not unlisted, f"give these a malformed value in MALFORMED (or list them as free-form): {unlisted}"


def test_the_defaults_pass(read_settings):
    assert settings_errors(read_settings()) == []


@pytest.mark.parametrize("variable", sorted(MALFORMED))
def test_a_malformed_value_is_an_error_naming_the_variable_and_the_accepted_forms(read_settings, variable):
    value, check_id = MALFORMED[variable]
    errors = settings_errors(read_settings(**{variable: value}))
    assert [error.id for error in errors] == [check_id], [error.msg for error in errors]
    assert errors[0].msg.startswith(variable)
    assert "use " in errors[0].msg


@pytest.mark.parametrize("variable", sorted(REFUSED_AT_IMPORT))
def test_a_setting_without_a_safe_default_is_refused_at_import(read_settings, variable):
    with pytest.raises(ImproperlyConfigured, match=f"^{variable} must be"):
        read_settings(**{variable: REFUSED_AT_IMPORT[variable]})


@pytest.mark.filterwarnings("ignore:Engine not recognized")
def test_an_unreadable_database_url_is_refused_by_name(read_settings):
    with pytest.raises(ImproperlyConfigured, match="^DATABASE_URL must be"):
        read_settings(DATABASE_URL="memory.sqlite3")


def test_the_accepted_forms_are_read(read_settings):
    values = read_settings(
        DEBUG="Yes",
        MEMORY_SALIENCE_GATE="off",
        LOG_LEVEL="warning",
        MEMORY_EMBEDDER="OpenAI",
        MEMORY_RATE_LIMIT_READ="",  # empty turns a limit off, as "off" does
        MEMORY_RATE_LIMIT_WRITE="20/sec",
        MEMORY_TURN_MAX_ATTEMPTS="",  # empty is unset
        WEB_BIND="[::1]:8001",
        WEB_FORWARDED_ALLOW_IPS="10.0.0.0/8, 192.168.1.7",
        CELERY_BROKER_URL="redis://:secret@10.0.0.1:6379/0",
    )
    assert settings_errors(values) == []
    assert (values.DEBUG, values.MEMORY_SALIENCE_GATE, values.LOGGING["root"]["level"]) == (True, False, "WARNING")
    assert (values.MEMORY_EMBEDDER, values.MEMORY_RATE_LIMIT_READ, values.MEMORY_TURN_MAX_ATTEMPTS) == (
        "openai",
        "off",
        5,
    )
    assert values.MEMORY_TRUSTED_PROXIES == ["10.0.0.0/8", "192.168.1.7"]


def test_a_redis_broker_gets_the_transport_that_survives_a_redis_restart_and_tls_checks_the_server(read_settings):
    plain = read_settings(CELERY_BROKER_URL="redis://:secret@10.0.0.1:6379/0")
    tls = read_settings(CELERY_BROKER_URL="rediss://:secret@redis.internal:6380/0")
    assert plain.CELERY_BROKER_TRANSPORT == tls.CELERY_BROKER_TRANSPORT == "core.redis_broker:Transport"
    assert not hasattr(plain, "CELERY_BROKER_USE_SSL")
    assert tls.CELERY_BROKER_USE_SSL == {"ssl_cert_reqs": ssl.CERT_REQUIRED}
    assert read_settings().CELERY_BROKER_TRANSPORT == "core.broker:Transport"  # the embedded default


def test_a_url_in_an_error_has_its_password_masked(read_settings):
    (error,) = settings_errors(read_settings(CELERY_BROKER_URL="redis://:hunter2@10.0.0.1:port/0"))
    assert "hunter2" not in error.msg
    assert error.msg.startswith("CELERY_BROKER_URL='redis://***:***@10.0.0.1:port/0'")


def test_every_malformed_variable_is_reported_at_once(read_settings):
    errors = settings_errors(read_settings(DEBUG="maybe", MEMORY_RATE_LIMIT_WRITE="100000", WEB_WORKERS="abc"))
    assert sorted(error.msg.split("=")[0] for error in errors) == ["DEBUG", "MEMORY_RATE_LIMIT_WRITE", "WEB_WORKERS"]


def test_the_check_is_registered_and_passes_on_the_test_settings():
    assert check_settings in registry.get_checks()
    assert check_settings() == []


@override_settings(CELERY_TASK_SOFT_TIME_LIMIT=180, CELERY_TASK_TIME_LIMIT=180)
def test_a_soft_time_limit_not_below_the_hard_one_is_an_error():
    (error,) = check_settings()
    assert error.id == "memory_service.E016"
    assert "CELERY_TASK_SOFT_TIME_LIMIT=180 must be below CELERY_TASK_TIME_LIMIT=180" in error.msg


# --- The processes refuse to start ---------------------------------------------------------
# MEMORY_RATE_LIMIT_WRITE=100000 started fine and then answered every keyed request with a 500.
BAD = {"MEMORY_RATE_LIMIT_WRITE": "100000", "WEB_WORKERS": "abc"}
REPORTED = ["(memory_service.E015) MEMORY_RATE_LIMIT_WRITE='100000'", "(memory_service.E010) WEB_WORKERS='abc'"]


def _env(tmp_path: Path) -> dict:
    return clean_env(MEMORY_VAR_DIR=str(tmp_path), DATABASE_URL=f"sqlite:///{tmp_path / 'memory.sqlite3'}", **BAD)


def _exit_of(proc: Proc, seconds: float) -> int:
    try:
        wait_for(lambda: proc.popen.poll() is not None, seconds, 0.2, f"{proc.name} to refuse to start")
        return proc.popen.returncode
    finally:
        proc.stop()


@pytest.mark.slow
def test_manage_py_check_refuses_a_malformed_setting(tmp_path):
    proc = Proc("check", [str(BIN / "python"), "manage.py", "check"], cwd=ROOT, env=_env(tmp_path), log_dir=tmp_path)
    assert _exit_of(proc, 60) == 1
    for line in REPORTED:
        assert line in proc.log()


@pytest.mark.slow
def test_gunicorn_refuses_to_start_on_a_malformed_setting(tmp_path):
    env = {**_env(tmp_path), "WEB_BIND": f"127.0.0.1:{free_port()}"}
    args = [str(BIN / "gunicorn"), "-c", str(ROOT / "gunicorn.conf.py")]
    proc = Proc("gunicorn", args, cwd=ROOT, env=env, log_dir=tmp_path)
    assert _exit_of(proc, 60) != 0
    log = proc.log()
    for line in REPORTED:
        assert line in log
    assert "Refusing to start." in log
    assert "Listening at" not in log and "Booting worker" not in log


@pytest.mark.slow
def test_the_celery_worker_refuses_to_start_on_a_malformed_setting(tmp_path):
    args = [str(BIN / "celery"), "-A", "memory_service", "worker", "-Q", "db", "--concurrency", "1"]
    proc = Proc("worker", args, cwd=ROOT, env=_env(tmp_path), log_dir=tmp_path)
    assert _exit_of(proc, 60) != 0
    log = proc.log()
    for line in REPORTED:
        assert line in log
    assert "Refusing to start." in log
    assert "ready." not in log


def test_server_side_binding_binds_on_postgresql_and_names_no_statement(read_settings):
    url = "postgresql://memory@127.0.0.1:5432/memory"
    values = read_settings(DATABASE_URL=url, DATABASE_SERVER_SIDE_BINDING="on", DATABASE_POOLER="pgbouncer")
    options = values.DATABASES["default"]["OPTIONS"]
    assert options["server_side_binding"] is True
    # Django then leaves psycopg's prepare_threshold at None: no named prepared statement, which
    # PgBouncer 1.18 in transaction mode could not keep (docs/deployment.md, "Connections").
    assert "prepare_threshold" not in options
    assert "server_side_binding" not in read_settings(DATABASE_URL=url).DATABASES["default"].get("OPTIONS", {})
    assert "server_side_binding" not in read_settings(DATABASE_SERVER_SIDE_BINDING="on").DATABASES["default"]["OPTIONS"]
