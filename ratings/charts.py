"""A rating history as an SVG line chart, drawn on the server (no CDN, no JavaScript).

Pure module: standard library only.  Input: (date, rating) points, oldest
first; output: a standalone ``<svg>`` element (valid XML, text escaped).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

W, H = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 68, 16, 16, 48


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    span = hi - lo
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step) * step
    out = []
    v = first
    while v <= hi + 1e-9:
        out.append(v)
        v += step
    return out


def rating_chart_svg(
    points: Sequence[tuple[dt.date, float]],
    *,
    title: str = "Rating history",
    empty: str = "No rated tournaments yet.",
    width: int = W,
    height: int = H,
) -> str:
    """The chart of ``points``; an empty history gives a chart saying so (``empty``, in
    the reader's language as the caller gives it, as ``title``)."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label={quoteattr(title)} class="chart">'
        f"<title>{escape(title)}</title>"
    )
    if not points:
        return (
            f'{head}<text x="{width / 2:.0f}" y="{height / 2:.0f}" text-anchor="middle" '
            f'font-size="14" fill="#666">{escape(empty)}</text></svg>'
        )
    # One point per date, the last rating of the day: a history's first point (the
    # rating before its first event) shares that event's date and would draw a
    # vertical stick, and a one-event history is one point.
    by_date: dict[dt.date, float] = {}
    for d, r in points:
        by_date[d] = r
    points = sorted(by_date.items())
    ratings = [r for _, r in points]
    lo, hi = min(ratings), max(ratings)
    if hi - lo < 50:
        mid = (hi + lo) / 2
        lo, hi = mid - 25, mid + 25
    pad = (hi - lo) * 0.08
    ticks = _ticks(lo - pad, hi + pad)
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    # The axes run from tick to tick, so every point lies between two labels.
    lo = math.floor((lo - pad) / step) * step
    hi = math.ceil((hi + pad) / step) * step
    t0, t1 = points[0][0].toordinal(), points[-1][0].toordinal()
    span_t = max(1, t1 - t0)
    pw, ph = width - LEFT - RIGHT, height - TOP - BOTTOM

    def x(d: dt.date) -> float:
        return LEFT + (pw * (d.toordinal() - t0) / span_t if t1 > t0 else pw / 2)

    def y(r: float) -> float:
        return TOP + ph * (hi - r) / (hi - lo)

    parts = [
        head,
        f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="#fff" stroke="#ccc"/>',
    ]
    for k in range(round((hi - lo) / step) + 1):  # a label at each end of the axis
        v = lo + k * step
        yy = y(v)
        parts.append(
            f'<line x1="{LEFT}" y1="{yy:.1f}" x2="{LEFT + pw}" y2="{yy:.1f}" stroke="#eee"/>'
            f'<text x="{LEFT - 6}" y="{yy + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="#555">{v:.0f}</text>'
        )
    ends = sorted({points[0][0], points[-1][0]})
    for d in ends:
        # The first date starts at its point and the last ends at it: both stay inside.
        anchor = "middle" if len(ends) == 1 else ("start" if d == ends[0] else "end")
        parts.append(
            f'<text x="{x(d):.1f}" y="{height - 24}" text-anchor="{anchor}" font-size="11" '
            f'fill="#555">{d.isoformat()}</text>'
        )
    parts.append(
        f'<text x="14" y="{TOP + ph / 2:.1f}" text-anchor="middle" font-size="12" '
        f'fill="#333" transform="rotate(-90 14 {TOP + ph / 2:.1f})">Rating</text>'
        f'<text x="{LEFT + pw / 2:.1f}" y="{height - 2}" text-anchor="middle" font-size="12" '
        f'fill="#333">Tournament end date</text>'
    )
    if len(points) > 1:
        path = " ".join(f"{x(d):.1f},{y(r):.1f}" for d, r in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="#1f5a99" stroke-width="2"/>')
    for d, r in points:
        parts.append(
            f'<circle cx="{x(d):.1f}" cy="{y(r):.1f}" r="3" fill="#1f5a99">'
            f"<title>{d.isoformat()}: {r:.0f}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)
