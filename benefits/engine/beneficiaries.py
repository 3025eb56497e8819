"""Beneficiary designations: what a designation must contain, who takes when there is none, and when
the spouse must consent (pure: no Django).

The law:

* A plan subject to §401(a)(11) pays a married participant's pre-retirement survivor benefit to the
  spouse; a plan exempt under §401(a)(11)(B)(iii) must pay the whole account to the surviving spouse
  on death. Either way a married participant may name someone else as primary beneficiary only with
  the spouse's written, witnessed consent naming that beneficiary (Code §417(a)(2); Treas. Reg.
  §1.401(a)-20 Q&A-31).
* Where naming someone else waives a QPSA, the waiver counts only inside its election period, which
  "begins on the first day of the plan year in which the participant attains age 35" (for a
  participant who has separated, no later than the separation) and ends at death (Code
  §417(a)(6)(B)). A plan may, but need not, allow earlier waivers (Q&A-33(b)); none of these plans'
  texts does, so the statute's period is used.

Each plan's own reading (its default order, whether the spouse is the default, whether a beneficiary
must be a natural person) is a ``BeneficiaryRules``: the plan's ``beneficiary_rules`` capability.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from .dates import date_attaining_age
from .elections import same_name

QPSA_WAIVER_AGE = 35  # Code §417(a)(6)(B)

KINDS = ("primary", "contingent")
ENTITY_TYPES = ("person", "trust", "estate")
RELATIONSHIPS = {
    "spouse": "Spouse",
    "child": "Child",
    "grandchild": "Grandchild",
    "parent": "Parent",
    "sibling": "Brother or sister",
    "other_relative": "Other relative",
    "other": "Someone else (not related)",
    "trust": "A trust",
    "estate": "My estate",
}


@dataclass(frozen=True)
class BeneficiaryRules:
    """One plan's beneficiary rules, each with the section it was read from."""

    # Who takes when no designation is in force, in the plan's order (plain words).
    default_order: tuple[str, ...]
    default_source: str
    # The spouse of a married participant is the beneficiary unless the spouse consents otherwise.
    spouse_default: bool
    consent_source: str
    # Naming someone else waives a qualified preretirement survivor annuity (the age-35 period applies).
    waives_qpsa: bool = False
    # The plan defines a Beneficiary as a natural person (no trust or estate may be named).
    natural_persons_only: bool = False
    natural_persons_source: str = ""


@dataclass(frozen=True)
class Named:
    """One named beneficiary as entered (strings, as a form gives them)."""

    kind: str  # "primary" or "contingent"
    entity: str  # "person", "trust" or "estate"
    name: str
    relationship: str
    percent: str
    birth_date: str = ""  # ISO date, persons
    address: str = ""  # persons
    trustee: str = ""  # trusts
    trust_date: str = ""  # ISO date, trusts

    @classmethod
    def from_mapping(cls, row: Mapping[str, Any]) -> Named:
        return cls(**{k: str(row.get(k) or "").strip() for k in cls.__dataclass_fields__})


def _same_person(a: str, b: str) -> bool:
    """A name given (not blank) that is the other's (``elections.same_name``)."""
    return bool(a.strip()) and same_name(a, b)


def _percent(value: str) -> Decimal | None:
    try:
        p = Decimal(value)
    except InvalidOperation:
        return None
    if not p.is_finite() or p <= 0 or p > 100 or p != p.quantize(Decimal("0.01")):
        return None
    return p


