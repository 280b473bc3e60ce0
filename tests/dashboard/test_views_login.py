"""Staff sign-in throttling: failed passwords count per account and per client address.

Each test counts in its own var folder (a fresh counters file), and in day-long windows so
a test cannot straddle a reset (except at midnight UTC).
"""

from __future__ import annotations

import re
import threading

import pytest
from django.contrib.auth.backends import ModelBackend
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.facts.dashboard_helpers import PASSWORD, staff_of

WRONG = "not the password"
THROTTLED_ACCOUNT = re.compile(r"Too many failed sign-ins for this account; try again in \d+ minutes?")
THROTTLED_ADDRESS = re.compile(r"Too many failed sign-ins from this address; try again in \d+ minutes?")


@pytest.fixture
def limits(settings, tmp_path):
    """Three failures per account, and (unless a test lowers it) many per address."""
    settings.VAR_DIR = tmp_path
    settings.CACHES = {name: cache for name, cache in settings.CACHES.items() if name != "ratelimit"}
    settings.MEMORY_LOGIN_FAILURES_PER_ACCOUNT = "3/day"
    settings.MEMORY_LOGIN_FAILURES_PER_ADDRESS = "100/day"
    return settings


@pytest.fixture
def staff(db, alice):
    return staff_of(alice.tenant, "ines", password=PASSWORD)


def _sign_in(client: Client, username: str, password: str, **headers):
    return client.post(reverse("login"), {"username": username, "password": password}, **headers)


def _signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def _refused(r, pattern: re.Pattern) -> None:
    assert r.status_code == 429, r.content.decode()
    assert pattern.search(r.content.decode()), r.content.decode()
    assert 1 <= int(r["Retry-After"]) <= 86400


def test_it_refuses_the_right_password_once_the_account_has_too_many_failures(limits, staff):
    client = Client()
    for _ in range(3):
        r = _sign_in(client, "ines", WRONG)
        assert r.status_code == 200 and "correct username and password" in r.content.decode()
    r = _sign_in(client, "ines", PASSWORD)
    _refused(r, THROTTLED_ACCOUNT)
    assert not _signed_in(client)
    # The account is throttled wherever the attempt comes from.
    _refused(_sign_in(Client(REMOTE_ADDR="198.51.100.7"), "ines", PASSWORD), THROTTLED_ACCOUNT)


def test_it_logs_in_below_the_limit_and_does_not_count_successes(limits, staff):
    client = Client()
    for _ in range(4):
        assert _sign_in(client, "ines", PASSWORD).status_code == 302
        client.post(reverse("logout"))
    for _ in range(2):
        assert _sign_in(client, "ines", WRONG).status_code == 200
    r = _sign_in(client, "ines", PASSWORD)
    assert r.status_code == 302 and r["Location"] == reverse("dashboard-home")
    assert _signed_in(client)


def test_it_counts_failures_per_address_across_accounts(limits, staff):
    limits.MEMORY_LOGIN_FAILURES_PER_ADDRESS = "3/day"
    attacker = Client(REMOTE_ADDR="203.0.113.9")
    for name in ("ines", "nobody", "someone-else"):
        assert _sign_in(attacker, name, WRONG).status_code == 200
    _refused(_sign_in(attacker, "ines", PASSWORD), THROTTLED_ADDRESS)
    assert not _signed_in(attacker)
    # Ines has one failure of her three: from her own address she still signs in.
    colleague = Client(REMOTE_ADDR="203.0.113.10")
    assert _sign_in(colleague, "ines", PASSWORD).status_code == 302 and _signed_in(colleague)


