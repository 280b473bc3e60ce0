"""`manage.py runserver` as the tests start it, with Nagle's algorithm off on its connections.

Django's development server sends a response's headers and its body in separate writes. On a
connection the client keeps alive (the sessions of requests and httpx: schemathesis, mem0ai,
the MCP SDK, the bench clients) the body then waits for the client's delayed acknowledgement of
the headers: about 40 ms a request on Linux, measured 47-56 ms a request against 4-6 ms on a new
connection each time, 1,475 requests of the OpenAPI contract spent a minute so. gunicorn, which
serves production, sets TCP_NODELAY on its listening socket itself (gunicorn/sock.py).

    python -m tests.integration.runserver 127.0.0.1:8000 --noreload
"""

from __future__ import annotations

import os
import socketserver
import sys

if __name__ == "__main__":
    # Read by StreamRequestHandler.setup() on every connection the server accepts.
    socketserver.StreamRequestHandler.disable_nagle_algorithm = True
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(["manage.py", "runserver", *sys.argv[1:]])
