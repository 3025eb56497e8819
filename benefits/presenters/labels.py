"""Plain-word labels for the engine contract's keys (forms of payment, account sources, fields)."""

from __future__ import annotations

FORM_ORDER = (
    "life",
    "js50",
    "js66",
    "js75",
    "js100",
    "cc5",
    "cc10",
    "cc15",
    "cc20",
    "ss_level",
    "lump_sum",
)

FORM_LABELS = {
    "life": "Single life annuity",
    "js50": "50% joint and survivor",
    "js66": "66⅔% joint and survivor",
    "js75": "75% joint and survivor",
    "js100": "100% joint and survivor",
    "cc5": "Life with 5 years certain",
    "cc10": "Life with 10 years certain",
    "cc15": "Life with 15 years certain",
    "cc20": "Life with 20 years certain",
    "ss_level": "Level income option",
    "lump_sum": "Lump sum",
    "installments": "Installments",
    "partial_lump_sum": "Partial lump sum with installments",
    "direct_rollover": "Direct rollover",
}

SOURCE_LABELS = {
    "before_tax": "Before-tax contributions",
    "matching_pre2002": "Matching contributions before 2002",
    "matching_2002": "Matching contributions from 2002",
    "matching": "Matching contributions",
    "rollover": "Rollover contributions",
    "discretionary": "Discretionary employer contributions",
    "nonelective": "Nonelective employer contributions",
    "special": "Special contributions",
    "top_heavy": "Top-heavy minimum",
}

# Words for the fields a calculation can stop on (the last part of the engine's JSON pointer).
FIELD_LABELS = {
    "birth_date": "your birth date",
    "hire_date": "your hire date",
    "hours": "your hours of service",
    "compensation": "your pay history",
    "spouse_birth_date": "your spouse's birth date",
    "plan_data": "plan data",
    "social_security_amount": "the Social Security Amount frozen at the Plan Freeze Date",
    "opening_balance": "the January 1, 2000 Beginning Balance",
    "balances": "account balances",
    "shares": "shares of company stock",
    "share_value": "the share price",
    "treasury_10y_november": "the November 10-year Treasury yield",
    "applicable_interest_rate": "the applicable interest rate",
    "assumptions": "market data",
}


def form_label(key: str) -> str:
    return FORM_LABELS.get(key, key.replace("_", " "))


def source_label(key: str) -> str:
    return SOURCE_LABELS.get(key, key.replace("_", " ").capitalize())


def field_words(pointer: str) -> str:
    """What a JSON pointer names, in plain words: the last part we know a label for."""
    parts = [p for p in (pointer or "").split("/") if p and not p.isdigit() and p != "participants"]
    for part in reversed(parts):
        if part in FIELD_LABELS:
            return FIELD_LABELS[part]
    return parts[-1].replace("_", " ") if parts else "the plan record"
