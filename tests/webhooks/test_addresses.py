"""The webhook address guard (webhooks/addresses.py): with the default settings an endpoint
must be a public address, or a name resolving only to public ones, when it is registered and
again when each delivery is sent, and the delivery goes to the address that was checked.

No test resolves a real name: names of the reserved .test domain are answered from a table
(the `dns` fixture), addresses are literal, and every receiver listens on 127.0.0.1 (allowed
by the operator's settings where a test needs it). Runs on both engines (Makefile PG_TESTS).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
import ssl

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from core.errors import Rejected
from tests.webhooks.receiver import Receiver, Server, free_port
from webhooks import services
from webhooks.models import DeliveryState, WebhookDelivery, WebhookEndpoint
from webhooks.services import deliver_due

PUBLIC = "93.184.216.34"  # a global address; nothing is ever sent to it here


@pytest.fixture
def dns(monkeypatch):
    """`table[name]` lists the answers to successive lookups of `name` (the last one repeats);
    `asked` the names looked up. Literal addresses go to the real resolver (no network);
    any other name does not resolve."""
    real = socket.getaddrinfo
    table: dict[str, list[list[str]]] = {}
    asked: list[str] = []

    def getaddrinfo(host, port, *args, **kwargs):
        host = host.decode() if isinstance(host, bytes) else str(host)
        try:
            ipaddress.ip_address(host)
        except ValueError:
            pass
        else:
            return real(host, port, *args, **kwargs)
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        asked.append(host)
        answers = table[host]
        ips = answers.pop(0) if len(answers) > 1 else answers[0]
        return [
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (ip, int(port or 0), 0, 0))
            if ":" in ip
            else (socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, int(port or 0)))
            for ip in ips
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return table, asked


def _post(api, url: str):
    return api.post("/webhooks", {"url": url, "events": ["fact.created"]})


def _refused(response, *words: str) -> None:
    assert response.status_code == 422, response.content
    body = response.json()
    assert body["rule"] == "webhook_address", body
    for word in words:
        assert word in body["detail"], body
    assert not WebhookEndpoint.objects.exists()


# --- At registration ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://127.0.0.1:8080/hook", "loopback"),
        ("http://127.0.0.1./hook", "loopback"),
        ("http://127.9.9.9/hook", "loopback"),
        ("http://localhost:8080/hook", "loopback"),
        ("http://api.localhost/hook", "loopback"),
        ("http://10.1.2.3/hook", "private"),
        ("http://172.16.0.1/hook", "private"),
        ("http://192.168.1.10/hook", "private"),
        ("http://100.64.0.1/hook", "carrier-grade NAT"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://0.0.0.0:8000/hook", "unspecified"),
        ("http://224.0.0.1/hook", "multicast"),
        ("http://240.0.0.1/hook", "reserved"),
        ("http://255.255.255.255/hook", "reserved"),
        ("http://2130706433/hook", "unusual spelling"),
        ("http://0x7f.1/hook", "unusual spelling"),
        ("http://0x7f000001/hook", "unusual spelling"),
        ("http://0177.0.0.1/hook", "unusual spelling"),
        ("http://127.1/hook", "unusual spelling"),
        ("http://017700000001/hook", "unusual spelling"),
        ("http://3232235777/hook", "unusual spelling"),  # 192.168.1.1
    ],
)
def test_a_url_whose_host_is_not_a_public_address_is_a_422_with_the_reason(api, url, why):
    _refused(_post(api, url), why)


@pytest.mark.parametrize(
    ("host", "why"),
    [
        ("[::1]", "loopback"),
        ("[::]", "unspecified"),
        ("[fe80::1]", "link-local"),
        ("[fc00::1]", "unique-local"),
        ("[fd12:3456::1]", "unique-local"),
        ("[fec0::1]", "site-local"),
        ("[ff02::1]", "multicast"),
        ("[::ffff:127.0.0.1]", "loopback"),
        ("[::ffff:7f00:1]", "loopback"),
        ("[::ffff:169.254.169.254]", "link-local"),
        ("[::ffff:10.0.0.1]", "private"),
        ("[::127.0.0.1]", "loopback"),
        ("[64:ff9b::a9fe:a9fe]", "link-local"),  # NAT64 of 169.254.169.254
        ("[2002:a00:1::]", "private"),  # 6to4 of 10.0.0.1
        ("[2001:db8::1]", "private"),
    ],
)
def test_an_ipv6_host_that_is_not_public_or_carries_such_an_ipv4_address_is_refused(alice, host, why):
    # The API's schema takes no IPv6 literal; the service refuses them anyway, for any caller.
    with pytest.raises(Rejected) as refused:
        services.endpoint_create(tenant=alice.tenant, url=f"http://{host}:8080/hook", events=["fact.created"])

    assert refused.value.rule == "webhook_address" and why in refused.value.detail
    assert not WebhookEndpoint.objects.exists()


def test_a_public_address_is_taken_without_any_lookup(api, alice, dns):
    table, asked = dns

    assert _post(api, f"http://{PUBLIC}:8443/hook").status_code == 201
    services.endpoint_create(tenant=alice.tenant, url="https://[2606:4700::1111]/hook", events=["fact.created"])
    assert WebhookEndpoint.objects.count() == 2 and asked == []


def test_a_name_is_refused_when_any_address_it_resolves_to_is_not_public(api, dns):
    table, _ = dns
    table["hooks.example.test"] = [[PUBLIC, "10.0.0.7"]]
    table["v6.example.test"] = [["fd00::7"]]
    table["public.example.test"] = [[PUBLIC]]

    _refused(_post(api, "https://hooks.example.test/hook"), "hooks.example.test (10.0.0.7)", "private")
    _refused(_post(api, "https://v6.example.test/hook"), "unique-local")
    assert _post(api, "https://public.example.test/hook").status_code == 201


def test_a_name_that_does_not_resolve_is_a_422(api, dns):
    _refused(_post(api, "https://nowhere.example.test/hook"), "does not resolve")


def test_the_operator_allows_networks_of_their_own_and_only_those(api, settings):
    settings.MEMORY_WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8", "10.20.0.0/16"]

    assert _post(api, "http://127.0.0.1:9/hook").status_code == 201
    assert _post(api, "http://10.20.3.4/hook").status_code == 201
    response = _post(api, "http://169.254.169.254/latest/meta-data/")
    assert response.status_code == 422 and response.json()["rule"] == "webhook_address"
    assert _post(api, "http://10.21.0.1/hook").status_code == 422
    assert WebhookEndpoint.objects.count() == 2


def test_localhost_is_loopback_without_a_lookup_and_allowed_with_loopback(api, dns, settings, receiver):
    _, asked = dns
    _refused(_post(api, "http://api.localhost/hook"), "api.localhost (127.0.0.1)", "loopback")
    settings.MEMORY_WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    rec, server = receiver
    rec.secret = _post(api, f"http://localhost:{server.port}/hook").json()["secret"]
    api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})

    assert deliver_due().delivered == 1
    assert rec.hosts == [f"localhost:{server.port}"] and asked == []


# --- At delivery ----------------------------------------------------------------------------


def test_a_name_that_points_at_a_refused_address_since_registration_is_not_contacted(api, dns, receiver):
    # DNS rebinding: public when registered, loopback (where the receiver listens) when sent.
    table, _ = dns
    rec, server = receiver
    table["rebind.example.test"] = [[PUBLIC], ["127.0.0.1"]]
    assert _post(api, f"http://rebind.example.test:{server.port}/hook").status_code == 201
    api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})

    sweep = deliver_due()

    assert sweep.failed == 1 and rec.attempts == []
    row = WebhookDelivery.objects.get()
    assert row.state == DeliveryState.QUEUED and row.last_status is None
    assert "Not sent" in row.last_error and "loopback" in row.last_error


def test_an_endpoint_stored_before_the_guard_is_not_contacted(api, alice, receiver):
    rec, server = receiver
    WebhookEndpoint.objects.create(tenant=alice.tenant, url=server.url, events=["fact.created"], secret="whsec_AA==")
    api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})

    deliver_due()

    assert rec.attempts == []
    assert "loopback" in WebhookDelivery.objects.get().last_error


def test_a_delivery_goes_to_the_address_it_checked_with_the_urls_host_header(api, dns, receiver, settings):
    # The second lookup of the delivery would answer an address nothing listens on (and the
    # guard refuses): a sender that checked one answer and connected by name would fail.
    settings.MEMORY_WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    table, asked = dns
    rec, server = receiver
    table["pinned.example.test"] = [["127.0.0.1"], ["127.0.0.1"], ["127.0.0.2"]]
    rec.secret = _post(api, f"http://pinned.example.test:{server.port}/hook").json()["secret"]
    api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})

    sweep = deliver_due()

    assert sweep.delivered == 1 and len(rec.accepted) == 1
    assert rec.hosts == [f"pinned.example.test:{server.port}"]
    assert asked == ["pinned.example.test", "pinned.example.test"]  # at registration, at delivery


def test_a_redirect_is_a_failed_delivery_and_is_not_followed(api, settings):
    settings.MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    target, redirecting = Receiver(), Receiver()
    target_server, server = Server(target), Server(redirecting)
    try:
        redirecting.redirect_to = target_server.url
        _post(api, server.url)
        api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})

        deliver_due()
    finally:
        server.stop()
        target_server.stop()

    row = WebhookDelivery.objects.get()
    assert (row.state, row.last_status) == (DeliveryState.QUEUED, 302)
    assert f"redirect (to {target_server.url}) is not followed" in row.last_error
    assert len(redirecting.attempts) == 1 and target.attempts == []


def _tls_for(name: str, tmp_path) -> tuple[ssl.SSLContext, str]:
    """A server context with a certificate for `name` signed by a throwaway CA, and the CA's file."""
    now = dt.datetime.now(dt.UTC)

    def cert(subject: str, key, issuer: str, issuer_key, ca: bool) -> x509.Certificate:
        builder = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
            .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(hours=1))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        )
        if ca:
            builder = builder.add_extension(
                x509.KeyUsage(True, False, False, False, False, True, True, False, False), critical=True
            )
        else:
            builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        return builder.sign(issuer_key, hashes.SHA256())

    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_cert = cert("test CA", ca_key, "test CA", ca_key, True)
    leaf = cert(name, key, "test CA", ca_key, False)
    pem = serialization.Encoding.PEM
    (tmp_path / "ca.pem").write_bytes(ca_cert.public_bytes(pem))
    (tmp_path / "leaf.pem").write_bytes(leaf.public_bytes(pem))
    (tmp_path / "leaf.key").write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(tmp_path / "leaf.pem", tmp_path / "leaf.key")
    return context, str(tmp_path / "ca.pem")