def test_behind_a_trusted_proxy_it_counts_the_forwarded_client(limits, staff):
    limits.MEMORY_LOGIN_FAILURES_PER_ADDRESS = "2/day"
    proxy = Client(REMOTE_ADDR="127.0.0.1")  # the proxy on this host (WEB_FORWARDED_ALLOW_IPS)
    for name in ("a", "b"):
        # The client sent its own X-Forwarded-For; the proxy appended the address it saw.
        assert _sign_in(proxy, name, WRONG, HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.9").status_code == 200
    _refused(_sign_in(proxy, "ines", PASSWORD, HTTP_X_FORWARDED_FOR="10.9.9.8, 203.0.113.9"), THROTTLED_ADDRESS)
    # Everyone else behind the same proxy still signs in.
    assert _sign_in(proxy, "ines", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.10").status_code == 302


def test_it_ignores_forwarded_addresses_from_an_untrusted_peer(limits, staff):
    limits.MEMORY_LOGIN_FAILURES_PER_ADDRESS = "2/day"
    direct = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(2):
        assert _sign_in(direct, f"u{n}", WRONG, HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code == 200
    _refused(_sign_in(direct, "ines", PASSWORD, HTTP_X_FORWARDED_FOR="10.0.0.99"), THROTTLED_ADDRESS)


def test_it_counts_an_ipv6_client_by_its_64_prefix(limits, staff):
    limits.MEMORY_LOGIN_FAILURES_PER_ADDRESS = "2/day"
    for n in range(2):
        assert _sign_in(Client(REMOTE_ADDR=f"2001:db8:1:2::{n + 1}"), f"u{n}", WRONG).status_code == 200
    _refused(_sign_in(Client(REMOTE_ADDR="2001:db8:1:2:ffff::9"), "ines", PASSWORD), THROTTLED_ADDRESS)
    assert _sign_in(Client(REMOTE_ADDR="2001:db8:1:3::1"), "ines", PASSWORD).status_code == 302


def test_the_admin_login_counts_and_refuses_alike(limits, alice):
    staff_of(None, "root", superuser=True, password=PASSWORD)
    client = Client()
    for _ in range(3):
        assert client.post("/admin/login/", {"username": "root", "password": WRONG}).status_code == 200
    r = client.post("/admin/login/", {"username": "root", "password": PASSWORD})
    assert THROTTLED_ACCOUNT.search(r.content.decode()) and not _signed_in(client)
    _refused(_sign_in(client, "root", PASSWORD), THROTTLED_ACCOUNT)


def test_off_turns_the_limits_off(limits, staff):
    limits.MEMORY_LOGIN_FAILURES_PER_ACCOUNT = "off"
    limits.MEMORY_LOGIN_FAILURES_PER_ADDRESS = "off"
    client = Client()
    for _ in range(4):
        assert _sign_in(client, "ines", WRONG).status_code == 200
    assert _sign_in(client, "ines", PASSWORD).status_code == 302


@pytest.mark.django_db(transaction=True)
def test_parallel_wrong_passwords_past_the_limit_are_refused_unchecked(limits, alice, monkeypatch):
    """40 wrong passwords at once against a limit of 10: exactly 10 are checked, 30 answer 429.
    Looking at the count before the (slow, real) password check and adding to it after let
    every thread that looked before the first one finished through."""
    limits.MEMORY_LOGIN_FAILURES_PER_ACCOUNT = "10/day"
    staff_of(alice.tenant, "ines", password=PASSWORD)
    checked, lock = [], threading.Lock()
    authenticate = ModelBackend.authenticate

    def counted(self, request, username=None, password=None, **kwargs):
        with lock:
            checked.append(username)
        return authenticate(self, request, username=username, password=password, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counted)
    start = threading.Barrier(40)
    statuses: list[int] = []

    def attempt() -> None:
        client = Client()
        try:
            start.wait()
            status = _sign_in(client, "ines", WRONG).status_code
            with lock:
                statuses.append(status)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(checked) == 10, len(checked)
    assert sorted(statuses) == [200] * 10 + [429] * 30
    # Only the 10 checked failures stay counted: the account is full, the next try refused.
    _refused(_sign_in(Client(), "ines", PASSWORD), THROTTLED_ACCOUNT)
