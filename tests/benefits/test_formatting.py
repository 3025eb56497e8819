"""The one formatting module (issue 23 item 5): every amount, percent, share count and date a page,
PDF or message prints goes through ``benefits.formatting``; expected texts are the US conventions
the product states in its module docstring ("-$1,234.50", "April 1, 2027")."""

from datetime import UTC, date, datetime
from decimal import Decimal as D

import pytest
from django.template import Context, Template

from benefits import formatting as f


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (D("-1234.5"), "-$1,234.50"),
        (D("-0.004"), "$0.00"),  # rounds to zero: never "-$0.00"
        (D("0"), "$0.00"),
        (0, "$0.00"),
        (D("12345678.905"), "$12,345,678.91"),  # half up
        (D("5E+1"), "$50.00"),
        (D("1.2E+7"), "$12,000,000.00"),
        ("1234.5", "$1,234.50"),
        ("-1234.5", "-$1,234.50"),
        (None, ""),
        ("", ""),
    ],
)
def test_money(value, text):
    assert f.money(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (D("5E+1"), "50%"),
        (D("50"), "50%"),
        (D("2.50"), "2.5%"),
        (D("1.0225"), "1.0225%"),
        (D("0"), "0%"),
        (D("-3.25"), "-3.25%"),
        (D("100.000000"), "100%"),
        ("62.5", "62.5%"),
    ],
)
def test_percent(value, text):
    assert f.percent(value) == text


def test_rate_percent_from_a_fraction():
    assert f.rate_percent(D("0.0525")) == "5.25%"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (D("1250"), "1,250.0000"),
        (D("5E+1"), "50.0000"),
        (D("1234567.12345"), "1,234,567.1235"),
        (D("0"), "0.0000"),
        (D("-100"), "-100.0000"),
    ],
)
def test_shares(value, text):
    assert f.shares(value) == text


def test_shares_with_their_dollar_value():
    # 1,250 shares at $42.00 = $52,500.00
    assert (
        f.shares_with_value(D("1250"), D("42"), date(2026, 12, 31))
        == "1,250.0000 shares, worth $52,500.00 at $42.00 a share (valued December 31, 2026)"
    )
    assert f.shares_with_value(D("10"), None) == "10.0000 shares"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (date(2027, 4, 1), "April 1, 2027"),
        (datetime(2027, 3, 3, 14, 5, tzinfo=UTC), "March 3, 2027"),
        ("2027-04-01", "April 1, 2027"),
        ("2027-04-01T10:00:00", "April 1, 2027"),
        ("not a date", "not a date"),
        (None, ""),
    ],
)
def test_date_words(value, text):
    assert f.date_words(value) == text


def test_month_moment_and_clock_words():
    assert f.month_words(date(2026, 12, 1)) == "December 2026"
    assert f.moment_words(datetime(2027, 4, 1, 14, 5, tzinfo=UTC)) == "April 1, 2027 at 2:05 p.m."
    assert f.moment_words(datetime(2027, 4, 1, 0, 0, tzinfo=UTC)) == "April 1, 2027 at 12:00 a.m."
    assert f.time_words(datetime(2027, 4, 1, 12, 30, tzinfo=UTC)) == "12:30 p.m."


def test_filters_are_available_to_every_template_without_a_load():
    t = Template("{{ a|money }} {{ p|percent }} {{ s|shares }} {{ d|day }} {{ d|month }}")
    out = t.render(Context({"a": D("-1234.5"), "p": D("5E+1"), "s": D("5E+1"), "d": date(2027, 4, 1)}))
    assert out == "-$1,234.50 50% 50.0000 April 1, 2027 April 2027"


def test_no_template_formats_money_or_dates_its_own_way():
    """Templates print through the filters: no floatformat/intcomma money, no inline date formats
    other than the ISO form used in URLs and date inputs."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2] / "templates"
    bad = []
    for p in root.rglob("*.html"):
        s = p.read_text()
        for m in re.finditer(r"floatformat|intcomma|\|date:(\"|')(?!Y-m-d)|\$\{\{", s):
            bad.append(f"{p.relative_to(root)}: {s[max(0, m.start() - 30) : m.end() + 30]}")
    assert bad == []


def test_no_web_module_formats_money_or_dates_inline():
    """Outside the engine, money and dates print through benefits.formatting: no "${x:,.2f}" and no
    strftime month names in the web apps' code (a first-of-month phrase "{d:%B} 1" aside)."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    pattern = re.compile(r"\$\{[^}]*:,\.\d+f\}|:%B(?!\} 1,)|strftime\(\"%B")
    bad = []
    for app in ("accounts", "benefits", "elections", "payments", "taxes"):
        for p in (root / app).rglob("*.py"):
            rel = p.relative_to(root).as_posix()
            if rel.startswith("benefits/engine/") or rel == "benefits/formatting.py":
                continue
            for n, line in enumerate(p.read_text().splitlines(), 1):
                if pattern.search(line):
                    bad.append(f"{rel}:{n}: {line.strip()}")
    assert bad == []
