"""Command-line options the evaluation commands share (eval_recall, eval_pipeline)."""

from __future__ import annotations

from django.core.management.base import CommandError


def k_list(raw: str) -> list[int]:
    """`--k 5,10,20` as sorted distinct positive integers, or a CommandError saying what to pass."""
    try:
        values = sorted({int(v) for v in raw.split(",") if v.strip()})
    except ValueError as exc:
        raise CommandError(f"--k takes comma-separated integers, got {raw!r}.") from exc
    if not values or min(values) < 1:
        raise CommandError("--k needs at least one positive integer.")
    return values
