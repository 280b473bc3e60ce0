"""A webhook receiver on 127.0.0.1 for the tests: it verifies each POST with the check
docs/api.md gives receivers, can answer 503 for a while, and dedupes by webhook-id."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


# --- The receiver's check, as docs/api.md shows it -------------------------------------------
def verify(secret: str, headers, body: bytes, tolerance: int = 300) -> dict:
    msg_id = headers["webhook-id"]
    timestamp = headers["webhook-timestamp"]
    if abs(time.time() - int(timestamp)) > tolerance:
        raise ValueError("timestamp too old or in the future")
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for candidate in headers["webhook-signature"].split():
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return json.loads(body)
    raise ValueError("no valid signature")


# ----------------------------------------------------------------------------------------------


@dataclass
class Attempt:
    at: float
    msg_id: str
    status: int


@dataclass
class Receiver:
    secret: str = ""
    down_until: float = 0.0  # answers 503 before this time.monotonic()
    attempts: list[Attempt] = field(default_factory=list)
    accepted: dict[str, dict] = field(default_factory=dict)  # webhook-id -> verified payload
    duplicates: int = 0
    delay: float = 0.0  # seconds each answer takes
    bad_signatures: int = 0
    hosts: list[str] = field(default_factory=list)  # each request's Host header
    redirect_to: str = ""  # when set, every POST is answered 302 with this Location
    lock: threading.Lock = field(default_factory=threading.Lock)

    def handle(self, headers, body: bytes) -> int:
        time.sleep(self.delay)
        now = time.monotonic()
        msg_id = headers.get("webhook-id", "")
        with self.lock:
            self.hosts.append(headers.get("Host", ""))
            status = 503 if now < self.down_until else 302 if self.redirect_to else 200
            if status == 200:
                try:
                    payload = verify(self.secret, headers, body)
                except (ValueError, KeyError):
                    self.bad_signatures += 1
                    status = 400
                else:
                    if msg_id in self.accepted:
                        self.duplicates += 1
                    self.accepted[msg_id] = payload
            self.attempts.append(Attempt(now, msg_id, status))
        return status


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """An http.server thread on 127.0.0.1:`port` that passes each POST to `receiver`."""

    def __init__(self, receiver: Receiver, port: int = 0, tls: ssl.SSLContext | None = None):
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status = receiver.handle(self.headers, body)
                self.send_response(status)
                if status == 302:
                    self.send_header("Location", receiver.redirect_to)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.httpd.server_address[1]
        if tls is not None:
            self.httpd.socket = tls.wrap_socket(self.httpd.socket, server_side=True)
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}/hook"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)
