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
