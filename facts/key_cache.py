"""A short-lived, in-process cache of API-key lookups, keyed by the key's hash.

Every API request authenticates; the lookup is one indexed query, and this
saves even that for a key seen in the last MEMORY_API_KEY_CACHE_SECONDS.
Saving a key (`ApiKey.revoke()`, a scope change) or its tenant (e.g.
`allow_sensitive_context`) drops it here at once; other server processes, and
changes made with a queryset `update()`, take effect within that TTL
(docs/api.md, "Auth"). Unknown keys are not cached, so random guesses cannot
fill the memory.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from facts.models import ApiKey, Tenant, hash_api_key

MAX_ENTRIES = 10_000
_keys: dict[str, tuple[float, ApiKey]] = {}  # key hash -> (monotonic time looked up, key)


def key_for(raw_key: str) -> ApiKey | None:
    """The usable key for a presented secret, from the cache while it is fresh."""
    ttl = settings.MEMORY_API_KEY_CACHE_SECONDS
    if ttl <= 0 or not raw_key or len(raw_key) > 200:
        return ApiKey.objects.for_key(raw_key)
    digest = hash_api_key(raw_key)
    now = time.monotonic()
    hit = _keys.get(digest)
    if hit is not None and now - hit[0] < ttl:
        return hit[1]
    key = ApiKey.objects.for_key(raw_key)
    if key is None:
        _keys.pop(digest, None)
        return None
    if len(_keys) >= MAX_ENTRIES:
        _keys.clear()
    _keys[digest] = (now, key)
    return key


def forget(key_hash: str) -> None:
    _keys.pop(key_hash, None)


@receiver([post_save, post_delete], sender=ApiKey, dispatch_uid="key_cache_key_saved")
def _key_saved(sender: object, instance: ApiKey, **kwargs: Any) -> None:
    forget(instance.key_hash)


@receiver([post_save, post_delete], sender=Tenant, dispatch_uid="key_cache_tenant_saved")
def _tenant_saved(sender: object, instance: Tenant, **kwargs: Any) -> None:
    for digest, (_, key) in list(_keys.items()):
        if key.tenant_id == instance.pk:
            _keys.pop(digest, None)
