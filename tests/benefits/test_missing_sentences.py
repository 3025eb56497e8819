"""Portal sentences for partial results (issue 12 item 5): plain words, no pointers or keys."""

from benefits.presenters.missing import missing_sentences

RESULT = {
    "estimates": [{"commencement_date": "2027-04-01"}, {"commencement_date": "2029-04-01"}],
    "missing": [
        {
            "field": "/assumptions/segment_rates/2027-01",
            "message": "the §417(e)(3) segment rates for 2027-01 are needed and were not supplied",
            "blocks": ["/estimates/0/cash_out", "/estimates/0/forms/lump_sum"],
        },
        {"field": "/engine/mortality/417e", "message": "…", "blocks": ["/estimates/1/cash_out"]},
        {
            "field": "/participants/0/plan_data/social_security_amount",
            "message": "…",
            "blocks": ["/accrued_benefit"],
        },
    ],
}


def test_one_plain_sentence_per_missing_input():
    assert missing_sentences(RESULT) == [
        "We cannot show the small-benefit cash-out test for payments starting April 1, 2027 and the lump sum "
        "for payments starting April 1, 2027 yet: it needs the interest rates the IRS publishes for lump sums "
        "for January 2027.",
        "We cannot show the small-benefit cash-out test for payments starting April 1, 2029 yet: it needs the "
        "IRS mortality table for that date, which the calculator does not have.",
        "We cannot show the accrued benefit yet: it needs the Social Security Amount frozen at the Plan Freeze Date.",
    ]
    for sentence in missing_sentences(RESULT):
        assert "/" not in sentence.replace("§", "") and "_" not in sentence


def test_nothing_missing_says_nothing():
    assert missing_sentences({"estimates": []}) == [] and missing_sentences(None) == []


def test_a_figure_on_the_plans_rate_for_want_of_the_laws_rates_is_said_so():
    result = {
        "estimates": [{"commencement_date": "2027-03-01"}],
        "missing": [
            {
                "field": "/assumptions/segment_rates/2026-12",
                "message": "…",
                "blocks": [],
                "fallback": ["/estimates/0/relative_value_basis"],
            }
        ],
    }
    assert missing_sentences(result) == [
        "We show the comparison of payment forms for payments starting March 1, 2027 on the plan's own "
        "interest rate for now: the basis the law prescribes needs the interest rates the IRS publishes "
        "for lump sums for December 2026."
    ]


def _every_month(count: int, *, fallback: bool) -> dict:
    """A modeler result of ``count`` monthly start dates from March 1, 2027, each missing the segment
    rates of the month three before it (as the engine lists them)."""
    estimates, missing = [], []
    for i in range(count):
        year, month = 2027 + (i + 2) // 12, (i + 2) % 12 + 1
        rates_year, rates_month = (year, month - 3) if month > 3 else (year - 1, month + 9)
        estimates.append({"commencement_date": f"{year}-{month:02d}-01"})
        pointers = (
            {"blocks": [], "fallback": [f"/estimates/{i}/relative_value_basis"]}
            if fallback
            else {"blocks": [f"/estimates/{i}/relative_value_basis", f"/estimates/{i}/cash_out"]}
        )
        missing.append({"field": f"/assumptions/segment_rates/{rates_year}-{rates_month:02d}", **pointers})
    return {"estimates": estimates, "missing": missing}


def test_a_run_of_start_dates_each_missing_its_months_rates_is_one_sentence():
    result = _every_month(178, fallback=False)
    result["missing"].append(
        {"field": "/participants/0/plan_data/social_security_amount", "blocks": ["/accrued_benefit"]}
    )
    assert missing_sentences(result) == [
        "We cannot show the comparison of payment forms and the small-benefit cash-out test for the 178 "
        "start dates from March 1, 2027 to December 1, 2041 yet: they need the interest rates the IRS "
        "publishes for lump sums for months from December 2026 to September 2041.",
        "We cannot show the accrued benefit yet: it needs the Social Security Amount frozen at the Plan "
        "Freeze Date.",
    ]


def test_a_run_on_the_plans_own_rate_for_now_is_one_sentence():
    assert missing_sentences(_every_month(370, fallback=True)) == [
        "We show the comparison of payment forms for the 370 start dates from March 1, 2027 to "
        "December 1, 2057 on the plan's own interest rate for now: the basis the law prescribes needs "
        "the interest rates the IRS publishes for lump sums for months from December 2026 to "
        "September 2057."
    ]


def test_two_missing_months_keep_a_sentence_each():
    assert missing_sentences(_every_month(2, fallback=False)) == [
        "We cannot show the comparison of payment forms for payments starting March 1, 2027 and the "
        "small-benefit cash-out test for payments starting March 1, 2027 yet: it needs the interest "
        "rates the IRS publishes for lump sums for December 2026.",
        "We cannot show the comparison of payment forms for payments starting April 1, 2027 and the "
        "small-benefit cash-out test for payments starting April 1, 2027 yet: it needs the interest "
        "rates the IRS publishes for lump sums for January 2027.",
    ]