def designation_problems(
    rows: Sequence[Named], rules: BeneficiaryRules, *, on: date, spouse_name: str
) -> dict[str, str]:
    """Every reason the designation cannot be accepted, by field (``row-N-field`` or ``primary`` /
    ``contingent`` for the totals); empty when it may be signed."""
    problems: dict[str, str] = {}
    if not any(r.kind == "primary" for r in rows):
        problems["primary"] = "Primary beneficiaries: name at least one."
    totals = {k: Decimal(0) for k in KINDS}
    for i, r in enumerate(rows, start=1):
        where = f"Beneficiary {i}"
        if r.kind not in KINDS:
            problems[f"row-{i}-kind"] = f"{where}: choose primary or contingent."
            continue
        if r.entity not in ENTITY_TYPES:
            problems[f"row-{i}-entity"] = f"{where}: choose a person, a trust or your estate."
            continue
        if rules.natural_persons_only and r.entity != "person":
            problems[f"row-{i}-entity"] = (
                f"{where}: this plan defines a beneficiary as a natural person ({rules.natural_persons_source}); "
                "a trust or an estate cannot be named."
            )
        if r.entity != "estate" and not r.name:
            problems[f"row-{i}-name"] = f"{where}: give the full name."
        p = _percent(r.percent)
        if p is None:
            problems[f"row-{i}-percent"] = (
                f"{where}: the share must be a percentage above 0 and at most 100, to two decimal places."
            )
        else:
            totals[r.kind] += p
        if r.entity == "person":
            if r.relationship not in RELATIONSHIPS or r.relationship in ("trust", "estate"):
                problems[f"row-{i}-relationship"] = f"{where}: choose the person's relationship to you."
            elif r.relationship == "spouse" and not _same_person(r.name, spouse_name):
                problems[f"row-{i}-relationship"] = (
                    f"{where}: the plan's records show {'your spouse as ' + spouse_name if spouse_name else 'no spouse'}; "
                    "ask the plan administrator to update your marital status first if this has changed."
                )
            try:
                born = date.fromisoformat(r.birth_date)
            except ValueError:
                problems[f"row-{i}-birth_date"] = f"{where}: give the date of birth."
            else:
                if born > on:
                    problems[f"row-{i}-birth_date"] = f"{where}: the date of birth cannot be in the future."
            if len(r.address) < 5:
                problems[f"row-{i}-address"] = f"{where}: give the person's mailing address."
        elif r.entity == "trust":
            if not r.trustee:
                problems[f"row-{i}-trustee"] = f"{where}: give the trustee's name."
            try:
                made = date.fromisoformat(r.trust_date)
            except ValueError:
                problems[f"row-{i}-trust_date"] = f"{where}: give the date the trust was made."
            else:
                if made > on:
                    problems[f"row-{i}-trust_date"] = f"{where}: the trust's date cannot be in the future."
    for kind in KINDS:
        if any(r.kind == kind for r in rows) and totals[kind] != 100 and f"{kind}" not in problems:
            label = "Primary" if kind == "primary" else "Contingent"
            problems[kind] = (
                f"{label} beneficiaries: the shares must add up to 100% (they add up to {totals[kind]}%)."
            )
    return problems


def consent_reasons(
    rows: Sequence[Named], rules: BeneficiaryRules, *, married: bool, spouse_name: str
) -> list[str]:
    """Why the spouse must consent: a married participant names anyone but the spouse as the sole
    primary beneficiary of a plan where the spouse is the default (Code §417(a)(2))."""
    if not married or not rules.spouse_default:
        return []
    primary = [r for r in rows if r.kind == "primary"]
    spouse_alone = (
        len(primary) == 1
        and primary[0].relationship == "spouse"
        and _same_person(primary[0].name, spouse_name)
        and _percent(primary[0].percent) == 100
    )
    if spouse_alone:
        return []
    others = ", ".join(r.name or "your estate" for r in primary if r.relationship != "spouse")
    return [
        f"You name {others or 'someone'} as primary beneficiary instead of, or beside, your spouse "
        f"({rules.consent_source})."
    ]


def qpsa_waiver_opens(birth_date: date, separated_on: date | None) -> date:
    """The first day a QPSA waiver counts: January 1 of the (calendar) plan year in which the participant
    reaches 35, or the separation date if earlier (Code §417(a)(6)(B))."""
    year_35 = date(date_attaining_age(birth_date, QPSA_WAIVER_AGE).year, 1, 1)
    return min(year_35, separated_on) if separated_on is not None else year_35
