"""Beneficiary designation rules and the MDIB limit, worked from the law and the plans' texts (no Django)."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.beneficiaries import (
    BeneficiaryRules,
    Named,
    consent_reasons,
    designation_problems,
    qpsa_waiver_opens,
)
from benefits.engine.mdib import applicable_percentage, incidental_limit
from benefits.engine.plans import PLANS

ON = date(2026, 11, 21)
RULES = BeneficiaryRules(
    default_order=("Your spouse.", "Your estate."),
    default_source="Plan",
    spouse_default=True,
    consent_source="Plan §X",
)
SPOUSE = "Jordan Morgan"


def person(name, percent, kind="primary", relationship="child", **kw):
    return Named(
        kind=kind,
        entity="person",
        name=name,
        relationship=relationship,
        percent=str(percent),
        birth_date=kw.get("birth_date", "1990-05-01"),
        address=kw.get("address", "1 Main Street, Springfield"),
    )


# ------------------------------------------------------------------------------------ designations


def test_primary_shares_must_add_up_to_100_and_contingent_shares_too():
    rows = [person("Sam Morgan", "60"), person("Lee Morgan", "30")]
    assert (
        "add up to 100% (they add up to 90"
        in designation_problems(rows, RULES, on=ON, spouse_name="")["primary"]
    )
    rows = [
        person("Sam Morgan", "60"),
        person("Lee Morgan", "40"),
        person("Kim Park", "50", kind="contingent"),
    ]
    assert "contingent" in designation_problems(rows, RULES, on=ON, spouse_name="")
    rows = [person("Sam Morgan", "33.33"), person("Lee Morgan", "33.33"), person("Kim Park", "33.34")]
    assert designation_problems(rows, RULES, on=ON, spouse_name="") == {}


def test_each_row_names_its_field_and_the_rule():
    rows = [person("Sam Morgan", "100.001", birth_date="2030-01-01", address="")]
    problems = designation_problems(rows, RULES, on=ON, spouse_name="")
    assert set(problems) >= {"row-1-percent", "row-1-birth_date", "row-1-address"}
    assert problems["row-1-birth_date"].startswith("Beneficiary 1:")
    trust = Named(
        kind="primary", entity="trust", name="Morgan Family Trust", relationship="trust", percent="100"
    )
    problems = designation_problems([trust], RULES, on=ON, spouse_name="")
    assert set(problems) == {"row-1-trustee", "row-1-trust_date"}
    assert designation_problems([], RULES, on=ON, spouse_name="") == {
        "primary": "Primary beneficiaries: name at least one."
    }


def test_a_spouse_row_must_be_the_spouse_of_record():
    rows = [person("Casey Smith", "100", relationship="spouse")]
    assert "row-1-relationship" in designation_problems(rows, RULES, on=ON, spouse_name=SPOUSE)
    rows = [person("jordan  morgan", "100", relationship="spouse")]
    assert designation_problems(rows, RULES, on=ON, spouse_name=SPOUSE) == {}


def test_quaker_takes_only_natural_persons_section_1_6():
    quaker = PLANS["quaker-cash-balance"].beneficiary_rules
    estate = Named(kind="primary", entity="estate", name="My estate", relationship="estate", percent="100")
    assert (
        "natural person (Plan §1.6)"
        in designation_problems([estate], quaker, on=ON, spouse_name="")["row-1-entity"]
    )
    fairport = PLANS["fairport-esop"].beneficiary_rules
    assert designation_problems([estate], fairport, on=ON, spouse_name="") == {}


def test_consent_is_needed_unless_the_spouse_is_the_sole_primary_beneficiary():
    spouse_alone = [person(SPOUSE, "100", relationship="spouse")]
    assert consent_reasons(spouse_alone, RULES, married=True, spouse_name=SPOUSE) == []
    # Contingent beneficiaries take only if the spouse has died first: no consent (§417(a)(2) protects the spouse).
    with_contingent = [*spouse_alone, person("Sam Morgan", "100", kind="contingent")]
    assert consent_reasons(with_contingent, RULES, married=True, spouse_name=SPOUSE) == []
    shared = [person(SPOUSE, "50", relationship="spouse"), person("Sam Morgan", "50")]
    [reason] = consent_reasons(shared, RULES, married=True, spouse_name=SPOUSE)
    assert "Sam Morgan" in reason and "Plan §X" in reason
    child = [person("Sam Morgan", "100")]
    assert consent_reasons(child, RULES, married=True, spouse_name=SPOUSE)
    assert consent_reasons(child, RULES, married=False, spouse_name="") == []


def test_which_plans_take_designations_and_their_defaults():
    assert PLANS["carver-db"].beneficiary_rules is None  # designations only inside an election (SPEC §10)
    assert PLANS["carver-esop"].beneficiary_rules is None  # base plan's beneficiary article missing (D2.1)
    k401 = PLANS["carver-401k"].beneficiary_rules
    assert k401.spouse_default and k401.waives_qpsa and "estate" in k401.default_order[-1]
    assert "heirs at law" in PLANS["quaker-cash-balance"].beneficiary_rules.default_order[-1]
    assert not PLANS["fairport-esop"].beneficiary_rules.waives_qpsa  # outside §401(a)(11) (§10.10)


def test_qpsa_waiver_period_opens_on_january_1_of_the_year_of_35_or_at_separation():
    # Born July 15, 1992: 35 on July 15, 2027, so the period opens January 1, 2027 (Code §417(a)(6)(B)).
    assert qpsa_waiver_opens(date(1992, 7, 15), None) == date(2027, 1, 1)
    # Born January 1, 1992: the same plan year, so also January 1, 2027.
    assert qpsa_waiver_opens(date(1992, 1, 1), None) == date(2027, 1, 1)
    # Born December 31, 1991: 35 in 2026, so January 1, 2026.
    assert qpsa_waiver_opens(date(1991, 12, 31), None) == date(2026, 1, 1)
    # Separated at 30: no later than the separation.
    assert qpsa_waiver_opens(date(1992, 7, 15), date(2022, 3, 1)) == date(2022, 3, 1)
    assert qpsa_waiver_opens(date(1992, 7, 15), date(2028, 3, 1)) == date(2027, 1, 1)


# ------------------------------------------------------------------------------------ MDIB


def test_mdib_table_values_treas_reg_1_401a9_6_qa_2c():
    assert [applicable_percentage(d) for d in (0, 10, 11, 12, 20, 30, 43, 44, 60)] == [
        100, 100, 96, 93, 73, 60, 53, 52, 52,
    ]  # fmt: skip


def test_mdib_table_every_row_treas_reg_1_401a9_6_qa_2c2():
    """Every row of the Q&A-2(c)(2) table as the regulation prints it: adjusted employee/beneficiary
    age difference → applicable percentage (10 years and under 100%; 44 years and over 52%)."""
    printed = (
        "11 96 12 93 13 90 14 87 15 84 16 82 17 79 18 77 19 75 20 73 21 72 22 70 23 68 24 67 25 66 "
        "26 64 27 63 28 62 29 61 30 60 31 59 32 59 33 58 34 57 35 56 36 56 37 55 38 55 39 54 40 54 "
        "41 53 42 53 43 53"
    )
    numbers = [int(n) for n in printed.split(" ")]
    rows = dict(zip(numbers[::2], numbers[1::2], strict=True))
    assert sorted(rows) == list(range(11, 44))
    for d in range(0, 11):
        assert applicable_percentage(d) == 100, d
    for d, expected in rows.items():
        assert applicable_percentage(d) == expected, d
    for d in (44, 45, 60, 90):
        assert applicable_percentage(d) == 52, d


def test_mdib_worked_examples():
    # Employee born 1961, ASD December 1, 2026: age 65 that year; beneficiary born 1996: 30.
    # Difference 35, reduced by 70 − 65 = 5 years → 30 → 60% (Q&A-2(c)(1) and the table).
    limit = incidental_limit(date(1961, 8, 10), date(1996, 2, 3), date(2026, 12, 1))
    assert (limit.employee_age, limit.beneficiary_age, limit.age_difference) == (65, 30, 35)
    assert (limit.adjusted_difference, limit.max_percent) == (30, 60)
    # At 70 or older there is no reduction: 71 and 41 → 30 → 60%.
    assert incidental_limit(date(1955, 1, 1), date(1985, 1, 1), date(2026, 6, 1)).max_percent == 60
    # Age 70 in 2026 and a beneficiary 11 years younger → 96%; 10 years younger → 100%.
    assert incidental_limit(date(1956, 12, 31), date(1967, 1, 1), date(2026, 1, 1)).max_percent == 96
    assert incidental_limit(date(1956, 12, 31), date(1966, 1, 1), date(2026, 1, 1)).max_percent == 100
    # At 62 a child 20 years younger: 20 − 8 = 12 → 93%.
    assert incidental_limit(date(1964, 5, 5), date(1984, 5, 5), date(2026, 7, 1)).max_percent == 93
    # An older beneficiary never limits: 100%.
    assert incidental_limit(date(1964, 5, 5), date(1950, 5, 5), date(2026, 7, 1)).max_percent == 100


@given(st.integers(min_value=-20, max_value=90))
def test_mdib_percentage_never_rises_with_the_age_difference(d):
    assert 52 <= applicable_percentage(d) <= 100
    assert applicable_percentage(d + 1) <= applicable_percentage(d)


@given(
    st.dates(date(1930, 1, 1), date(1975, 12, 31)),
    st.dates(date(1930, 1, 1), date(2010, 12, 31)),
    st.integers(2000, 2060),
)
def test_mdib_reads_only_the_calendar_year_of_the_asd(employee, beneficiary, year):
    jan = incidental_limit(employee, beneficiary, date(year, 1, 1))
    dec = incidental_limit(employee, beneficiary, date(year, 12, 1))
    assert jan == dec
