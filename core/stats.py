"""The one percentile every figure uses: the metrics page, Prometheus and every benchmark."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear-interpolated percentile (q in 0..1) of unsorted values, as numpy's default; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def rounded(values: Sequence[float], q: float, digits: int) -> float | None:
    """`percentile` rounded to `digits`; None when empty."""
    value = percentile(values, q)
    return None if value is None else round(value, digits)
