"""A server-rendered SVG line chart of the monthly benefit by commencement age (no JavaScript).

The chart only draws the engine's figures; the grid table beside it is its text alternative.
"""

from __future__ import annotations

from decimal import Decimal

from benefits import formatting

from .labels import form_label
from .modeler import monthly_decimal

WIDTH, HEIGHT = 720, 320
# LEFT leaves room for "$1,250" at the larger label size a phone uses (the SVG scales to half there).
LEFT, RIGHT, TOP, BOTTOM = 96, 20, 20, 56
COLOURS = ("#005ea2", "#b50909", "#216e1f", "#6b4e9b")
DASHES = ("", "6 4", "2 3", "10 3 2 3")


def _nice_top(value: Decimal) -> Decimal:
    if value <= 0:
        return Decimal(100)
    step = Decimal(10) ** (len(str(int(value))) - 1)
    return ((value / step).to_integral_value(rounding="ROUND_CEILING")) * step


def line_chart(grid: dict, series_forms: list[str]) -> dict | None:
    """Polylines for up to four forms; None when there are fewer than two dates to draw."""
    rows = [r for r in grid["rows"] if not r["error"]]
    if len(rows) < 2:
        return None
    index = {k: i for i, (k, _) in enumerate(grid["forms"])}
    series_forms = [k for k in series_forms if k in index][:4]
    values = [
        monthly_decimal(r["cells"][index[k]].monthly) if r["cells"][index[k]] else None
        for k in series_forms
        for r in rows
    ]
    values = [v for v in values if v is not None]
    if not values:
        return None
    top = _nice_top(max(values))
    step = top / 4
    # Start the axis below the lowest value (a whole step) so differences between dates show.
    bottom = max(Decimal(0), (min(values) / step).to_integral_value(rounding="ROUND_FLOOR") * step - step)
    x0, x1 = rows[0]["age_years"], rows[-1]["age_years"]
    span = (x1 - x0) or 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(age: float) -> float:
        return round(LEFT + (age - x0) / span * plot_w, 1)

    def y(v: Decimal) -> float:
        return round(TOP + plot_h - float((v - bottom) / (top - bottom)) * plot_h, 1)

    series = []
    for n, k in enumerate(series_forms):
        points = []
        for r in rows:
            c = r["cells"][index[k]]
            v = monthly_decimal(c.monthly) if c else None
            if v is not None:
                points.append(f"{x(r['age_years'])},{y(v)}")
        series.append(
            {"label": form_label(k), "points": " ".join(points), "colour": COLOURS[n], "dash": DASHES[n]}
        )
    ticks = [bottom + (top - bottom) * i / 4 for i in range(5)]
    y_ticks = [{"y": y(t), "label": formatting.money(t, 0)} for t in ticks]
    first_age, last_age = int(x0), int(x1)
    x_ticks = [{"x": x(a), "label": str(a)} for a in range(first_age, last_age + 1) if x0 <= a <= x1]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "series": series,
        "y_ticks": y_ticks,
        "x_ticks": x_ticks,
        "summary": (
            f"Monthly benefit by age at the start of payments, from age {rows[0]['age']} to {rows[-1]['age']}, "
            f"for {', '.join(s['label'] for s in series)}. The table below gives every figure."
        ),
    }
