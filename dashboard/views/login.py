"""Staff sign-in, throttled: too many wrong passwords for one account, or from one address, stop it.

Failures are counted in the API rate limits' fixed windows (core.ratelimit), so
every server process sees the same counts. Each attempt is counted before its password is
checked, in one atomic step, and checked only when its number is within the limit: however
many arrive at once, at most the limit are checked. Only failures stay counted: a right
password (and an attempt refused unchecked) is taken back. Once a count is full even the
right password is refused (HTTP 429) until its window ends, without being checked. Settings
MEMORY_LOGIN_FAILURES_PER_ACCOUNT and MEMORY_LOGIN_FAILURES_PER_ADDRESS; docs/deployment.md.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
from functools import lru_cache
from typing import Any, NoReturn

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.http import HttpRequest, HttpResponse
from django.views.decorators.debug import sensitive_variables

from core.ratelimit import Rate, Taken, give_back, parse_rate, take_in_window

THROTTLED = {
    "account": "Too many failed sign-ins for this account; try again in {wait}.",
    "address": "Too many failed sign-ins from this address; try again in {wait}.",
}


class LoginForm(AuthenticationForm):
    """Django's sign-in form, refused while the account or the client address is throttled."""

    retry_after: int | None = None  # seconds, once refused as throttled
    # Django's form allows None; both sign-in views (LoginView, the admin's) always pass it.
    request: HttpRequest

    @sensitive_variables()
    def clean(self) -> dict[str, Any]:
        username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if username is None or not password:
            return super().clean()
        # This attempt, counted as a failure in every limit before its password is checked.
        taken: list[Taken] = []
        failed = False
        try:
            for scope, name, rate in _failure_counts(self.request, username):
                taken.append(take_in_window(name, rate))
                if taken[-1].used > rate.requests:
                    self._refuse(scope, taken[-1].retry_after)
            try:
                return super().clean()
            except ValidationError:
                # user_cache is set only when the password was right: a right password that is
                # refused for another reason (inactive; not is_staff, at the admin) is no failure.
                failed = self.user_cache is None
                raise
        finally:
            if not failed:
                for attempt in taken:
                    give_back(attempt)

    def _refuse(self, scope: str, retry_after: int) -> NoReturn:
        self.retry_after = retry_after
        wait = math.ceil(retry_after / 60)
        message = THROTTLED[scope].format(wait=f"{wait} minute{'s' if wait != 1 else ''}")
        raise ValidationError(message, code="throttled")


class AdminLoginForm(LoginForm, AdminAuthenticationForm):
    """The admin's sign-in form with the same counts (memory_service/urls.py sets it), so
    /admin/login/ is no way around the dashboard's limits."""


class LoginView(auth_views.LoginView):
    template_name = "dashboard/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if isinstance(form, LoginForm) and form.retry_after is not None:
            response.status_code = 429
            response["Retry-After"] = str(form.retry_after)
        return response


def _failure_counts(request: HttpRequest, username: str) -> list[tuple[str, str, Rate]]:
    """(scope, counter name, rate) of each limit that is on. Names are hashed: user names
    and addresses may be personal data, and the counters may live in Redis."""
    wanted = [
        # Case-folded: a user name differing only in case counts for the same account.
        ("account", settings.MEMORY_LOGIN_FAILURES_PER_ACCOUNT, username.casefold()),
        ("address", settings.MEMORY_LOGIN_FAILURES_PER_ADDRESS, client_address(request)),
    ]
    counts = []
    for scope, setting, subject in wanted:
        rate = parse_rate(setting)
        if rate is not None:
            digest = hashlib.sha256(subject.encode()).hexdigest()[:32]
            counts.append((scope, f"login-fail:{scope}:{digest}", rate))
    return counts


def client_address(request: HttpRequest) -> str:
    """The address a sign-in is counted against.

    The peer's address, unless the peer is a trusted proxy (MEMORY_TRUSTED_PROXIES, read from
    WEB_FORWARDED_ALLOW_IPS like gunicorn): then the X-Forwarded-For entry that proxy added.
    Behind a proxy every peer address is the proxy's, and counting that would let 50 wrong
    guesses by anyone lock every staff member out. Entries further left were written by the
    client and are trusted only while the hop that added them is a trusted proxy too. An IPv6
    address counts by its /64, the block one subscriber gets.
    """
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    address: str = request.META.get("REMOTE_ADDR", "")
    while hops and _is_trusted_proxy(address):
        address = hops.pop()
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:100]  # not an IP (a socket path, a proxy's odd entry): counted as written
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _is_trusted_proxy(address: str) -> bool:
    networks = _trusted_networks(tuple(settings.MEMORY_TRUSTED_PROXIES))
    if networks is None:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


@lru_cache(maxsize=4)
def _trusted_networks(entries: tuple[str, ...]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network] | None:
    """The trusted proxies as networks; None when "*" trusts every peer."""
    if "*" in entries:
        return None
    try:
        return [ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry.strip()]
    except ValueError as exc:
        raise ImproperlyConfigured(f"WEB_FORWARDED_ALLOW_IPS: {exc}") from exc
