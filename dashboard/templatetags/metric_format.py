"""Display filters for the metrics page: percentages, durations, missing values."""

from __future__ import annotations

from django import template

register = template.Library()
DASH = "–"


@register.filter
def pct(value: float | None) -> str:
    return DASH if value is None else f"{float(value) * 100:.1f}%"


@register.filter
def ms(value: float | None) -> str:
    if value is None:
        return DASH
    value = float(value)
    return f"{value / 1000:.2f} s" if value >= 1000 else f"{value:.0f} ms"


@register.filter
def age(seconds: float | None) -> str:
    if seconds is None:
        return DASH
    seconds = float(seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.0f} s"


@register.filter
def signed(value: float | None) -> str:
    return DASH if value is None else f"{float(value):+.3f}"


@register.filter
def num(value: object) -> str:
    return DASH if value is None else f"{value:g}" if isinstance(value, float) else str(value)
