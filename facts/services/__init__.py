"""The write path (docs/design.md §3). Every change to a fact goes through these functions.

Each public write is atomic, records FactHistory, bumps the user's
facts_version and announces the touched fact ids after commit (facts.signals).

The modules, by what they hold: actors (who changed it), users (memory users
and the client-id rule), normalise (key, category, text hash), changes (audit
entry, announcement), budgets, store (insert or de-duplicate or arbitrate),
lifecycle (supersede, expire, forget), pending (the confirmation queue) and
turns (submitting and retrying turns). This package re-exports the fact and
user services so callers write `services.fact_store(...)`; `turns` is imported
as `facts.services.turns` because it queues the extraction chain
(facts.extraction.chain), whose apply step writes through this package.
"""

from __future__ import annotations

from facts.services.actors import SYSTEM, Actor
from facts.services.changes import announcing_once
from facts.services.lifecycle import (
    fact_expire,
    fact_forget,
    fact_supersede,
    facts_forget,
    facts_forget_by_key,
    turns_withdraw,
)
from facts.services.normalise import normalise_category, normalise_key, text_hash
from facts.services.pending import pending_approve, pending_reject, supersede_target
from facts.services.store import StoreResult, fact_get, fact_store, facts_store_for_user
from facts.services.users import ID_MAX, holding, lock_user, memory_user_get, memory_user_get_or_create, validate_id

__all__ = [
    "ID_MAX",
    "SYSTEM",
    "Actor",
    "announcing_once",
    "StoreResult",
    "fact_expire",
    "fact_forget",
    "fact_get",
    "fact_store",
    "fact_supersede",
    "facts_forget",
    "facts_forget_by_key",
    "turns_withdraw",
    "facts_store_for_user",
    "holding",
    "lock_user",
    "memory_user_get",
    "memory_user_get_or_create",
    "normalise_category",
    "normalise_key",
    "pending_approve",
    "pending_reject",
    "supersede_target",
    "text_hash",
    "validate_id",
]
