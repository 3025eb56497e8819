"""Carver ESOP §10.6 as amended by the Sixth Amendment (effective March 28, 2005): voluntary and
involuntary cash-outs, Mandatory Distributions and their automatic rollover.

Decision logic only (SPEC B3, E9). §10.6(c) (accounts over the threshold with no consent) is held
for the Committee, not automated (GAP D2.4-D2.7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.dates import add_years
from benefits.engine.money import to_money
from benefits.engine.trace import Trace, TraceBuilder, money

from .settings import AMENDMENT_EFFECTIVE, DEFAULT_SETTINGS, THRESHOLD_CHANGE, BenefitSettings

ELECTIONS = (None, "pay_directly", "direct_rollover")
# §10.6(c) applies to terminations "for any reason other than retirement, death, or Total Disability".
HOLDING_ACCOUNT_EXEMPT = frozenset({"retirement", "death", "total_disability"})


def threshold_on(
    distribution_date: date, settings: BenefitSettings = DEFAULT_SETTINGS
) -> tuple[Decimal, Trace]:
    """The cash-out threshold in force for a distribution date (C §10.6(a); GAP D2.2)."""
    if distribution_date < THRESHOLD_CHANGE:
        value, why = settings.threshold_before_1998, "before January 1, 1998: $3,500"
    else:
        value, why = settings.threshold_from_1998, "on or after January 1, 1998: $5,000"
    for effective, amount in sorted(settings.statutory_thresholds):
        if distribution_date >= effective:
            value, why = amount, f"the amount permitted under §417(e) from {effective.isoformat()}"
    value = to_money(value)
    return value, Trace().add(
        f"Cash-out threshold for a distribution made {why}",
        section="Carver ESOP §10.6(a) (Sixth Amendment); SPEC GAP D2.2",
        result=money(value),
        distribution_date=distribution_date,
    )


@dataclass(frozen=True)
class CashOutDecision:
    required: bool  # §10.6(a): a lump sum is made in lieu of all vested benefits
    threshold: Decimal
    mandatory_distribution: bool  # §10.6(b)(ix)
    automatic_rollover: bool  # §10.6(b): paid by direct rollover to the administrator's IRA
    route: (
        str  # "pay_directly" | "direct_rollover" | "automatic_rollover" | "holding_account" | "not_cash_out"
    )
    form: str | None  # "cash" | "shares" (Qualifying Employer Securities)
    committee_review: bool
    trace: Trace


def mandatory_age_date(
    birth_date: date, normal_retirement_age: int, settings: BenefitSettings = DEFAULT_SETTINGS
) -> date:
    return add_years(birth_date, max(int(normal_retirement_age), settings.mandatory_age_floor))


def cash_out_decision(
    *,
    vested_value: Decimal,
    distribution_date: date,
    birth_date: date,
    normal_retirement_age: int,
    election: str | None = None,
    elects_shares: bool = False,
    termination_reason: str = "other",
    prior_valuation_value: Decimal | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> CashOutDecision:
    """The §10.6 route for a Former Participant's vested Account on a distribution date."""
    if election not in ELECTIONS:
        raise ValueError(f"election must be one of {ELECTIONS}")
    tb = TraceBuilder()
    value = to_money(vested_value)
    threshold, t = threshold_on(distribution_date, settings)
    tb.include(t)
    cash_out = value <= threshold
    tb.step(
        "Vested value is the threshold or less: a lump sum is made in lieu of all vested benefits"
        if cash_out
        else "Vested value exceeds the threshold: not a §10.6(a) cash-out",
        section="Carver ESOP §10.6(a)",
        result=cash_out,
        vested_value=money(value),
        threshold=money(threshold),
    )
    review = False
    if cash_out and prior_valuation_value is not None and to_money(prior_valuation_value) > threshold:
        if settings.lookback_conflict == "lookback":
            cash_out = False
            tb.step(
                "A prior Valuation Date value exceeded the threshold: treated under §10.6(c), not a cash-out",
                section="Carver ESOP §10.6(c); SPEC GAP D2.3",
                result=False,
            )
        elif settings.lookback_conflict == "escalate":
            review = True
            tb.step(
                "Conflict: §10.6(a) tests the current value, but §10.6(c) looks back to a prior Valuation "
                "Date when the value exceeded the threshold. Referred to the Committee",
                section="Carver ESOP §10.6(a), §10.6(c); SPEC GAP D2.3",
                result="committee_review",
                prior_valuation_value=money(to_money(prior_valuation_value)),
            )
    if not cash_out:
        holding = termination_reason not in HOLDING_ACCOUNT_EXEMPT and election is None
        if holding:
            tb.step(
                "No consent and Service ended other than by retirement, death or Total Disability: the "
                "Committee directs the Trustee to hold the Account in investment accounts until age 65 / Normal "
                "Retirement Age (or death). Held for Committee review",
                section="Carver ESOP §10.6(c); SPEC GAP D2.4-D2.7",
                result="holding_account",
            )
        return CashOutDecision(
            False,
            threshold,
            False,
            False,
            "holding_account" if holding else "not_cash_out",
            None,
            holding or review,
            tb.build(),
        )
    form = "shares" if elects_shares else "cash"
    tb.step(
        "Paid in cash unless the Participant elects shares of Qualifying Employer Securities",
        section="Carver ESOP §10.6(a); SPEC GAP D2.11",
        result=form,
    )
    age_date = mandatory_age_date(birth_date, normal_retirement_age, settings)
    mandatory = distribution_date >= AMENDMENT_EFFECTIVE and distribution_date < age_date
    tb.step(
        "Mandatory Distribution: a cash-out made on or after March 28, 2005 and before the Participant has "
        "attained the Normal Retirement Age (or age 62, if later)",
        section="Carver ESOP §10.6(b)(ix); SPEC GAP D2.14",
        result=mandatory,
        later_of_nra_and_62_attained_on=age_date,
    )
    if election == "direct_rollover":
        route, auto = "direct_rollover", False
        tb.step(
            "Participant elected a direct rollover to his Eligible Retirement Plan (Section 10.11)",
            section="Carver ESOP §10.6(a)",
            result=route,
        )
    elif election == "pay_directly":
        route, auto = "pay_directly", False
        tb.step("Participant elected payment to himself", section="Carver ESOP §10.6(a)", result=route)
    elif mandatory and value > to_money(settings.direct_payment_max):
        route, auto = "automatic_rollover", True
        tb.step(
            "No election and a Mandatory Distribution over $1,000: the Plan Administrator pays it by direct "
            "rollover to the Individual Retirement Plan it designates",
            section="Carver ESOP §10.6(b)",
            result=route,
        )
    elif mandatory:
        auto = not settings.small_mandatory_paid_directly
        route = "automatic_rollover" if auto else "pay_directly"
        tb.step(
            "No election and a Mandatory Distribution not over $1,000: it may be paid directly to the "
            "Participant (Plan Administrator's policy)",
            section="Carver ESOP §10.6(b); SPEC GAP D2.8",
            result=route,
        )
    else:
        route, auto = "pay_directly", False
        tb.step(
            "No election and not a Mandatory Distribution: paid directly to the Participant",
            section="Carver ESOP §10.6(a), §10.6(b)",
            result=route,
        )
    if auto and form == "shares":
        # D2.11: with no election the payment is cash; an automatic rollover is never in shares.
        form = "cash"
    return CashOutDecision(True, threshold, mandatory, auto, route, form, review, tb.build())


