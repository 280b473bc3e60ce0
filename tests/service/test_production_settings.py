"""Production settings: DEBUG off by default, the secret key required, `check --deploy` clean as documented."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOYMENT_DOC = ROOT / "docs" / "deployment.md"
# Every variable the settings read for these decisions; none may leak in from the test run.
_SCRUB = re.compile(
    r"^(DEBUG|SECRET_KEY|ALLOWED_HOSTS|CSRF_|SECURE_|SESSION_|TRUST_|MEMORY_|DATABASE_|CELERY_|WEB_|OPENAI_|DJANGO_)"
)


def _env(tmp_path: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not _SCRUB.match(k)}
    env.update({"MEMORY_VAR_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'memory.sqlite3'}"})
    env.update(extra)
    return env


def _run(args: list[str], env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def _settings(env: dict, *names: str) -> dict:
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {list(names)!r}}}))"
    )
    out = _run(["-c", code], {**env, "DJANGO_SETTINGS_MODULE": "memory_service.settings", "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def documented_production_env() -> dict:
    """The NAME=value lines of the production environment block in docs/deployment.md."""
    text = DEPLOYMENT_DOC.read_text()
    block = re.search(r"<!-- production-env -->\s*```\w*\n(.*?)```", text, re.DOTALL)
    assert block, "docs/deployment.md lost its production environment block"
    return dict(re.findall(r"^([A-Z][A-Z0-9_]*)=(\S*)", block.group(1), re.MULTILINE))


def test_debug_is_off_unless_asked_for(tmp_path):
    assert _settings(_env(tmp_path), "DEBUG") == {"DEBUG": False}
    assert _settings(_env(tmp_path, DEBUG="true"), "DEBUG") == {"DEBUG": True}


def test_local_mode_keeps_one_generated_secret_key_under_var(tmp_path):
    first = _settings(_env(tmp_path), "SECRET_KEY")["SECRET_KEY"]
    assert len(first) >= 50
    assert _settings(_env(tmp_path), "SECRET_KEY")["SECRET_KEY"] == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    out = _run(["manage.py", "check"], _env(tmp_path, MEMORY_ENV="production"))
    assert out.returncode != 0
    assert "MEMORY_ENV=production needs SECRET_KEY" in out.stderr
    assert not (tmp_path / "secret_key").exists()


def test_an_unknown_memory_env_is_refused(tmp_path):
    out = _run(["manage.py", "check"], _env(tmp_path, MEMORY_ENV="prod"))
    assert out.returncode != 0
    assert "MEMORY_ENV must be 'local' or 'production'" in out.stderr


def _documented_env(tmp_path: Path) -> dict:
    documented = documented_production_env()
    assert documented["MEMORY_ENV"] == "production"
    # The document shows placeholders for the secret and the paths of its host.
    documented["SECRET_KEY"] = secrets.token_urlsafe(50)
    documented["MEMORY_VAR_DIR"] = str(tmp_path)
    documented["DATABASE_URL"] = f"sqlite:///{tmp_path / 'memory.sqlite3'}"
    return _env(tmp_path, **documented)


def test_check_deploy_is_clean_with_the_documented_production_environment(tmp_path):
    out = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], _documented_env(tmp_path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "System check identified no issues (0 silenced)." in out.stdout


def test_production_leaves_the_bench_app_out_unless_asked_for(tmp_path):
    production = _documented_env(tmp_path)

    assert "bench" not in _settings(production, "INSTALLED_APPS")["INSTALLED_APPS"]
    asked = {**production, "MEMORY_BENCH_COMMANDS": "on"}
    assert "bench" in _settings(asked, "INSTALLED_APPS")["INSTALLED_APPS"]
    assert "bench" in _settings(_env(tmp_path), "INSTALLED_APPS")["INSTALLED_APPS"]


def test_check_deploy_warns_about_the_local_defaults(tmp_path):
    out = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], _env(tmp_path))
    assert out.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in out.stderr


@pytest.mark.django_db
@override_settings(SECURE_SSL_REDIRECT=True, SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_https_redirect_spares_the_health_probe_and_trusts_the_proxy():
    client = Client()
    assert client.get("/api/v1/health").status_code == 200
    redirected = client.get("/login/")
    assert redirected.status_code == 301
    assert redirected["Location"].startswith("https://")
    assert client.get("/login/", headers={"X-Forwarded-Proto": "https"}).status_code == 200
