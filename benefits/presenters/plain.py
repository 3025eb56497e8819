"""Engine text made fit for people: the words the engine writes for its own readers, cleaned.

The engine's rule names, sections and notes cite the analysts' labels for the plan text (SPEC, GAP-n,
AMBIG-n, "assumption A9"), name input keys ("setting vesting_schedule", "(assumptions.treasury_30y)")
and write dates as ISO. People read the plan's own sections and dates like "April 1, 2027": this
module drops the labels, turns keys into words and formats dates. It never changes a number.
"""

from __future__ import annotations

import re
from datetime import date

from benefits import formatting
from benefits.presenters.reading_words import reading_label, value_label

# One analyst label: "SPEC", "SPEC E3b", "SPEC Part B", "GAP-7", "GAP D2.1", "AMBIG-4: five breaks",
# "interpretation I", "assumption A9"; a label may run on as a list ("GAP D2.1, D2.14").
_ONE = (
    r"(?:SPEC(?:\s+(?:GAP|Part\s+[A-Z]\b|[A-Z]\d[\w.]*))*"
    r"|GAP[- ]?[A-Z]?\d[\w.]*"
    r"|AMBIG-\d+(?::[^;,)]*)?"
    r"|interpretation\s+[IVX]+\b"
    r"|assumption\s+[A-Z]?\d+\b)"
)
_LABELS = re.compile(
    rf"{_ONE}(?:\s*(?:,|and)\s*(?:{_ONE}|[A-Z]\d[\w.]*\b|[A-Z]\d+))*(?:\s+shows the effect)?"
)
_PAREN = re.compile(r"\(([^()]*)\)")
_POINTER = re.compile(r"\(?\b(?:assumptions|plan_data|participants|settings)(?:[./][\w-]+)+\)?")
_SETTING = re.compile(r"\bsetting ([a-z][a-z0-9]*(?:_[a-z0-9]+)+)")
_KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH = re.compile(r"\b(\d{4})-(\d{2})\b(?!-)")
_THE_SPEC = re.compile(r"\b(?:the|our)\s+SPEC\b")


def people_date(d: date) -> str:
    return formatting.date_words(d)


def _date(m: re.Match) -> str:
    try:
        return people_date(date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
    except ValueError:
        return m.group(0)


def _month(m: re.Match) -> str:
    year, month = int(m.group(1)), int(m.group(2))
    if 1 <= month <= 12 and 1900 <= year <= 2200:
        return f"{formatting.month_words(date(year, month, 1))}"
    return m.group(0)


def _clean_paren(m: re.Match) -> str:
    inner = _LABELS.sub("", m.group(1))
    parts = [p.strip(" ,:;") for p in re.split(r";", inner)]
    parts = [p for p in parts if p]
    return f"({'; '.join(parts)})" if parts else ""


# Where the engine's data came from, as the engine records it for the actuary ("transcribed in
# sources/x.csv", "equals SOA table 2801 (pymort)"): the published source stays, the file names go.
_DATA_FILE = re.compile(
    r";?\s*(?:transcribed in\s+)?(?:sources/)?[\w.-]+\.(?:csv|json)\b"
    r"|;?\s*equals SOA table \d+ \(pymort\) at ages \d+-\d+"
)


def plain_text(text: object) -> str:
    """``text`` without analyst labels, input keys or ISO dates (see the module's docstring)."""
    if text is None:
        return ""
    s = str(text)
    s = _POINTER.sub("", s)
    s = _DATA_FILE.sub("", s)
    s = _SETTING.sub(lambda m: f"the plan reading “{reading_label(m.group(1))}”", s)
    s = _THE_SPEC.sub("the analysis of the plan", s)
    # Labels inside parentheses go with their parentheses when nothing else is left; innermost first.
    for _ in range(3):
        s = _PAREN.sub(_clean_paren, s)
    s = _LABELS.sub("", s)
    s = _ISO.sub(_date, s)
    s = _MONTH.sub(_month, s)
    s = _KEY.sub(lambda m: value_label(m.group(0)), s)
    s = re.sub(r"\s+([.,;:)])", r"\1", s)
    s = re.sub(r"\(\s*\)", "", s)
    s = re.sub(r"\s{2,}", " ", s)
    return s.strip().rstrip(",;:").strip()
