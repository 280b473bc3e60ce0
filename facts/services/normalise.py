"""Canonical forms of a fact's key, category and text, shared by every write."""

from __future__ import annotations

import hashlib
import re

from facts.models import Category

_SPACE = re.compile(r"\s+")
_KEY_OK = re.compile(r"[^a-z0-9_.-]+")


def normalise_key(key: str | None) -> str:
    return _KEY_OK.sub("_", (key or "").strip().lower()).strip("_")[:64]


def normalise_category(category: str | None) -> str:
    return category if category in Category.values else Category.OTHER


def text_hash(text: str) -> str:
    folded = _SPACE.sub(" ", text.strip().casefold()).rstrip(".!? ")
    return hashlib.sha1(folded.encode()).hexdigest()
