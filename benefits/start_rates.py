"""Which start dates can be priced on published interest rates now, and, for the others, when (issue 25).

A payment's amounts rest on the interest rates of a look-back month before its start date (each plan's
look-back month is its own, from the engine: ``benefits.engine.market_needs.start_date_months``). Those
rates are published in the month after the month they are for. A start date whose look-back rates are
not loaded yet is still accepted: its explanation is given on the latest published rates (the stand-in
month) and says so, and a final explanation follows once the rates are loaded.

The words here are for participants: months in words ("December 2026 interest rates, published in
January 2027"), no month codes and no regulation paragraphs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from benefits import formatting
from benefits.engine.dates import add_months
from benefits.engine.market_needs import published_in, start_date_needs
from benefits.models import MarketRate


def month_words(month: date) -> str:
    return formatting.month_words(month)


def day_words(day: date) -> str:
    return formatting.date_words(day)


def month_code(month: date) -> str:
    """The stored form of a month ("2026-12"): for content and audit data, never for a reader."""
    return f"{month:%Y-%m}"


@dataclass(frozen=True)
class StartPricing:
    """Whether a start date's look-back rates are loaded, and what stands in for those that are not."""

    start: date
    months: tuple[date, ...]  # the look-back months its amounts rest on
    missing: tuple[date, ...]  # of those, the months not loaded yet
    stand_in: date | None = None  # the latest loaded month, used in their place
    stand_ins: dict[tuple[str, date], date] = field(default_factory=dict)  # (series, month) -> month used

    @property
    def priceable(self) -> bool:
        return not self.missing

    @property
    def published_by(self) -> date | None:
        """The month the last missing month's rates are published (the final amounts from then)."""
        return published_in(self.missing[-1]) if self.missing else None

    @property
    def missing_words(self) -> str:
        """ "December 2026 interest rates, published in January 2027" (every missing month)."""
        return "; ".join(
            f"{month_words(m)} interest rates, published in {month_words(published_in(m))}"
            for m in self.missing
        )

    @property
    def sentence(self) -> str:
        """For a participant choosing a start date."""
        if self.priceable:
            return f"Payments starting on {day_words(self.start)} can be priced now, on published interest rates."
        return (
            f"Payments starting on {day_words(self.start)} are priced on {self.missing_words}. You can file "
            f"your claim now. {self._what_follows}"
        )

    @property
    def filed_sentence(self) -> str:
        """For a participant whose claim for this start date is filed ('' when the rates are published)."""
        if self.priceable:
            return ""
        return (
            f"Your claim is accepted. Payments starting on {day_words(self.start)} are priced on "
            f"{self.missing_words}. {self._what_follows}"
        )

    @property
    def _what_follows(self) -> str:
        stand_in = f" ({month_words(self.stand_in)} interest rates)" if self.stand_in else ""
        expected = month_words(self.published_by) if self.published_by else ""
        return (
            f"Your explanation shows amounts on the latest published rates{stand_in}, and a new explanation "
            f"with the final amounts follows once those rates are published (expected in {expected}). You "
            "make your election on the final explanation."
        )


def _loaded(pairs: set[tuple[str, date]]) -> set[tuple[str, date]]:
    if not pairs:
        return set()
    months = {m for _, m in pairs}
    series = {s for s, _ in pairs}
    return set(
        MarketRate.objects.filter(series__in=series, period__in=months).values_list("series", "period")
    )


def _latest_complete(series: set[str], before: date) -> date | None:
    """The latest month before ``before`` with a rate of every one of ``series``."""
    seen: dict[date, set[str]] = {}
    rows = MarketRate.objects.filter(series__in=series, period__lt=before).order_by("-period")
    for s, period in rows.values_list("series", "period")[: 12 * len(series) + len(series)]:
        seen.setdefault(period, set()).add(s)
        if seen[period] >= series:
            return period
    return None


def start_pricing(plan, start: date) -> StartPricing:
    """Whether ``plan`` can price a start on ``start`` on published rates now (a ``benefits.Plan`` row)."""
    needs = start_date_needs(plan.key, start, plan.settings)
    pairs = {(n.series, n.month) for n in needs}
    loaded = _loaded(pairs)
    missing_pairs = pairs - loaded
    months = tuple(sorted({m for _, m in pairs}))
    if not missing_pairs:
        return StartPricing(start, months, ())
    missing = tuple(sorted({m for _, m in missing_pairs}))
    stand_in = _latest_complete({s for s, _ in missing_pairs}, missing[0])
    stand_ins = {pair: stand_in for pair in missing_pairs} if stand_in else {}
    return StartPricing(start, months, missing, stand_in, stand_ins)


def first_of_next_month(day: date) -> date:
    return add_months(date(day.year, day.month, 1), 1)


def start_dates_overview(plan, *, first: date, count: int = 6) -> dict:
    """The first-of-month start dates from ``first`` on: those priceable now, and for the others when.

    ``through``: the last priceable date before the first that is not (or None); ``later``: the dates not
    priceable yet (``StartPricing``); ``applies`` is False for a plan whose start dates rest on no
    published rate."""
    first = first if first.day == 1 else first_of_next_month(first)
    rows = [start_pricing(plan, add_months(first, i)) for i in range(count)]
    if not any(r.months for r in rows):
        return {"applies": False, "through": None, "later": []}
    ready = [r for r in rows if r.priceable]
    later = [r for r in rows if not r.priceable]
    through = None
    for r in rows:
        if not r.priceable:
            break
        through = r.start
    return {
        "applies": True,
        "through": through,
        "all_ready": not later,
        "later": later,
        "last_ready": ready[-1].start if ready else None,
    }
