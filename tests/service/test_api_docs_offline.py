"""The interactive API docs work offline: Swagger UI comes from the installed package."""

from __future__ import annotations

import re

from django.contrib.staticfiles import finders
from django.test import Client


def test_the_api_docs_page_loads_swagger_ui_from_our_own_static_files():
    html = Client().get("/api/v1/docs").content.decode()

    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any(s.endswith("swagger-ui-bundle.js") for s in sources), sources
    assert not [s for s in sources if s.startswith(("http://", "https://", "//"))], sources
    for source in sources:
        if source.startswith("/static/"):
            assert finders.find(source.removeprefix("/static/")), f"{source} is not in any static folder"
