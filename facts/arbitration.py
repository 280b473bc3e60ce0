"""The confidence policy and the high-risk guard (docs/design.md §3)."""

from __future__ import annotations

from django.conf import settings

from facts.models import Fact


def first_mention_confidence(hint: float | None) -> float:
    if hint is None:
        return settings.MEMORY_FIRST_MENTION_CONFIDENCE
    return min(max(float(hint), 0.0), 1.0)


def reinforce(confidence: float) -> float:
    """A repetition or confirmation closes part of the gap to 1.0."""
    return round(confidence + (1.0 - confidence) * settings.MEMORY_CONFIDENCE_STEP, 4)


def is_high_risk(category: str) -> bool:
    return category in settings.MEMORY_HIGH_RISK_CATEGORIES


def needs_confirmation(*, old: Fact, new_category: str, new_confidence: float) -> bool:
    """True when a contradiction of `old` must wait for staff instead of overwriting it.

    A well-established fact (>= 0.90) is never overwritten by one new claim, and
    a change touching a high-risk category needs a confident claim.
    """
    threshold = settings.MEMORY_CONFIRMED_CONFIDENCE
    if old.confidence >= threshold:
        return True
    touches_high_risk = is_high_risk(old.category) or is_high_risk(new_category)
    return touches_high_risk and new_confidence < threshold
