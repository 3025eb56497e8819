"""Explanations given on stand-in rates (issue 25): what the participant reads about them, and the
receiver that gives them again once an administrator loads the rates they waited for.

The rule (docs/plan-notes/provisional-explanations.md): the explanation of a start date whose
look-back interest rates are not yet published is given on the latest published rates and says so;
the election waits for the final explanation, issued in a batch when the rates are loaded.
"""

from __future__ import annotations

import re
from datetime import date

from benefits.engine.market_needs import published_in
from benefits.start_rates import day_words, month_words


def _month(code: str) -> date:
    return date.fromisoformat(f"{code}-01")


def provisional_words(content: dict) -> dict:
    """The provisional explanation's statement in words for the participant ({} for a final one)."""
    facts = content.get("provisional") or {}
    months = [_month(c) for c in facts.get("months") or []]
    if not months:
        return {}
    rates = "; ".join(
        f"{month_words(m)} interest rates, published in {month_words(published_in(m))}" for m in months
    )
    stand_in = _month(facts["stand_in"]) if facts.get("stand_in") else None
    expected = published_in(months[-1])
    final_on = " and ".join(f"{month_words(m)} interest rates" for m in months)
    start = day_words(date.fromisoformat(content["asd"]))
    return {
        "rates": rates,
        "stand_in": month_words(stand_in) if stand_in else "",
        "expected": month_words(expected),
        "statement": (
            f"The amounts in this explanation are estimates. Payments starting on {start} are priced on "
            f"{rates}. Those rates had not been published when this explanation was given, so the amounts "
            "use the latest published rates"
            + (f" ({month_words(stand_in)} interest rates)" if stand_in else "")
            + f". The amounts will be final on {final_on}, and a new explanation with the final amounts "
            f"will be sent to you once they are published (expected in {month_words(expected)})."
        ),
        "election_waits": (
            f"You make your election on the final explanation, expected in {month_words(expected)}. Until "
            "then you can read this one and think about your choices; there is nothing to sign yet."
        ),
    }


_MONTH_CODE = re.compile(r"\b(\d{4})-(\d{2})\b")


def interest_words(text: str, content: dict) -> str:
    """The relative values' interest rate in words: a month code becomes the month ("December 2026"),
    and in a provisional explanation the month not yet published says which month stands in for it."""
    facts = content.get("provisional") or {}
    missing = set(facts.get("months") or [])
    stand_in = facts.get("stand_in")

    def month(m: re.Match) -> str:
        code = m.group(0)
        words = month_words(_month(code))
        if code in missing and stand_in:
            return f"{words} (until they are published, the {month_words(_month(stand_in))} rates stand in)"
        return words

    return _MONTH_CODE.sub(month, text or "")


def final_words(content: dict) -> str:
    """A final explanation's opening sentence, naming the estimated one it replaces ('' otherwise)."""
    replaces = content.get("replaces") or {}
    if not replaces:
        return ""
    months = [_month(c) for c in replaces.get("months") or []]
    rates = " and ".join(f"{month_words(m)} interest rates" for m in months) or "the published interest rates"
    given = date.fromisoformat(replaces["explained_on"]) if replaces.get("explained_on") else None
    return (
        f"This explanation gives the final amounts, on {rates}, now published. It replaces the explanation "
        + (f"given to you on {day_words(given)}, " if given else "")
        + "whose amounts were estimates. You can now make your election."
    )
