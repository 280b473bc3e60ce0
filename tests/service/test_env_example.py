"""`.env.example` names every variable the settings read, so an operator can find each one."""

from __future__ import annotations

import re

from tests.integration.stack import ROOT

# env.str("NAME", ...), env.int("NAME", ...), env("NAME"), os.environ.get("NAME"), ...
READ = re.compile(r"""(?:\benv(?:\.\w+)?|os\.environ\.get|os\.environ\[)\(?\s*["']([A-Z][A-Z0-9_]+)["']""")


def test_every_variable_the_settings_read_is_named_in_env_example():
    parts = sorted((ROOT / "memory_service" / "settings").glob("*.py"))
    read = {name for part in parts for name in READ.findall(part.read_text())}
    example = (ROOT / ".env.example").read_text()

    assert len(read) > 50, "the pattern no longer finds the settings' variables"
    assert sorted(name for name in read if not re.search(rf"\b{name}\b", example)) == []
