"""CSV files for download: every cell a spreadsheet could read as a formula is written as text.

A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is run as a formula by
Excel, LibreOffice and Google Sheets (OWASP "CSV injection"): a committee note ``=HYPERLINK(...)``
would become a live link. Such a cell gets a leading apostrophe, which the spreadsheet shows as text.
Every CSV export writes its rows through ``SafeCsvWriter``.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable

FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")
# A plain signed number ("-1250.00") is a number, not a formula: it stays as it is.
PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)*(?:\.\d+)?%?")


def safe_cell(value: object) -> object:
    if isinstance(value, str) and value.startswith(FORMULA_LEADS) and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


class SafeCsvWriter:
    """``csv.writer`` whose rows have their formula-leading cells neutralised."""

    def __init__(self, stream):
        self._writer = csv.writer(stream)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([safe_cell(v) for v in row])
