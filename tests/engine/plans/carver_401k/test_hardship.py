"""Hardship distributions and the post-hardship deferral rules: §7.4, §3.3 (SPEC §7, Example 8)."""

from datetime import date, timedelta
from decimal import Decimal as D

import pytest

from benefits.engine.plans.carver_401k.accounts import vest_accounts
from benefits.engine.plans.carver_401k.hardship import (
    EVIDENCE,
    HardshipReason,
    check_hardship_application,
    gross_up,
    hardship_available,
    hardship_sources,
    hardship_suspension,
)
from benefits.engine.plans.carver_401k.settings import BenefitSettings

# Participant J at the processing Valuation Date: 80% vested; $4,000 of Before-Tax is out on loan.
EX8 = {
    "before_tax": "14000.00",
    "rollover": "2500.00",
    "matching_pre2002": "4000.00",
    "matching_2002": "2000.00",
    "discretionary": "1000.00",
    "nonelective": "600.00",
}
LITERAL = BenefitSettings(hardship_excludes_safe_harbor=False)


def _available(settings=None):
    settings = settings or BenefitSettings()
    v = vest_accounts(EX8, D(80), settings=settings)
    return hardship_available(v, before_tax_contributions_made="12000", settings=settings)


def test_example8_gross_up_is_15000():
    # §7.4(c)(i), A14: 9,000 / (1 − 0.40).
    assert gross_up("9000", "0.40")[0] == D("15000.00")
    with pytest.raises(ValueError):
        gross_up("9000", "1")


def test_example8_available_conservative_18500():
    # §7.4(d), GAP-9: 12,000 + 2,500 + 3,200 + 0 + 800.
    a = _available()
    assert a.by_source == {
        "before_tax": D("12000.00"),
        "rollover": D("2500.00"),
        "matching_pre2002": D("3200.00"),
        "discretionary": D("800.00"),
    }
    assert a.total == D("18500.00")


def test_example8_available_literal_20500_and_with_nonelective_20980():
    assert _available(LITERAL).total == D("20500.00")
    both = BenefitSettings(hardship_excludes_safe_harbor=False, hardship_includes_nonelective=True)
    assert _available(both).total == D("20980.00")


def test_before_tax_is_contributions_not_earnings_and_capped_by_net_value():
    # A15: min(contributions − prior hardships, Net Value).
    v = vest_accounts({"before_tax": "5000"}, D(0))
    assert hardship_available(v, before_tax_contributions_made="12000").total == D("5000.00")
    assert hardship_available(
        v, before_tax_contributions_made="3000", prior_hardship_from_before_tax="1000"
    ).total == D("2000.00")


def test_example8_sources_in_order():
    # §7.4(e), A24: Before-Tax 12,000, Rollover 2,500, vested pre-2002 match 500.
    taken, _ = hardship_sources("15000", _available())
    assert taken == {"before_tax": D("12000.00"), "rollover": D("2500.00"), "matching_pre2002": D("500.00")}
    with pytest.raises(ValueError):
        hardship_sources("18500.01", _available())


def test_example8_vested_match_after_hardship_is_2700():
    # §4.1(d): AB 3,500, D 500 → 0.8 × 4,000 − 500.
    v = vest_accounts({"matching_pre2002": "3500"}, D(80), withdrawn={"matching_pre2002": "500"})
    assert v.vested("matching_pre2002") == D("2700.00")
    assert vest_accounts({"matching_pre2002": "3500"}, D(100), withdrawn={"matching_pre2002": "500"}).vested(
        "matching_pre2002"
    ) == D("3500.00")


def test_example8_suspension_and_next_year_limits():
    # §3.3: received 2003-05-15 → 12 months 2004-05-15; new agreement 2004-05-01 (+10 = 05-11);
    # biweekly periods from 2004-01-05 → first on or after both: 2004-05-24.
    starts = [date(2004, 1, 5) + timedelta(days=14 * k) for k in range(26)]
    s = hardship_suspension(
        received=date(2003, 5, 15),
        deferrals_in_hardship_year="3600",
        last_rate=8,
        new_agreement_filed=date(2004, 5, 1),
        payroll_period_starts=starts,
    )
    assert s.twelve_months_end == date(2004, 5, 15)
    assert s.resume_on == date(2004, 5, 24)
    assert s.next_year == 2004 and s.next_year_limit == D("9400.00")  # 13,000 − 3,600
    assert s.rate_cap == D(8) and s.rate_cap_until == date(2005, 5, 14)


def test_suspension_later_filing_controls():
    # §3.3(ii): filed 2004-06-01 → first period on/after 2004-06-11 is 2004-06-21.
    starts = [date(2004, 1, 5) + timedelta(days=14 * k) for k in range(26)]
    s = hardship_suspension(
        received=date(2003, 5, 15),
        deferrals_in_hardship_year="3600",
        last_rate=8,
        new_agreement_filed=date(2004, 6, 1),
        payroll_period_starts=starts,
    )
    assert s.resume_on == date(2004, 6, 21)


def test_no_suspension_under_current_law_setting():
    s = hardship_suspension(
        received=date(2021, 5, 15),
        deferrals_in_hardship_year="3600",
        last_rate=8,
        settings=BenefitSettings(hardship_suspends_deferrals=False),
    )
    assert not s.suspended and s.next_year_limit is None


def test_application_conditions():
    # §7.4(d): J, 45, applied 2003-05-05 for 2003-05-15, an outstanding loan (no loan available).
    ok = check_hardship_application(
        birth_date=date(1958, 4, 1), applied=date(2003, 5, 5), payment_date=date(2003, 5, 15), married=True
    )
    assert ok.allowed and ok.spousal_consent_required
    late = check_hardship_application(
        birth_date=date(1958, 4, 1), applied=date(2003, 5, 6), payment_date=date(2003, 5, 15), married=False
    )
    assert not late.allowed
    twice = check_hardship_application(
        birth_date=date(1958, 4, 1),
        applied=date(2003, 9, 1),
        payment_date=date(2003, 9, 15),
        married=False,
        prior_hardship_dates=[date(2003, 5, 15)],
    )
    assert not twice.allowed
    loan_first = check_hardship_application(
        birth_date=date(1958, 4, 1),
        applied=date(2003, 5, 5),
        payment_date=date(2003, 5, 15),
        married=False,
        loan_available="1000",
    )
    assert not loan_first.allowed
    # at 59½ the §7.3 withdrawal comes first
    older = check_hardship_application(
        birth_date=date(1940, 1, 1), applied=date(2003, 5, 5), payment_date=date(2003, 5, 15), married=False
    )
    assert not older.allowed


def test_every_reason_has_evidence():
    assert set(EVIDENCE) == set(HardshipReason)
