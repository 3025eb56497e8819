"""The plausible window of every participant input, checked before any plan computes.

An impossible input (a birth in 1800, a spouse born after the as-of date, 10^30 hours, negative or
NaN pay, a start date past age 100) is refused with the JSON pointer of the field and the rule it
breaks; it never reaches a formula, so no result is built on it. The same limits guard the web
forms (``benefits.input_limits`` re-exports them) so a page and the command line agree.

Sources of the numbers:
* ages 15–110 at the plan dates: a plausibility window, not a plan rule (no plan here admits anyone
  under 15; 110 is past the end of every mortality table the engine reads);
* 8,784 hours: the hours in a leap year (366 × 24), the most a year of service can hold;
* age 100: the commencement window ends there (past the required beginning date of IRC §401(a)(9)
  for anyone, and past where a participant-facing quote is meaningful);
* 1,200 commencement dates a participant (after duplicates are dropped): every month for a hundred
  years, more than any window from hire to age 100 holds; 100,000 participants a request (JSON or
  JSON Lines): beyond the largest census of these plans (issue 26: a request's cost stays bounded).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any, NoReturn

from .core import ParticipantError
from .dates import add_years, age_on

MIN_AGE_AT_PLAN_DATES = 15
MAX_AGE_AT_PLAN_DATES = 110
MAX_COMMENCEMENT_AGE = 100
MAX_HOURS_PER_YEAR = 8784  # 366 days × 24 hours
MAX_YEARLY_PAY = Decimal("100000000")  # $100 million a year: beyond any participant's pay
MAX_AMOUNT = Decimal("10000000000")  # $10 billion: beyond any account or benefit here
MAX_COMMENCEMENT_DATES = 1200  # every month for 100 years
MAX_PARTICIPANTS = 100_000
EARLIEST_DATE = date(1900, 1, 1)
LATEST_DATE = date(2199, 12, 31)
EARLIEST_YEAR, LATEST_YEAR = EARLIEST_DATE.year, LATEST_DATE.year


class ImpossibleInput(ParticipantError):
    """A value outside what can exist; the request that carries it is malformed (exit 2 on the CLI)."""


class RequestError(ValueError):
    """The request itself is malformed; ``pointer`` is the JSON pointer of the bad field."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(message)
        self.pointer = pointer

    def one_line(self) -> str:
        line = f"malformed request at {self.pointer or '/'}: {self}".replace("\n", " ").replace("\r", " ")
        return line if len(line) <= 400 else line[:397] + "..."


def _fmt(d: date) -> str:
    return d.isoformat()


def check_as_of(as_of: date, pointer: str = "/as_of") -> None:
    if not EARLIEST_DATE <= as_of <= LATEST_DATE:
        # the request's own field: the whole request is refused
        raise RequestError(pointer, f"as_of must lie between {_fmt(EARLIEST_DATE)} and {_fmt(LATEST_DATE)}")


def check_year(year: int, pointer: str) -> None:
    if not EARLIEST_YEAR <= year <= LATEST_YEAR:
        raise ImpossibleInput(pointer, f"year must lie between {EARLIEST_YEAR} and {LATEST_YEAR}")


def check_hours(value: int, pointer: str) -> None:
    if not 0 <= value <= MAX_HOURS_PER_YEAR:
        raise ImpossibleInput(
            pointer, f"hours must be between 0 and {MAX_HOURS_PER_YEAR:,} a year (366 days × 24 hours)"
        )


def check_money(value: Decimal, pointer: str, *, limit: Decimal = MAX_AMOUNT, what: str = "amount") -> None:
    if not value.is_finite():
        raise ImpossibleInput(pointer, f"{what} must be a finite number of dollars")
    if value < 0:
        raise ImpossibleInput(pointer, f"{what} cannot be negative")
    if value > limit:
        raise ImpossibleInput(pointer, f"{what} must be at most ${limit:,.0f}")


