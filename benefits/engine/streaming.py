"""The command line's output written as it is computed, and census files read as JSON Lines.

``write_response`` writes the same JSON as ``json.dump(run(request))`` (byte for byte), but each
result is serialised with ``json.dumps`` (the C encoder) and written as soon as it is computed, so
nothing holds the whole response. ``calculate_jsonl`` reads a JSON Lines census: the first line is the
request without ``participants``, then one participant a line; it writes one result a line. Its memory
does not grow with the number of participants (docs/engine-cli.md, *Large censuses*).

A malformed request still exits 2 with nothing on standard output: a JSON Lines file is checked
whole (every line decoded and parsed) before the first result is calculated, and read again to
calculate; standard input is first copied to a temporary file for that.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Any, TextIO

from .request import (
    Request,
    RequestError,
    iter_results,
    parse_header,
    parse_one,
    response_header,
    result_for,
)


def write_response(request: Request, out: TextIO, results: Iterable[dict[str, Any]] | None = None) -> None:
    """``{"plan", "as_of", "engine_version", "results": [...]}`` with each result written when ready."""
    head = json.dumps(response_header(request), ensure_ascii=False)
    out.write(head[:-1] + ', "results": [')
    for i, result in enumerate(iter_results(request) if results is None else results):
        if i:
            out.write(", ")
        out.write(json.dumps(result, ensure_ascii=False))
    out.write("]}\n")


def _decode(line: str, pointer: str, lineno: int) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise RequestError(pointer, f"not JSON ({exc.msg}, line {lineno} column {exc.colno})") from None


def _participant_lines(fh: IO[str]) -> Iterator[tuple[int, int, str]]:
    """(participant index, line number, text) for each non-blank line after the first."""
    index = 0
    for lineno, line in enumerate(fh, start=2):
        if line.strip():
            yield index, lineno, line
            index += 1


def _header(fh: IO[str]) -> Request:
    first = fh.readline()
    if not first.strip():
        raise RequestError("", "the first line must be the request without participants (a JSON object)")
    return parse_header(_decode(first, "", 1), participants=False)


def check_jsonl(fh: IO[str]) -> int:
    """Parse every line without calculating (RequestError on the first malformed one); the count."""
    request = _header(fh)
    count = 0
    for index, lineno, line in _participant_lines(fh):
        parse_one(_decode(line, f"/participants/{index}", lineno), index, request.as_of)
        count += 1
    return count


def write_jsonl(fh: IO[str], out: TextIO) -> int:
    """One result a line, each written as soon as it is computed; the count."""
    request = _header(fh)
    count = 0
    for index, lineno, line in _participant_lines(fh):
        item = parse_one(_decode(line, f"/participants/{index}", lineno), index, request.as_of)
        out.write(json.dumps(result_for(request, item, index), ensure_ascii=False))
        out.write("\n")
        count += 1
    return count


def calculate_jsonl(path: str, stdin: TextIO, out: TextIO) -> int:
    """Check the whole census, then calculate it (raises RequestError before writing anything)."""
    if path == "-":
        with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
            shutil.copyfileobj(stdin, spool)
            spool.seek(0)
            check_jsonl(spool)
            spool.seek(0)
            return write_jsonl(spool, out)
    with open(path, encoding="utf-8") as fh:
        check_jsonl(fh)
    with open(path, encoding="utf-8") as fh:
        return write_jsonl(fh, out)
