"""Geometry for the metrics page's small SVG charts.

Only numbers and coordinates are computed here; the templates draw them, so
every label goes through Django's auto-escaping and no external chart service
or script is involved.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

WIDTH, HEIGHT = 640, 240
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 60, 16, 18, 40


def _nice_max(value: float) -> float:
    """Round an axis maximum up to 1, 2 or 5 times a power of ten."""
    if value <= 0:
        return 1.0
    exp: float = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if value <= step * exp:
            return step * exp
    return 10 * exp


def _fmt_ms(ms: float) -> str:
    return f"{ms / 1000:.1f} s" if ms >= 1000 else f"{ms:.0f} ms"


def latency_chart(series: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Two polylines (p50, p95) over time buckets; None when nothing was measured."""
    measured = [b for b in series if b["p95_ms"] is not None]
    if not measured:
        return None
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - PAD_TOP - PAD_BOTTOM
    top = _nice_max(max(b["p95_ms"] for b in measured))
    n = len(series)

    def x(i: int) -> float:
        return round(PAD_LEFT + (plot_w * (i + 0.5) / n), 1)

    def y(ms: float) -> float:
        return round(PAD_TOP + plot_h * (1 - ms / top), 1)

    lines = {}
    dots = []
    for key in ("p50_ms", "p95_ms"):
        pts = [(x(i), y(b[key])) for i, b in enumerate(series) if b[key] is not None]
        lines[key] = " ".join(f"{px},{py}" for px, py in pts)
        dots += [
            {"x": x(i), "y": y(b[key]), "series": key[:3], "title": f"{key[:3]} {_fmt_ms(b[key])}, {b['turns']} turns"}
            for i, b in enumerate(series)
            if b[key] is not None
        ]
    ticks = [{"y": y(top * f), "label": _fmt_ms(top * f)} for f in (0, 0.25, 0.5, 0.75, 1)]
    # First label starts at its point and the last ends at its point, so neither is clipped.
    anchors = {0: "start", n // 2: "middle", n - 1: "end"}
    xlabels = [
        {
            "x": x(i),
            "anchor": anchor,
            "label": datetime.fromisoformat(series[i]["start"]).strftime("%d %b %H:%M"),
        }
        for i, anchor in sorted(anchors.items())
    ]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": PAD_LEFT,
        "right": WIDTH - PAD_RIGHT,
        "bottom": HEIGHT - PAD_BOTTOM,
        "p50": lines["p50_ms"],
        "p95": lines["p95_ms"],
        "dots": dots,
        "ticks": ticks,
        "xlabels": xlabels,
        "xlabel_y": HEIGHT - PAD_BOTTOM + 18,
    }


ABLATION_METRICS = ("recall@5", "recall@10", "recall@20", "hit@10")
MODE_COLOURS = {"lexical": "#8a9bb0", "vector": "#5b8def", "hybrid": "#1f7a4d"}


def ablation_chart(results: dict[str, Any]) -> dict[str, Any] | None:
    """Grouped bars: one group per metric, one bar per mode (values 0..1)."""
    modes = [m for m in ("lexical", "vector", "hybrid") if isinstance(results.get(m), dict)]
    metrics = [m for m in ABLATION_METRICS if any(results[mode].get(m) is not None for mode in modes)]
    if not modes or not metrics:
        return None
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - PAD_TOP - PAD_BOTTOM
    group_w = plot_w / len(metrics)
    bar_w = min(36.0, (group_w - 16) / len(modes))
    groups = []
    for gi, metric in enumerate(metrics):
        start = PAD_LEFT + gi * group_w + (group_w - bar_w * len(modes)) / 2
        bars = []
        for bi, mode in enumerate(modes):
            value = results[mode].get(metric)
            if value is None:
                continue
            h = plot_h * max(0.0, min(float(value), 1.0))
            bars.append(
                {
                    "x": round(start + bi * bar_w, 1),
                    "y": round(PAD_TOP + plot_h - h, 1),
                    "w": round(bar_w - 3, 1),
                    "h": round(h, 1),
                    "mode": mode,
                    "colour": MODE_COLOURS[mode],
                    "value": f"{float(value):.3f}",
                    "label_y": round(PAD_TOP + plot_h - h - 4, 1),
                    "label_x": round(start + bi * bar_w + (bar_w - 3) / 2, 1),
                }
            )
        groups.append({"metric": metric, "bars": bars, "label_x": round(start + bar_w * len(modes) / 2, 1)})
    ticks = [{"y": round(PAD_TOP + plot_h * (1 - f), 1), "label": f"{f:.2f}"} for f in (0, 0.25, 0.5, 0.75, 1)]
    legend = [{"mode": m, "colour": MODE_COLOURS[m], "x": PAD_LEFT + 100 * i} for i, m in enumerate(modes)]
    return {
        "width": WIDTH,
        "height": HEIGHT + 20,
        "left": PAD_LEFT,
        "right": WIDTH - PAD_RIGHT,
        "bottom": HEIGHT - PAD_BOTTOM,
        "groups": groups,
        "ticks": ticks,
        "legend": legend,
        "xlabel_y": HEIGHT - PAD_BOTTOM + 20,
        "legend_y": HEIGHT + 2,
    }
