"""The drill's hosts brought up: every host started as soon as what it needs is there, and the
drill waits on each one's readiness (a port answering, a log line, the API through the proxy)
rather than sleeping.

    network, redis, extractor, llm worker, proxy  ─ at once (none needs the database)
    primary ─┬─ replica (pg_basebackup -R)      ─┐
             └─ migrate ─┬─ web1, web2, db worker ├─ all ready, then the API through the proxy
                         └─ the tenant's key    ─┘
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from load import Api
from netns import Network
from procs import wait_for
from services import HOSTS, LLM_PORT, Cluster, addr

READY_SECONDS = 300.0  # one host's start under a heavy load (a first run: 95 s for ten hosts)


class Background(threading.Thread):
    """A step run beside the main thread; its error is raised again by `result()`."""

    def __init__(self, name: str, step: Callable[[], object]) -> None:
        super().__init__(daemon=True, name=name)
        self.step, self.error = step, None

    def run(self) -> None:
        try:
            self.step()
        except BaseException as exc:  # noqa: BLE001 (handed to the main thread)
            self.error = exc

    def result(self, timeout: float) -> None:
        self.join(timeout)
        if self.is_alive():
            raise TimeoutError(f"{self.name} did not finish in {timeout:.0f} s")
        if self.error is not None:
            raise self.error


def make_network(net: Network) -> None:
    """The bridge and a namespace per host; this thread then joins the client's namespace, so
    the threads started from here on, and the clients, are on the bridge like any client."""
    net.create()
    for role, octet in HOSTS.items():
        net.add_host(role, octet)
    net.enter("client")


def bring_up(c: Cluster, say: Callable[[str], None]) -> str:
    """Every host of the drill up and ready (the network made); the clients' API key."""
    began = time.monotonic()

    def step(message: str) -> None:
        say(f"{message} ({time.monotonic() - began:.0f} s)")

    c.start_redis(wait=False)
    c.start_llm()
    c.start_llm_worker()  # it needs no database: it loads its model while the primary starts
    c.start_proxy()  # its checks mark the web hosts up once they answer
    c.start_primary()
    step("primary up")
    replica = Background("the replica", lambda: (c.start_replica(), step("replica up (pg_basebackup -R)")))
    replica.start()
    c.migrate()
    step("migrated")
    for role in ("web1", "web2"):
        c.start_web(role)
    c.start_db_worker()
    key = c.create_tenant()  # while the app hosts load
    replica.result(READY_SECONDS)
    wait_for(lambda: _all_ready(c), READY_SECONDS, "every host ready", 0.25)
    api = Api(addr("proxy"), 80, key)
    wait_for(lambda: _proxied(api), 60, "the API through the proxy", 0.25)
    step(f"{len(HOSTS)} hosts up")
    return key


def _all_ready(c: Cluster) -> bool:
    return (
        c.listening("redis", 6379)
        and c.listening("llm", LLM_PORT)
        and c.listening("proxy", 80)
        and all(c.web_ready(role) for role in ("web1", "web2"))
        and all(c.worker_ready(role) for role in ("dbw", "llmw"))
    )


def _proxied(api: Api) -> bool:
    """Both web hosts answer through HAProxy (round robin: two answers in a row)."""
    return all(api.call("GET", "/health", timeout=5)[0] == 200 for _ in range(2))
