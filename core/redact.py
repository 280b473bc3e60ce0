"""Credentials out of URLs before a URL is shown (the health route, error texts).

An operator may put credentials in a URL setting (`OPENAI_BASE_URL=http://user:pw@host/v1`,
`...?api_key=...`); the URL itself is worth showing, the credentials never are. The userinfo
(all before the URL's last `@`) and the values of query (and fragment) parameters named like
a secret become `***`; the rest is kept as written, so the URL still says where it points.

A setting is masked as what it is: its value is parsed whole, whatever characters its
password holds (a quote, a blank, `@`, `/`). Only free text (an error message) is searched
for URLs, and a URL of a setting is replaced there before that search (issue 33: a
password with a `'` cut the search short and showed the rest).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote_plus, urlsplit

from django.conf import settings

MASK = "***"
# Parameter names that carry a secret: api_key, apikey, access_token, client_secret,
# password, auth, X-Amz-Signature, and Azure's `sig`.
SECRET_NAME = re.compile(r"key|token|secret|passw|pwd|auth|credential|signature|^sig$", re.IGNORECASE)
# A URL inside free text (an error message): a scheme, "://", then up to a blank or a quote. The
# scheme is its run's first letter on: the match starts only where a run of scheme characters
# starts, its digits and signs before the letter kept ("1http://..." masks "http://..."). Started
# at every letter, a run of 20,000 letters with no "://" was read to its end from each (quadratic:
# 5,000 letters took 0.05 s, 10,000 0.15 s, 20,000 0.7 s). Only the health route reads it.
URL_IN_TEXT = re.compile(r"(?<![A-Za-z0-9+.-])[0-9+.-]*+(?P<url>[A-Za-z][A-Za-z0-9+.-]*+://[^\s'\"<>]+)")
_PARAMETER_BREAK = re.compile(r"([&#])")


def mask_url(url: str) -> str:
    """`http://u:p@host/v1?api_key=k&region=eu` -> `http://***:***@host/v1?api_key=***&region=eu`."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        return url if "@" not in url else MASK  # not a URL; with an "@" it may hold a credential
    try:
        urlsplit(url)
    except ValueError:  # e.g. a bad IPv6 host: nothing of it is shown
        return MASK
    # The userinfo runs to the last "@": a password may hold "@", "/", "?" or "#" unencoded.
    # An "@" in the path or query hides more than the credentials, never less.
    userinfo, at, rest = rest.rpartition("@")
    if at:
        rest = (f"{MASK}:{MASK}@" if ":" in userinfo else f"{MASK}@") + rest
    address, mark, parameters = _split_parameters(rest)
    return f"{scheme}://{address}{mark}{_mask_parameters(parameters)}"


def mask_urls(text: str) -> str:
    """`text` with every URL in it masked as mask_url does."""
    return URL_IN_TEXT.sub(
        lambda found: found.group()[: found.start("url") - found.start()] + mask_url(found["url"]), text
    )


def mask_text(text: str, urls: Iterable[str]) -> str:
    """`text` with each of `urls` (settings as set) masked whole wherever it appears, then
    every other URL in it masked as mask_urls does."""
    for url in sorted({url for url in urls if url}, key=len, reverse=True):
        text = text.replace(url, mask_url(url))
    return mask_urls(text)


def url_settings() -> list[str]:
    """The value of every setting that is a URL (OPENAI_BASE_URL, CELERY_BROKER_URL, ...), as set."""
    values = (getattr(settings, name, None) for name in dir(settings) if name.isupper())
    return [value for value in values if isinstance(value, str) and "://" in value]


def _split_parameters(rest: str) -> tuple[str, str, str]:
    """host and path; the "?" or "#" that ends them; the parameters after it."""
    ends = [index for index in (rest.find("?"), rest.find("#")) if index != -1]
    if not ends:
        return rest, "", ""
    end = min(ends)
    return rest[:end], rest[end], rest[end + 1 :]


def _mask_parameters(parameters: str) -> str:
    # A secret's value runs on through a "&" or "#" not followed by a parameter of its own
    # ("api_key=a&b#c" hides "a", "b" and "c"): the value held those characters unencoded.
    pieces, in_secret = [], False
    for piece in _PARAMETER_BREAK.split(parameters):
        if piece in ("&", "#"):
            pieces.append(piece)
            continue
        name, equals, _value = piece.partition("=")
        if equals:
            in_secret = bool(SECRET_NAME.search(unquote_plus(name)))
            pieces.append(f"{name}={MASK}" if in_secret else piece)
        else:
            pieces.append(MASK if in_secret and piece else piece)
    return "".join(pieces)
