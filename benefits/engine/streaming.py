"""The command line's output written as it is computed, and census files read as JSON Lines.

``write_response`` writes the same JSON as ``json.dump(run(request))`` (byte for byte), but each
result is serialised with ``json.dumps`` (the C encoder) and written as soon as it is computed, so
nothing holds the whole response. ``calculate_jsonl`` reads a JSON Lines census: the first line is the
request without ``participants``, then one participant a line; it writes one result a line. Its memory
does not grow with the number of participants (docs/engine-cli.md, *Large censuses*).

Each line goes through the same hardened decoder as a whole request (``json_input``): bytes that are
not UTF-8, deep nesting, ``NaN``/``Infinity``, a 4,301-digit integer or a line that is not an object is
refused with its pointer, the rule and its line number. A malformed request still exits 2 with nothing on standard output: a JSON Lines file is checked
whole (every line decoded and parsed) before the first result is calculated, and read again to
calculate; standard input is first copied to a temporary file for that.
"""

from __future__ import annotations

import functools
import json
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, TextIO

from .json_input import MalformedJSON, decode
from .request import (
    ParsedParticipant,
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


def _on_line(pointer: str, message: str, lineno: int) -> RequestError:
    """The error, its message naming the census line (a "not JSON" message already does)."""
    if f"line {lineno} " not in message:
        message = f"{message} (line {lineno})"
    return RequestError(pointer, message)


def _parsed[T](raw: bytes, pointer: str, lineno: int, parse: Callable[[object], T]) -> T:
    """One line through the same hardened decoder and parser as a whole request: every way it can
    be malformed is a RequestError naming its pointer, the rule and the line (never a traceback)."""
    try:
        obj = decode(raw, line=lineno)
    except MalformedJSON as exc:
        raise _on_line(pointer, str(exc), lineno) from None
    try:
        return parse(obj)
    except RequestError as exc:
        raise _on_line(exc.pointer, str(exc), lineno) from None
    except (RecursionError, MemoryError, ValueError, TypeError, ArithmeticError) as exc:
        raise _on_line(pointer, f"cannot be read ({type(exc).__name__})", lineno) from None


def _participant_lines(fh: IO[bytes]) -> Iterator[tuple[int, int, bytes]]:
    """(participant index, line number, bytes) for each non-blank line after the first."""
    index = 0
    for lineno, line in enumerate(fh, start=2):
        if line.strip():
            yield index, lineno, line
            index += 1


def _header(fh: IO[bytes]) -> Request:
    first = fh.readline()
    if not first.strip():
        raise RequestError(
            "", "the first line must be the request without participants (a JSON object) (line 1)"
        )
    return _parsed(first, "", 1, lambda obj: parse_header(obj, participants=False))


def _participants(fh: IO[bytes], request: Request) -> Iterator[tuple[int, ParsedParticipant]]:
    for index, lineno, line in _participant_lines(fh):
        parse = functools.partial(parse_one, index=index, as_of=request.as_of)
        yield index, _parsed(line, f"/participants/{index}", lineno, parse)


def check_jsonl(fh: IO[bytes]) -> int:
    """Parse every line without calculating (RequestError on the first malformed one); the count."""
    request = _header(fh)
    return sum(1 for _ in _participants(fh, request))


def write_jsonl(fh: IO[bytes], out: TextIO) -> int:
    """One result a line, each written as soon as it is computed; the count."""
    request = _header(fh)
    count = 0
    for index, item in _participants(fh, request):
        out.write(json.dumps(result_for(request, item, index), ensure_ascii=False))
        out.write("\n")
        count += 1
    return count


def calculate_jsonl(path: str, stdin: TextIO, out: TextIO) -> int:
    """Check the whole census, then calculate it (raises RequestError before writing anything)."""
    if path == "-":
        with tempfile.TemporaryFile("w+b") as spool:
            raw = getattr(stdin, "buffer", None)
            if raw is not None:
                shutil.copyfileobj(raw, spool)
            else:  # a text stream (tests): its characters as UTF-8
                for chunk in iter(lambda: stdin.read(1 << 16), ""):
                    spool.write(chunk.encode("utf-8", "surrogateescape"))
            spool.seek(0)
            check_jsonl(spool)
            spool.seek(0)
            return write_jsonl(spool, out)
    with open(path, "rb") as fh:
        check_jsonl(fh)
    with open(path, "rb") as fh:
        return write_jsonl(fh, out)
