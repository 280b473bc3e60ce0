"""gunicorn's values from the WEB_* variables, read once for gunicorn.conf.py and for the settings.

The settings read them too so that a malformed one is a system check error
(memory_service/settings_checks.py) which `manage.py check` reports like any other.
"""

from __future__ import annotations

from typing import Any

from gunicorn.config import validate_string_to_addr_list
from gunicorn.util import parse_address

from memory_service.environment import NOT_AN_ADDRESS, Env

BIND_FORMS = "HOST:PORT, [IPv6]:PORT or unix:/path/to/socket"
PROXY_FORMS = "addresses or networks (10.0.0.0/8), comma-separated, or *"


def web_server_settings(env: Env) -> dict[str, Any]:
    """gunicorn setting name -> value; a malformed value is noted in `env` and its default taken."""
    return {
        "bind": env.checked("WEB_BIND", "127.0.0.1:8000", BIND_FORMS, _parse_bind, NOT_AN_ADDRESS),
        "workers": env.int("WEB_WORKERS", default=2, minimum=1),
        "threads": env.int("WEB_THREADS", default=4, minimum=1),
        # 0: no timeout (gunicorn's meaning).
        "timeout": env.int("WEB_TIMEOUT", default=60, minimum=0),
        "accesslog": env.str("WEB_ACCESS_LOG", default="") or None,  # "-" for stdout
        # gunicorn's own rule (strict networks: 10.0.0.1/8 is refused), so a value the settings
        # take never stops gunicorn's configuration.
        "forwarded_allow_ips": env.checked(
            "WEB_FORWARDED_ALLOW_IPS", "127.0.0.1,::1", PROXY_FORMS, validate_string_to_addr_list, NOT_AN_ADDRESS
        ),
    }


def _parse_bind(raw: str) -> None:
    address = parse_address(raw)  # raises RuntimeError on a port that is not a number
    # gunicorn takes any number here and fails later, when it binds.
    if isinstance(address, tuple) and not 0 <= address[1] <= 65535:
        raise ValueError(f"port {address[1]}")