# §10.6(b)(i)-(vii): conditions for an automatic-rollover IRA maintained by the Employer or an Affiliate.
IRA_CONDITIONS = {
    "i_exclusive_benefit": "§10.6(b)(i) exclusive benefit of the account holder, spouse or beneficiaries",
    "ii_terms_no_less_favorable": "§10.6(b)(ii) terms, fees and expenses no less favorable than comparable IRAs",
    "iii_a_eligible_investment_product": "§10.6(b)(iii)(A) invested in an Eligible Investment Product",
    "iii_b_returns_no_less_favorable": "§10.6(b)(iii)(B) returns no less favorable than comparable IRAs",
    "iii_c_no_sales_commission": "§10.6(b)(iii)(C) no sales commission",
    "iii_d_participant_may_enforce": "§10.6(b)(iii)(D) Participant may enforce the agreement",
    "iii_e_penalty_free_transfer": "§10.6(b)(iii)(E) penalty-free transfer within a reasonable time",
    "iii_f_fees": "§10.6(b)(iii)(F)(I)-(III) fee limits",
    "iv_spd_or_smm_furnished": "§10.6(b)(iv) SPD/SMM describing automatic rollovers furnished",
    "v_records_six_years": "§10.6(b)(v) provider keeps records six years",
    "vi_records_available": "§10.6(b)(vi) records available to DOL, IRS and account holders",
}


def ira_provider_conditions(
    attestation: Mapping[str, bool], maintained_by_employer: bool
) -> tuple[bool, tuple[str, ...], Trace]:
    """Whether an in-house IRA provider may receive automatic rollovers: every (i)-(vi) item attested.
    The conditions apply only to an IRA "maintained by the Employer or any Affiliate"."""
    if not maintained_by_employer:
        t = Trace().add(
            "IRA not maintained by the Employer or an Affiliate: the (i)-(vii) conditions do not apply",
            section="Carver ESOP §10.6(b)",
            result=True,
            applied=False,
        )
        return True, (), t
    missing = tuple(k for k in IRA_CONDITIONS if not attestation.get(k, False))
    ok = not missing
    t = Trace().add(
        "Every condition for an Employer-maintained automatic-rollover IRA is attested",
        section="Carver ESOP §10.6(b)(i)-(vii)",
        result=ok,
        missing=[IRA_CONDITIONS[m] for m in missing],
    )
    return ok, missing, t
