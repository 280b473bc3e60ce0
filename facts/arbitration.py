"""The confidence policy and the high-risk guard (docs/design.md §3)."""

from __future__ import annotations

from django.conf import settings

from facts.models import Fact


def first_mention_confidence(hint: float | None, *, hint_is_trusted: bool = True) -> float:
    """The confidence of a new statement: the first-mention value unless the caller gives one.

    An untrusted hint (a model's number next to a high-risk claim) may lower the
    first-mention value but never raise it: such a fact rises only by repetition
    (`reinforce`) or a person's confirmation, so one statement cannot pass the gate.
    """
    first: float = settings.MEMORY_FIRST_MENTION_CONFIDENCE
    if hint is None:
        return first
    clamped = min(max(float(hint), 0.0), 1.0)
    return clamped if hint_is_trusted else min(clamped, first)


def reinforce(confidence: float) -> float:
    """A repetition or confirmation closes part of the gap to 1.0."""
    step: float = settings.MEMORY_CONFIDENCE_STEP
    return round(confidence + (1.0 - confidence) * step, 4)


def is_high_risk(category: str) -> bool:
    return category in settings.MEMORY_HIGH_RISK_CATEGORIES


def touches_high_risk(category: str, current: Fact | None) -> bool:
    """True when a new statement in `category` is, or would replace, a high-risk fact."""
    return is_high_risk(category) or (current is not None and is_high_risk(current.category))


def needs_confirmation(*, old: Fact, new_category: str, new_confidence: float) -> bool:
    """True when a contradiction of `old` must wait for staff instead of overwriting it.

    A well-established fact (>= 0.90) is never overwritten by one new claim, and
    a change touching a high-risk category needs a confident claim.
    """
    threshold = settings.MEMORY_CONFIRMED_CONFIDENCE
    if old.confidence >= threshold:
        return True
    return touches_high_risk(new_category, old) and new_confidence < threshold
