"""The per-user character budgets: profile facts and everything else are metered apart.

A fact draws on its budget with its text and its `value_json`, counted as the characters of
that value's JSON text (`value_json_chars`): a client's structured value is stored and served
like its text, so it is metered like it, and each value has a size cap of its own.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.db.models import QuerySet, Sum
from django.db.models.functions import Length

from core.errors import Rejected
from facts.models import PROFILE_CATEGORIES, Fact, MemoryUser


def same_meter(a: str, b: str) -> bool:
    """True when categories a and b draw on the same budget."""
    return (a in PROFILE_CATEGORIES) == (b in PROFILE_CATEGORIES)


def value_json_chars(value: Any) -> int:
    """The characters of `value` as JSON text, non-ASCII escaped (so also its bytes); 0 for none.
    The same text Django writes for a JSONField on SQLite."""
    return 0 if value is None else len(json.dumps(value))


def fact_chars(fact: Fact) -> int:
    """What a stored fact draws on its budget: its text and its value_json."""
    return len(fact.text) + value_json_chars(fact.value_json)


def check_value_json(value: Any) -> None:
    """Rejected when a value_json is over MEMORY_VALUE_JSON_MAX_BYTES."""
    size, cap = value_json_chars(value), settings.MEMORY_VALUE_JSON_MAX_BYTES
    if size > cap:
        raise Rejected(
            "value_json_too_large", f"value_json is {size} bytes as JSON; at most {cap} (MEMORY_VALUE_JSON_MAX_BYTES)."
        )


def _used(meter: QuerySet[Any]) -> int:
    text = meter.aggregate(n=Sum(Length("text")))["n"] or 0
    # Read back and measured here rather than in SQL: SQLite keeps the JSON text Django wrote,
    # PostgreSQL's jsonb prints its own; one measure for both engines. The budget bounds it.
    values = meter.filter(value_json__isnull=False).values_list("value_json", flat=True)
    return text + sum(value_json_chars(v) for v in values)


def check_budget(user: MemoryUser, category: str, added_chars: int, freed_chars: int = 0) -> None:
    """Rejected when adding `added_chars` (after freeing `freed_chars`) would overrun the category's budget."""
    profile = category in PROFILE_CATEGORIES
    meter = Fact.objects.live().filter(user=user)
    meter = meter.filter(category__in=PROFILE_CATEGORIES) if profile else meter.exclude(category__in=PROFILE_CATEGORIES)
    used = _used(meter)
    limit = settings.MEMORY_PROFILE_BUDGET_CHARS if profile else settings.MEMORY_OTHER_BUDGET_CHARS
    if used - freed_chars + added_chars > limit:
        rule = "profile_budget" if profile else "user_budget"
        kind = "profile" if profile else "non-profile"
        raise Rejected(
            rule,
            f"This user's live {kind} facts would use {used - freed_chars + added_chars} characters "
            f"(text and value_json); the budget is {limit}. Forget or expire facts first.",
        )
