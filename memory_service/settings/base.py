"""Settings, part one: the environment, security, apps, templates, static files, logging.

memory_service/settings/__init__.py reads the parts in order; each part imports what it uses
from the parts before it.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from core.private_files import private_folder, private_text_once
from memory_service.environment import Env

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("MEMORY_VAR_DIR", BASE_DIR / "var"))
# Databases, broker, secret key: readable by this user only (core/private_files.py).
private_folder(VAR_DIR)

# A malformed value is noted and its default taken; the system checks report every note
# (memory_service/environment.py, memory_service/settings_checks.py).
env = Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)


# MEMORY_ENV=production marks a deployment (docs/deployment.md): the secret key
# must then come from the environment, and the HTTPS settings below default on.
MEMORY_ENV = env.str("MEMORY_ENV", default="local")
if MEMORY_ENV not in {"local", "production"}:
    raise ImproperlyConfigured("MEMORY_ENV must be 'local' or 'production'.")
PRODUCTION = MEMORY_ENV == "production"


def _secret_key() -> str:
    """SECRET_KEY from the environment, else (not in production) one generated once per install."""
    key: str = env.str("SECRET_KEY", default="")  # django-environ is untyped
    if key:
        return key
    if PRODUCTION:
        # A key generated on one host would differ between hosts and change on a
        # fresh var/ folder, silently logging everyone out; ask for one instead.
        raise ImproperlyConfigured("MEMORY_ENV=production needs SECRET_KEY (see docs/deployment.md).")
    return private_text_once(VAR_DIR / "secret_key", secrets.token_urlsafe(50))


SECRET_KEY = _secret_key()
# Off unless asked for: DEBUG pages show settings and code to whoever gets an error.
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# Django's own: check ids not to report, such as memory_service.W001 on a single host.
SILENCED_SYSTEM_CHECKS = env.list("SILENCED_SYSTEM_CHECKS", default=[])

# HTTPS, for a deployment behind a TLS-terminating proxy (docs/deployment.md
# explains each). Off by default so `make run` works over plain http.
# The proxy must set X-Forwarded-Proto and be the only way in to the server.
if env.bool("TRUST_X_FORWARDED_PROTO", default=PRODUCTION):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=PRODUCTION)
# Load balancers and monitors probe the server directly over http.
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$"]
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=PRODUCTION)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=PRODUCTION)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if PRODUCTION else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=PRODUCTION)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=PRODUCTION)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    # django-ninja serves Swagger UI from its own static files when installed as an app,
    # instead of from a CDN (nothing may be fetched at run time).
    "ninja",
    "memory_service",
    "facts",
    "recall",
    "profiles",
    "mcp_server",
    "mem0_api",
    "importer",
    "webhooks",
    "dashboard",
]
# The benchmark and evaluation commands (bench/): on by default except in production, where
# an operator turns them on for a release check (`eval_recall`) or a drill.
if env.bool("MEMORY_BENCH_COMMANDS", default=not PRODUCTION):
    INSTALLED_APPS.append("bench")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files without DEBUG and without a separate web server (compressed, cached).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # The API's 405s as JSON, like its 404s (memory_service/not_found.py).
    "memory_service.not_found.JsonMethodNotAllowed",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "memory_service.urls"
WSGI_APPLICATION = "memory_service.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Auth, i18n, static ---------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard-home"
LOGOUT_REDIRECT_URL = "login"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"  # filled by `manage.py collectstatic` (scripts/run.sh runs it)
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on every start while it is missing
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Gzip copies at collectstatic time; no hashed names, so templates render
    # even where collectstatic has not run (tests, `make dev`).
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # User ids in request paths leave the log as keyed hashes (core/logredact.py).
    "filters": {"redact_user_ids": {"()": "core.logredact.RedactUserIds"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_user_ids"]}},
    "root": {"handlers": ["console"], "level": env.choice("LOG_LEVEL", "INFO", LOG_LEVELS)},
}
