"""Read an uploaded CSV or XLSX file into rows of text cells, refusing what cannot be read safely.

Every cell comes back as a stripped string (XLSX dates as ISO dates, numbers in their shortest exact
form), so each kind validates one representation. Formulas are refused: a spreadsheet formula is not
data, and a cell such as ``=HYPERLINK(...)`` must never be stored to be opened later in a spreadsheet.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal

MAX_ROWS = 500_000
# Caps that keep a file's check bounded whatever it holds (issue 26: one row of 4 million cells in a
# 118 KB workbook ran past the web server's timeout): cells a row (far more than any kind's columns),
# cells a file, and how far a workbook may unpack (a real one unpacks about 5-10 times; a zip bomb
# thousands of times).
MAX_COLUMNS = 100
MAX_CELLS = 5_000_000
MAX_XLSX_UNPACKED = 300 * 1024 * 1024
MAX_XLSX_RATIO = 100  # unpacked / packed, checked once the unpacked size passes 20 MB


@dataclass(frozen=True)
class Problem:
    """One error: the spreadsheet row (the header is row 1; 0 is the file itself), column and reason."""

    row: int
    column: str
    message: str

    def as_dict(self) -> dict:
        return {"row": self.row, "column": self.column, "message": self.message}


class FileRefused(Exception):
    """The file cannot be read as a table of this kind: nothing in it is imported."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


@dataclass(frozen=True)
class Table:
    headers: tuple[str, ...]
    rows: list[tuple[int, dict[str, str]]]  # (spreadsheet row number, column -> cell text)


def is_xlsx(file_name: str, content: bytes) -> bool:
    return file_name.lower().endswith(".xlsx") or content[:4] == b"PK\x03\x04"


def read_table(
    file_name: str, content: bytes, *, columns: tuple[str, ...], required: tuple[str, ...]
) -> Table:
    """The header and data rows, checked against the kind's columns (missing or unknown ones refuse it)."""
    raw = _xlsx_rows(content) if is_xlsx(file_name, content) else _csv_rows(content)
    header_cells = next(raw, None)
    if header_cells is None:
        raise FileRefused([Problem(0, "", "The file is empty: the first row must name the columns.")])
    _check_width(1, header_cells)
    headers = tuple(_header(c) for c in header_cells)
    while headers and headers[-1] == "":
        headers = headers[:-1]
    problems = []
    seen: set[str] = set()
    for h in headers:
        if h == "":
            problems.append(Problem(1, "", "A column has no name in the first row."))
        elif h in seen:
            problems.append(Problem(1, h, f"The column {h} appears twice."))
        elif h not in columns:
            problems.append(Problem(1, h, f"Unknown column {h}: the columns are {', '.join(columns)}."))
        seen.add(h)
    for name in required:
        if name not in seen:
            problems.append(Problem(1, name, f"The required column {name} is missing."))
    if problems:
        raise FileRefused(problems)
    rows: list[tuple[int, dict[str, str]]] = []
    cells_seen = len(header_cells)
    for number, cells in enumerate(raw, start=2):
        if len(rows) >= MAX_ROWS:
            raise FileRefused([Problem(number, "", f"The file has more than {MAX_ROWS:,} rows; split it.")])
        _check_width(number, cells)
        cells_seen += len(cells)
        if cells_seen > MAX_CELLS:
            raise FileRefused([Problem(number, "", f"The file has more than {MAX_CELLS:,} cells; split it.")])
        values = [_cell(c) for c in cells]
        if not any(values):
            continue  # blank lines are not rows
        extra = values[len(headers) :]
        if any(extra):
            raise FileRefused([Problem(number, "", "This row has more cells than the header has columns.")])
        rows.append((number, {h: (values[i] if i < len(values) else "") for i, h in enumerate(headers)}))
    return Table(headers, rows)


def _check_width(number: int, cells) -> None:
    if len(cells) > MAX_COLUMNS and any(c not in (None, "") for c in cells[MAX_COLUMNS:]):
        raise FileRefused(
            [
                Problem(
                    number,
                    "",
                    f"This row has more than {MAX_COLUMNS} cells: no kind of file has that many columns.",
                )
            ]
        )


def _check_unpacked_size(content: bytes) -> None:
    """Refuse a workbook that would unpack too far before any of it is parsed."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # openpyxl reports an unreadable workbook in its own words below
    too_far = unpacked > MAX_XLSX_UNPACKED or (
        unpacked > 20 * 1024 * 1024 and unpacked > MAX_XLSX_RATIO * max(len(content), 1)
    )
    if too_far:
        raise FileRefused(
            [
                Problem(
                    0,
                    "",
                    f"The workbook unpacks to {unpacked // (1024 * 1024):,} MB from "
                    f"{max(len(content) // 1024, 1):,} KB: more than a data file holds. Save the sheet "
                    "again, or as CSV.",
                )
            ]
        )


def _header(cell: object) -> str:
    return _cell(cell).lower().replace(" ", "_")


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time(0) else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float):
        text = format(Decimal(repr(value)).normalize(), "f")
        return text[:-2] if text.endswith(".0") else text
    return str(value).strip()


def _csv_rows(content: bytes):
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileRefused(
            [
                Problem(
                    0, "", f"The file is not UTF-8 text (byte {exc.start + 1}); save it as CSV UTF-8 or XLSX."
                )
            ]
        ) from None
    if "\x00" in text:
        raise FileRefused([Problem(0, "", "The file contains NUL characters: it is not a CSV file.")])
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        yield from reader
    except csv.Error as exc:
        raise FileRefused([Problem(reader.line_num, "", f"The CSV file is malformed: {exc}.")]) from None


def _xlsx_rows(content: bytes):
    from openpyxl import load_workbook

    _check_unpacked_size(content)
    try:
        book = load_workbook(io.BytesIO(content), read_only=True, data_only=False)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError, IndexError) as exc:
        raise FileRefused(
            [Problem(0, "", f"The file is not a readable XLSX workbook ({type(exc).__name__}).")]
        ) from None
    except Exception as exc:  # openpyxl raises many types on corrupt files; none of them is a server error
        raise FileRefused(
            [Problem(0, "", f"The file is not a readable XLSX workbook ({type(exc).__name__}).")]
        ) from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            raise FileRefused([Problem(0, "", "The workbook has no sheet.")])
        # Cells past the cap are not read into the row: one extra tells "too wide" (``_check_width``).
        for number, row in enumerate(sheet.iter_rows(max_col=MAX_COLUMNS + 1), start=1):
            cells = []
            for cell in row:
                if getattr(cell, "data_type", None) == "f":
                    column = getattr(cell, "column_letter", "")
                    raise FileRefused(
                        [Problem(number, column, "Formulas are not accepted: paste the values instead.")]
                    )
                cells.append(cell.value)
            yield cells
    except FileRefused:
        raise
    except Exception as exc:
        raise FileRefused(
            [Problem(0, "", f"The file is not a readable XLSX workbook ({type(exc).__name__}).")]
        ) from None
    finally:
        book.close()
