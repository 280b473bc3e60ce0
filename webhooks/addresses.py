"""Where a webhook may be sent: the guard against server-side request forgery.

A tenant names the URL and the service POSTs to it from inside the operator's network, so
without a guard a tenant could make the service call the cloud metadata service
(169.254.169.254), the database's host, or anything else only the service can reach. A URL's
host must be a public address, or a name that resolves only to public addresses. The check
runs when an endpoint is registered (a 422 with the reason) and again at every delivery,
after resolving the name then (DNS can change after registration: rebinding); the delivery
connects to the address that was checked (`pin`), never to a second lookup's answer.

An operator whose receivers live on their own network allows them with
MEMORY_WEBHOOK_ALLOWED_NETWORKS (CIDRs) or, on a single host or in tests,
MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS (every address; the URL is then taken as before).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx
from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(Exception):
    """The URL's host is, or resolves to, an address the service does not send to (the message says why)."""


# Ranges the ipaddress predicates below do not name (or name as global in some Python releases).
_SPECIAL = [
    (ipaddress.ip_network("0.0.0.0/8"), "unspecified ('this network')"),
    (ipaddress.ip_network("100.64.0.0/10"), "shared (carrier-grade NAT, RFC 6598)"),
    (ipaddress.ip_network("192.0.0.0/24"), "special-purpose (RFC 6890)"),
    (ipaddress.ip_network("198.18.0.0/15"), "benchmarking (RFC 2544)"),
    (ipaddress.ip_network("fc00::/7"), "unique-local"),
    (ipaddress.ip_network("fec0::/10"), "site-local"),
]
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated IPv4-compatible form (::a.b.c.d)
# WHATWG's URL parser (and inet_aton) read a host whose last label is a number as an IPv4
# address in any base and any number of parts: 2130706433, 0x7f.1, 0177.0.0.1 are 127.0.0.1.
_NUMERIC_LABEL = re.compile(r"(0x[0-9a-f]*|[0-9]+)", re.IGNORECASE)


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 form carries and routes to (mapped, 6to4, NAT64, compatible)."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _NAT64 or (ip in _COMPATIBLE and int(ip) > 1):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def _kind(ip: Address) -> str | None:
    """Why `ip` is not a public address (None when it is one)."""
    if isinstance(ip, ipaddress.IPv6Address) and (inner := _embedded_ipv4(ip)) is not None:
        why = _kind(inner)
        return f"{why} ({inner} inside an IPv6 address)" if why else None
    for network, name in _SPECIAL:
        if ip.version == network.version and ip in network:
            return name
    if ip.is_unspecified:
        return "unspecified"
    if ip.is_loopback:
        return "loopback"
    if ip.is_link_local:
        return "link-local (where cloud metadata services answer)"
    if ip.is_multicast:
        return "multicast"
    if ip.is_reserved:
        return "reserved"
    if ip.is_private:
        return "private"
    if not ip.is_global:
        return "not a public address"
    return None


def _allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(n, strict=False) for n in settings.MEMORY_WEBHOOK_ALLOWED_NETWORKS]


def check_address(ip: Address, host: str) -> None:
    """Refuse `ip` (what `host` is or resolves to) unless it is public or the operator allowed it."""
    if settings.MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS:
        return
    candidates = [ip]
    if isinstance(ip, ipaddress.IPv6Address) and (inner := _embedded_ipv4(ip)) is not None:
        candidates.append(inner)
    if any(c.version == n.version and c in n for c in candidates for n in _allowed_networks()):
        return
    if why := _kind(ip):
        said = host if host == str(ip) else f"{host} ({ip})"
        raise AddressRefused(
            f"The webhook URL's host {said} is a {why} address; webhooks go to public addresses only "
            "(an operator allows their own network with MEMORY_WEBHOOK_ALLOWED_NETWORKS)."
        )


def _plain_literal(host: str) -> Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _literal(host: str) -> Address | None:
    """The address `host` spells, if it is one; a numeric spelling other than a.b.c.d is refused."""
    if (ip := _plain_literal(host)) is not None:
        return ip
    if "%" in host or _NUMERIC_LABEL.fullmatch(host.rstrip(".").rsplit(".", 1)[-1]):
        raise AddressRefused(
            f"The webhook URL's host {host} is an address in an unusual spelling; write an IPv4 "
            "address as four decimal numbers (a.b.c.d) or use a host name."
        )
    return None


def resolve(host: str, port: int) -> list[Address]:
    """Every address `host` resolves to, in the resolver's order. `localhost` and its
    subdomains are loopback by definition (RFC 6761), never asked of a resolver (some forward them)."""
    if host == "localhost" or host.endswith(".localhost"):
        return [ipaddress.IPv4Address("127.0.0.1")]
    try:
        answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise AddressRefused(f"The webhook URL's host {host} does not resolve ({exc}).") from exc
    found: list[Address] = []
    for *_, sockaddr in answers:
        ip = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
        if ip not in found:
            found.append(ip)
    if not found:
        raise AddressRefused(f"The webhook URL's host {host} resolves to no address.")
    return found


def _host_and_port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return (parts.hostname or "").rstrip("."), parts.port or (443 if parts.scheme == "https" else 80)


def check_url(url: str) -> None:
    """At registration: the URL's host is a public address or resolves only to public ones."""
    if settings.MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS:
        return
    host, port = _host_and_port(url)
    ip = _literal(host)
    if ip is not None:
        check_address(ip, host)
        return
    for found in resolve(host, port):
        check_address(found, host)


@dataclass(frozen=True)
class Target:
    """Where one delivery goes: `url` with the checked address as its host, the original
    host for the Host header, and the name TLS sends (SNI) and verifies the certificate for."""

    url: str
    host_header: str
    sni_hostname: str | None


def pin(url: str) -> Target:
    """At delivery: resolve the URL's host now, check every address it resolves to, and aim
    the request at the first (the one checked), keeping the URL's host for Host and TLS."""
    parsed = httpx.URL(url)
    host, port = _host_and_port(url)
    # With the guard off, an odd spelling is the resolver's to read (as before the guard).
    literal = _plain_literal(host) if settings.MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS else _literal(host)
    addresses = [literal] if literal is not None else resolve(host, port)
    for found in addresses:
        check_address(found, host)
    host_header = parsed.netloc.decode("ascii")
    if literal is not None:
        return Target(url=url, host_header=host_header, sni_hostname=None)
    pinned = str(parsed.copy_with(host=str(addresses[0])))
    return Target(url=pinned, host_header=host_header, sni_hostname=host if parsed.scheme == "https" else None)
