"""Engine text made fit for people (issue 14 items 1, 2, 7): labels, keys, dates, money, factors, "you"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from benefits.engine_adapter import plan_readings
from benefits.models import AuditEvent, Plan
from benefits.presenters.audit_log import PAGE_SIZE, event_name
from benefits.presenters.plain import plain_text
from benefits.presenters.reading_words import READING_LABELS
from benefits.presenters.readings import readings_in_words
from benefits.presenters.traces import FACTOR_PLACES, addressed, plain_value, presented
from tests.conftest import enroll_totp, login_with_totp
from tests.factories import UserFactory


@pytest.mark.parametrize(
    "engine_text, people_text",
    [
        (
            "Vesting (Carver ESOP (base plan not provided; SPEC GAP D2.1))",
            "Vesting (Carver ESOP (base plan not provided))",
        ),
        ("Quaker §1.63 (AMBIG-4: five consecutive breaks)", "Quaker §1.63"),
        ("Carver 401(k) §1.21 (GAP-20)", "Carver 401(k) §1.21"),
        (
            "Service stops at the Plan Freeze Date (GAP-1, interpretation I)",
            "Service stops at the Plan Freeze Date",
        ),
        ("factor counts no time after 12/31/2000 (GAP-7).", "factor counts no time after 12/31/2000."),
        (
            "Treasury rate for 2026-11 (assumptions.treasury_30y_monthly.2026-11) is missing",
            "Treasury rate for November 2026 is missing",
        ),
        ("reached about 2026-06-25", "reached about June 25, 2026"),
        (
            "setting vesting_schedule is an assumed default",
            "the plan reading “Vesting schedule” is an assumed default",
        ),
        ("Result: six_year_graded", "Result: six-year graded"),
        # A table's source names the IRS notice; the engine's file names are for the actuary only.
        (
            "IRS Notice 2008-85, as published (public domain); transcribed in "
            "sources/irs-417e-applicable-mortality-published-2008-2024.csv; equals SOA table 3166 "
            "(pymort) at ages 15-120",
            "IRS Notice 2008-85, as published (public domain)",
        ),
    ],
)
def test_plain_text_keeps_the_plans_sections_and_drops_the_analysts_labels(engine_text, people_text):
    assert plain_text(engine_text) == people_text


def test_plain_text_never_changes_a_number():
    for text in ("$2,394.07", "§3.1(A)(2)(b)", "46272.286667", "12/31/2000", "Plan Year 2026"):
        assert plain_text(text) == text


def test_trace_money_is_shown_to_the_cent_and_factors_to_the_stated_places():
    # 46272.286667 is the figure the issue found on a page; money rounds half up to the cent. The type
    # comes from the engine (input_types / result_type), never from the words around the number.
    money, factor2 = {"kind": "money", "places": 2}, {"kind": "factor", "places": 2}
    assert plain_value("46272.286667", money) == "$46,272.29"
    assert plain_value("1234.565", money) == "$1,234.57"
    assert plain_value("-12.5", money) == "-$12.50"
    assert plain_value("0.9", factor2) == "0.90"
    assert plain_value("0.123456789", {"kind": "factor", "places": 6}) == "0.123457"
    assert plain_value("0.0583", {"kind": "rate"}) == "5.83%"
    assert plain_value("80", {"kind": "percent"}) == "80%"
    assert plain_value("12.34567", {"kind": "shares", "places": 4}) == "12.3457"
    assert plain_value("49.0027", {"kind": "age"}) == "49"
    assert plain_value(226, {"kind": "count"}) == "226"
    assert plain_value(2045, {"kind": "year"}) == "2045"
    # The word "benefit" does not make a factor money, nor "factor" make money a factor.
    assert plain_value("0.97", factor2) == "0.97"
    assert plain_value({"1991": "41000.00", "1992": "42500.5"}, money) == "1991: $41,000.00; 1992: $42,500.50"
    # A number without a type (a result stored before the engine typed its values) never shows more
    # than FACTOR_PLACES places.
    assert plain_value("0.123456789", context="ratio") == "0.123457"
    assert FACTOR_PLACES == 6
    assert plain_value("2023-05-01", {"kind": "date"}) == "May 1, 2023"
    assert plain_value(True) == "yes"


def test_presented_shows_only_the_steps_that_applied():
    steps = presented(
        [
            {"rule": "Amount (A)", "result": "19650.000", "applied": True,
             "result_type": {"kind": "money", "places": 2}},
            {"rule": "No top-heavy minimum: the plan was never Top-Heavy for him", "result": "0",
             "applied": False, "result_type": {"kind": "money", "places": 2}},
        ]
    )  # fmt: skip
    assert [s["rule"] for s in steps] == ["Amount (A)"]
    assert steps[0]["result"] == "$19,650.00"


def test_trace_speaks_to_the_participant_or_names_them_for_staff():
    rule = "the plan was never Top-Heavy for him, or he is a Key Employee; his benefit"
    assert addressed(rule) == "the plan was never Top-Heavy for you, or you are a Key Employee; your benefit"
    assert (
        addressed(rule, "Pat")
        == "the plan was never Top-Heavy for Pat, or Pat is a Key Employee; Pat's benefit"
    )


def test_presented_steps_have_no_keys_or_labels():
    steps = presented(
        [
            {
                "rule": "Projected Credited Service (GAP-1, interpretation I)",
                "section": "§3.1(A)(2)(b)(ii) (SPEC GAP D2.1)",
                "inputs": {"final_earnings": "54300.00", "nrd": "2023-05-01", "vested_percent": "100"},
                "input_types": {
                    "final_earnings": {"kind": "money", "places": 2},
                    "nrd": {"kind": "date"},
                    "vested_percent": {"kind": "percent"},
                },
                "result": "19650.000",
            }
        ]
    )
    (step,) = steps
    assert step["rule"] == "Projected Credited Service"
    assert step["section"] == "§3.1(A)(2)(b)(ii)"
    assert step["inputs"] == [
        ("final earnings", "$54,300.00"),
        ("normal retirement date", "May 1, 2023"),
        ("vested percent", "100%"),
    ]


@pytest.mark.django_db
def test_every_plan_reading_has_a_label_and_no_key_type_or_label_in_its_words():
    from tests.test_plain_words import jargon_in

    for key in ("carver-db", "quaker-cash-balance", "carver-401k", "fairport-esop", "carver-esop"):
        plan = Plan(key=key, name=key, settings={})
        for r in readings_in_words(plan_readings(plan)):
            assert r.name in READING_LABELS, f"{key}: {r.name} has no label"
            words = " ".join(
                [r.label, r.explanation, r.other_reading, r.value_words, r.input_hint, r.section_words]
            )
            assert not jargon_in(words), (key, r.name, jargon_in(words))


@pytest.fixture
def admin_client(client, db):
    admin = UserFactory(role=User.Role.ADMINISTRATOR)
    enroll_totp(admin)
    assert login_with_totp(client, admin).status_code == 302
    return client, admin


def _event(event_type, *, who=None, days_ago=0, **extra):
    from django.utils import timezone

    e = AuditEvent.objects.create(
        event_time=timezone.now() - timedelta(days=days_ago),
        event_type=event_type,
        acting_user=who,
        summary=f"{event_type} happened",
        extra_data=extra,
    )
    return e


def test_audit_log_shows_human_names_old_and_new_values_and_filters(admin_client):
    client, admin = admin_client
    _event(
        "plan.reading_changed",
        who=admin,
        plan="carver-db",
        setting="parity_rule",
        old="erisa_parity",
        new="five_breaks_only",
    )
    _event("claim.deny", days_ago=10, from_state="under_review", to_state="denied")
    page = client.get(reverse("benefits:audit_log")).content.decode()
    assert "Plan reading changed" in page and "When service before a break in service is lost" in page
    assert "lost after five breaks in a row" in page  # the new value, in words
    assert "Claim denied" in page and "under review" in page and ">plan.reading_changed<" not in page
    # Filters: what, plan, who, dates.
    only = client.get(reverse("benefits:audit_log"), {"what": "claim.deny"}).content.decode()
    assert "Claim denied" in only and "Plan reading changed</td>" not in only
    by_plan = client.get(reverse("benefits:audit_log"), {"plan": "carver-db"}).content.decode()
    assert "Plan reading changed" in by_plan and "Claim denied</td>" not in by_plan
    by_who = client.get(reverse("benefits:audit_log"), {"who": admin.email[:5]}).content.decode()
    assert "Claim denied</td>" not in by_who
    start = (timezone.localdate() - timedelta(days=3)).isoformat()
    recent = client.get(reverse("benefits:audit_log"), {"start": start}).content.decode()
    assert "Claim denied</td>" not in recent
    bad = client.get(reverse("benefits:audit_log"), {"start": "April 1"}).content.decode()
    assert "From: enter a real date, for example April 1, 2026." in bad


def test_audit_log_pages_and_exports_every_matching_event_as_csv(admin_client):
    client, admin = admin_client
    # The log is append-only (the sign-in is in it too): count only this test's events.
    for _ in range(PAGE_SIZE + 5):
        _event("quote.saved", who=admin)
    first = client.get(reverse("benefits:audit_log"), {"what": "quote.saved"}).content.decode()
    assert f"{PAGE_SIZE + 5} events; page 1 of 2" in first and "Older events" in first
    second = client.get(reverse("benefits:audit_log"), {"what": "quote.saved", "page": 2}).content.decode()
    assert second.count("Retirement quote saved</td>") == 5
    response = client.get(reverse("benefits:audit_log"), {"format": "csv", "what": "quote.saved"})
    assert response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().strip().splitlines()
    assert len(lines) == PAGE_SIZE + 5 + 1 and lines[0].startswith("time,event,event type,by")


def test_an_unknown_event_type_is_still_words():
    assert event_name("benefit_election.consent_witnessed") == "Benefit election consent witnessed"


def test_audit_log_is_for_administrators_only(client, db):
    committee = UserFactory(role=User.Role.COMMITTEE)
    enroll_totp(committee)
    login_with_totp(client, committee)
    assert client.get(reverse("benefits:audit_log"), {"format": "csv"}).status_code == 403


def test_share_counts_keep_only_the_decimals_that_matter():
    from decimal import Decimal

    from benefits.presenters.account_statements import shares_str

    assert shares_str(Decimal("1250.0000")) == "1,250"
    assert shares_str(Decimal("1250.5000")) == "1,250.5"
    assert shares_str(Decimal("0.1234")) == "0.1234"
    assert shares_str(Decimal("0")) == "0"


def test_every_examples_trace_shows_money_to_the_cent_and_no_long_raw_numbers():
    """Every trace of every example participant, as a person reads it: money with "$" to the cent, no
    46272.286667-style figure, no step that did not apply."""
    import json
    import re
    from pathlib import Path

    from benefits.engine.request import calculate_request
    from benefits.presenters.traces import trace_steps

    raw = re.compile(r"-?\$?\d{2,}(?:,\d{3})*\.\d{3,}")  # a whole value like 46272.286667
    examples = Path(__file__).resolve().parents[2] / "examples"
    seen_money = 0
    for path in sorted(examples.glob("*.json")):
        for result in calculate_request(json.loads(path.read_text()))["results"]:
            for key in result.get("traces") or {}:
                engine_steps = trace_steps(result, key)
                applied = [s for s in engine_steps if s.get("applied") is not False]
                assert len(presented(engine_steps)) <= len(applied)  # reads of one value grouped
                shown = [presented([s])[0] for s in applied]  # each step alone, to pair it with its types
                for engine, person in zip(applied, shown, strict=True):
                    kinds = engine.get("input_types") or {}
                    shown_keys = ["source"] if "for_date" in engine["inputs"] else engine["inputs"]
                    types = [engine.get("result_type"), *(kinds.get(k) for k in shown_keys)]
                    values = [person["result"], *(v for _, v in person["inputs"])]
                    for text, kind in zip(values, types, strict=True):
                        if (kind or {}).get("kind") in ("shares", "factor"):
                            continue  # shown to the places the plan states (checked in the unit test above)
                        assert not raw.fullmatch(text), (path.name, key, person["rule"], text)
                    money = (engine.get("result_type") or {}).get("kind") == "money"
                    if money and isinstance(engine["result"], str):
                        assert re.fullmatch(r"-?\$\d{1,3}(,\d{3})*\.\d\d", person["result"]), person
                        seen_money += 1
    assert seen_money > 100


def _read(year: int, value: str, source: str) -> dict:
    """A read step as the engine writes it (benefits/engine/trace.py read_step)."""
    return {
        "rule": f"Annual compensation limit of IRC §401(a)(17) in force on {year}-01-01 (from {year}-01-01)",
        "section": "26 U.S.C. §401(a)(17)",
        "inputs": {
            "parameter": "irs_401a17_compensation_limit",
            "for_date": f"{year}-01-01",
            "in_force_from": f"{year}-01-01",
            "source": source,
            "estimate": False,
        },
        "result": value,
        "result_type": {"kind": "money", "places": 2},
        "applied": True,
    }


def test_a_read_shows_its_value_and_source_not_the_engines_bookkeeping():
    (step,) = presented([_read(2004, "205000", "IRS cost-of-living limits for 2004")])
    assert (
        step["rule"]
        == "Annual compensation limit of IRC §401(a)(17) in force on January 1, 2004 (from January 1, 2004)"
    )
    assert step["inputs"] == [("Source", "IRS cost-of-living limits for 2004")]
    assert step["result"] == "$205,000.00"


def test_reads_of_one_value_year_after_year_are_one_step_with_a_line_per_year():
    limits = {2001: "170000", 2002: "200000", 2003: "200000", 2004: "205000"}
    steps = [
        _read(y, v, f"IRS cost-of-living limits for {y}; cross-checked (2003-2025)")
        for y, v in limits.items()
    ]
    after = {
        "rule": "Plan Year 2004: balance",
        "result": "10.00",
        "result_type": {"kind": "money", "places": 2},
    }
    grouped, last = presented([*steps, after])
    assert grouped["rule"] == "Annual compensation limit of IRC §401(a)(17), for each year used"
    assert grouped["inputs"] == [
        ("2001", "$170,000.00"),
        ("2002–2003", "$200,000.00"),  # equal neighbouring years joined
        ("2004", "$205,000.00"),
        ("Source", "IRS cost-of-living limits for 2001–2004; cross-checked (2003-2025)"),
    ]
    assert grouped["result"] == "—" and last["rule"] == "Plan Year 2004: balance"
    # Two reads in a row stay two steps; a different value in between breaks the run.
    assert len(presented(steps[:2])) == 2


def test_a_ledger_credits_working_shows_amounts_as_money_and_rates_as_they_are():
    from benefits.templatetags.plain_words import plain_money

    assert plain_money("475034.76 × 1.0225% (one quarter of the Treasury Rate 4.09%)") == (
        "$475,034.76 × 1.0225% (one quarter of the Treasury Rate 4.09%)"
    )
    assert plain_money("5% × 54300.00 (pay for 2001)") == "5% × $54,300.00 (pay for 2001)"