def test_an_https_delivery_to_the_checked_address_sends_and_verifies_the_urls_name(
    api, dns, settings, tmp_path, monkeypatch
):
    import certifi

    settings.MEMORY_WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    table, _ = dns
    table["secure.example.test"] = [["127.0.0.1"]]
    context, ca_file = _tls_for("secure.example.test", tmp_path)
    names: list[str | None] = []
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    monkeypatch.setattr(certifi, "where", lambda: ca_file)  # the delivery client trusts the test CA
    rec = Receiver()
    server = Server(rec, tls=context)
    try:
        rec.secret = _post(api, f"https://secure.example.test:{server.port}/hook").json()["secret"]
        api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})

        sweep = deliver_due()
    finally:
        server.stop()

    assert sweep.delivered == 1, WebhookDelivery.objects.get().last_error
    assert names == ["secure.example.test"]  # SNI: the URL's name, not the address connected to
    assert rec.hosts == [f"secure.example.test:{server.port}"]


def test_the_guard_is_off_when_the_operator_allows_private_networks(api, settings, receiver):
    settings.MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    rec, server = receiver
    rec.secret = _post(api, server.url).json()["secret"]
    api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})

    assert deliver_due().delivered == 1


def test_the_url_in_a_refusal_at_delivery_is_checked_at_each_attempt(api, dns, settings):
    # A name fixed after a refused attempt is sent at the next attempt (the refusal is not final).
    settings.MEMORY_WEBHOOK_BACKOFF_SECONDS = 0.01
    settings.MEMORY_WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    table, _ = dns
    port = free_port()
    table["moving.example.test"] = [["127.0.0.1"], ["10.0.0.1"], ["127.0.0.1"]]
    rec = Receiver()
    rec.secret = _post(api, f"http://moving.example.test:{port}/hook").json()["secret"]
    server = Server(rec, port)
    try:
        api.post("/users/ana/facts", {"text": "Ana keeps bees on her roof"})
        deliver_due()
        assert "private" in WebhookDelivery.objects.get().last_error and rec.attempts == []
        WebhookDelivery.objects.update(next_attempt_at=WebhookDelivery.objects.get().created_at)
        deliver_due()
    finally:
        server.stop()

    assert WebhookDelivery.objects.get().state == DeliveryState.DELIVERED and len(rec.accepted) == 1
