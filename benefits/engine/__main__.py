"""``python -m benefits.engine calculate REQUEST.json`` (or ``-`` for standard input).

Exit 0 with the JSON response; exit 2 with a one-line message on standard error naming the JSON
pointer of the bad field when the request is malformed. See docs/engine-cli.md.

``calculate --jsonl CENSUS.jsonl`` (or ``-``) reads JSON Lines (the request without participants, then
one participant a line) and writes one result a line, in memory that does not grow with the census.
Either way each result is written as soon as it is computed (``benefits.engine.streaming``).
"""

from __future__ import annotations

import json
import sys
from typing import TextIO

USAGE = "usage: python -m benefits.engine calculate REQUEST.json|-\n       python -m benefits.engine calculate --jsonl CENSUS.jsonl|-"
MAX_REQUEST_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 64  # the contract's deepest object is far shallower; deeper is refused before parsing


class MalformedJSON(ValueError):
    pass


def _refuse_constant(name: str) -> object:
    raise MalformedJSON(f"not JSON ({name} is not a number JSON allows)")


def _depth_exceeds(text: str, limit: int) -> bool:
    """Nesting deeper than ``limit`` (brackets outside strings), found without recursion."""
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def decode(data: bytes | str) -> object:
    """The request as Python objects, or MalformedJSON with a one-line reason."""
    if isinstance(data, bytes):
        if len(data) > MAX_REQUEST_BYTES:
            raise MalformedJSON(f"the request is larger than {MAX_REQUEST_BYTES // (1024 * 1024)} MB")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise MalformedJSON(f"not UTF-8 text (byte {exc.start})") from None
    else:
        text = data
    if _depth_exceeds(text, MAX_DEPTH):
        raise MalformedJSON(f"nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except MalformedJSON:
        raise
    except json.JSONDecodeError as exc:
        raise MalformedJSON(f"not JSON ({exc.msg}, line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise MalformedJSON(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # e.g. an integer longer than Python's 4,300-digit conversion limit
        reason = "a number is too long" if "digits" in str(exc) else "not JSON"
        raise MalformedJSON(reason) from None


def main(
    argv: list[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    from .request import RequestError, parse_request
    from .streaming import calculate_jsonl, write_response

    argv = sys.argv[1:] if argv is None else argv
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    if len(argv) == 3 and argv[:2] == ["calculate", "--jsonl"]:
        try:
            calculate_jsonl(argv[2], stdin, stdout)
        except OSError as exc:
            print(f"cannot read {argv[2]}: {exc.strerror}", file=stderr)
            return 2
        except RequestError as exc:
            print(exc.one_line(), file=stderr)
            return 2
        return 0
    if len(argv) != 2 or argv[0] != "calculate":
        print(USAGE, file=stderr)
        return 2
    try:
        if argv[1] == "-":
            raw = getattr(stdin, "buffer", None)
            data = raw.read() if raw is not None else stdin.read()
        else:
            with open(argv[1], "rb") as fh:
                data = fh.read()
    except OSError as exc:
        print(f"cannot read {argv[1]}: {exc.strerror}", file=stderr)
        return 2
    try:
        obj = decode(data)
    except MalformedJSON as exc:
        print(f"malformed request at /: {exc}", file=stderr)
        return 2
    try:
        request = parse_request(obj)
    except RequestError as exc:
        print(exc.one_line(), file=stderr)
        return 2
    except (RecursionError, MemoryError, ValueError, TypeError, ArithmeticError) as exc:
        # Anything the request parser did not name is still the request's fault: one line, exit 2.
        print(f"malformed request at /: cannot be read ({type(exc).__name__})", file=stderr)
        return 2
    write_response(request, stdout)  # each result written as soon as it is computed
    return 0


if __name__ == "__main__":
    sys.exit(main())
