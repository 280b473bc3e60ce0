"""The per-user character budgets: profile facts and everything else are metered apart."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Sum
from django.db.models.functions import Length

from facts.models import PROFILE_CATEGORIES, Fact, MemoryUser
from memory_service.errors import Rejected


def same_meter(a: str, b: str) -> bool:
    """True when categories a and b draw on the same budget."""
    return (a in PROFILE_CATEGORIES) == (b in PROFILE_CATEGORIES)


def check_budget(user: MemoryUser, category: str, added_chars: int, freed_chars: int = 0) -> None:
    """Rejected when adding `added_chars` (after freeing `freed_chars`) would overrun the category's budget."""
    profile = category in PROFILE_CATEGORIES
    meter = Fact.objects.live().filter(user=user)
    meter = meter.filter(category__in=PROFILE_CATEGORIES) if profile else meter.exclude(category__in=PROFILE_CATEGORIES)
    used = meter.aggregate(n=Sum(Length("text")))["n"] or 0
    limit = settings.MEMORY_PROFILE_BUDGET_CHARS if profile else settings.MEMORY_OTHER_BUDGET_CHARS
    if used - freed_chars + added_chars > limit:
        rule = "profile_budget" if profile else "user_budget"
        kind = "profile" if profile else "non-profile"
        raise Rejected(
            rule,
            f"This user's live {kind} facts would use {used - freed_chars + added_chars} characters; "
            f"the budget is {limit}. Forget or expire facts first.",
        )