def check_participant_dates(
    *,
    as_of: date,
    birth_date: date,
    hire_date: date,
    termination_date: date | None,
    death_date: date | None,
    disability_date: date | None,
    spouse_birth_date: date | None,
    commencement_dates: tuple[date, ...],
) -> None:
    """Each date in its window; raises ParticipantError(pointer, rule) for the first that is not."""
    last_alive = min(as_of, death_date) if death_date else as_of
    if birth_date >= as_of or age_on(birth_date, last_alive) > MAX_AGE_AT_PLAN_DATES:
        raise ImpossibleInput(
            "/birth_date",
            f"birth_date must make the participant at most {MAX_AGE_AT_PLAN_DATES} at the as-of date "
            f"(or death) and be before it",
        )
    if hire_date < add_years(birth_date, MIN_AGE_AT_PLAN_DATES):
        raise ImpossibleInput(
            "/hire_date",
            f"hire_date must be on or after the participant's {MIN_AGE_AT_PLAN_DATES}th birthday",
        )
    if hire_date > LATEST_DATE:
        raise ImpossibleInput("/hire_date", f"hire_date must be on or before {_fmt(LATEST_DATE)}")
    if termination_date is not None and not hire_date <= termination_date <= LATEST_DATE:
        raise ImpossibleInput(
            "/termination_date", "termination_date must lie between hire_date and 2199-12-31"
        )
    if death_date is not None and not birth_date < death_date <= as_of:
        raise ImpossibleInput("/death_date", "death_date must lie after birth_date and on or before as_of")
    if disability_date is not None and not birth_date < disability_date <= LATEST_DATE:
        raise ImpossibleInput("/disability_date", "disability_date must lie after birth_date")
    if spouse_birth_date is not None and not (
        spouse_birth_date < as_of and age_on(spouse_birth_date, as_of) <= MAX_AGE_AT_PLAN_DATES
    ):
        raise ImpossibleInput(
            "/spouse_birth_date",
            f"spouse_birth_date must be before the as-of date and make the spouse at most "
            f"{MAX_AGE_AT_PLAN_DATES}",
        )
    last_start = add_years(birth_date, MAX_COMMENCEMENT_AGE)
    for i, d in enumerate(commencement_dates):
        if not hire_date <= d <= last_start:
            raise ImpossibleInput(
                f"/commencement_dates/{i}",
                f"a commencement date must lie after hire_date and not past age {MAX_COMMENCEMENT_AGE}",
            )


# ``json.dumps(…, ensure_ascii=False)``'s encoder, built once (a census checks every result).
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def negative_benefit(result: Mapping[str, Any]) -> str | None:
    """The pointer of a negative amount among a result's benefit estimates, or None.

    A benefit is never negative; if inputs the checks above let through still produce one, the
    participant gets an error instead of a number."""
    estimates = result.get("estimates") or ()
    if estimates.__class__ is SignChecked:  # its maker looked at every string as it wrote it
        return None
    try:  # most results hold no string that starts with "-": one C-speed look settles it
        if '"-' not in _ENCODE(estimates):
            return None
    except (TypeError, ValueError):
        pass
    for i, estimate in enumerate(estimates):
        found = _negative_at(estimate)
        if found is not None:
            return "/".join([f"/estimates/{i}", *(str(k) for k in reversed(found))])
    return None


def _negative_at(node: object) -> list[object] | None:
    """The keys (innermost first) down to the first negative decimal string, or None. The pointer is
    written only for a hit: a modeler result has thousands of strings to look at."""
    if isinstance(node, str):
        if node.startswith("-"):
            try:
                if Decimal(node) < 0:
                    return []
            except ArithmeticError:
                return None
        return None
    items: Any
    if isinstance(node, Mapping):
        items = node.items()
    elif isinstance(node, list | tuple):
        items = enumerate(node)
    else:
        return None
    for k, v in items:
        if v.__class__ is str and not v.startswith("-"):
            continue
        found = _negative_at(v)
        if found is not None:
            found.append(k)
            return found
    return None


def sign_checked(estimates: list[dict[str, Any]], written: list[str]) -> list[dict[str, Any]]:
    """``estimates`` marked ``SignChecked`` when none of the strings written into them (``written``:
    every one but the ISO dates, which never start with "-") starts with "-"; otherwise as they are,
    for ``negative_benefit``'s full look to find the negative amount and its pointer."""
    try:
        joined = "\n".join(written)
    except TypeError:  # not all strings: the full look decides
        return estimates
    if joined.startswith("-") or "\n-" in joined:  # a "\n-" inside a note only costs the full look
        return estimates
    return SignChecked(estimates)


class SignChecked(list[Any]):
    """Estimates whose maker looked at every string it wrote into them and found none starting with
    "-" (so none is a negative amount): ``negative_benefit`` has nothing to find in them. A maker
    that finds one returns a plain list, and the full look finds it (and its pointer).

    Made last, once every string is in place, and read-only after: appending, inserting, replacing
    or removing an estimate raises (it would slip past the check). A copy (``copy``, ``pickle``,
    ``list(...)``) is a plain list, which gets the full look. It is a list to every reader (``==``
    with a list, JSON writes it as one)."""

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("these estimates are read-only (signs checked): change a list(...) copy")

    append = extend = insert = pop = remove = clear = sort = reverse = _read_only
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only

    def __reduce__(self) -> tuple[type[list[Any]], tuple[list[Any]]]:
        return (list, (list(self),))
