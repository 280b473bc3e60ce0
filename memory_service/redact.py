"""Credentials out of URLs before a URL is shown (the health route, error texts).

An operator may put credentials in a URL setting (`OPENAI_BASE_URL=http://user:pw@host/v1`,
`...?api_key=...`); the URL itself is worth showing, the credentials never are. The user and
password of the userinfo and the values of query (and fragment) parameters named like a
secret become `***`; the rest is kept as written, so the URL still says where it points.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus, urlsplit, urlunsplit

MASK = "***"
# Parameter names that carry a secret: api_key, apikey, access_token, client_secret,
# password, auth, X-Amz-Signature, and Azure's `sig`.
SECRET_NAME = re.compile(r"key|token|secret|passw|pwd|auth|credential|signature|^sig$", re.IGNORECASE)
# A URL inside free text (an error message): a scheme, "://", then up to a blank or a quote.
URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>]+")


def mask_url(url: str) -> str:
    """`http://u:p@host/v1?api_key=k&region=eu` -> `http://***:***@host/v1?api_key=***&region=eu`."""
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. a bad IPv6 host: nothing of it is shown
        return MASK
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        netloc = f"{MASK}:{MASK}@{host}" if ":" in userinfo else f"{MASK}@{host}"
    return urlunsplit(
        (parts.scheme, netloc, parts.path, _mask_parameters(parts.query), _mask_parameters(parts.fragment))
    )


def mask_urls(text: str) -> str:
    """`text` with every URL in it masked as mask_url does."""
    return URL_IN_TEXT.sub(lambda match: mask_url(match.group()), text)


def _mask_parameters(query: str) -> str:
    pairs = []
    for pair in query.split("&"):
        name, equals, _value = pair.partition("=")
        pairs.append(f"{name}={MASK}" if equals and SECRET_NAME.search(unquote_plus(name)) else pair)
    return "&".join(pairs)
