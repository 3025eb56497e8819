"""The hardened JSON decoder every request passes through, whole (``calculate``) or a line at a time
(``calculate --jsonl``): bytes that are not UTF-8, nesting deeper than ``MAX_DEPTH``, ``NaN`` and
``Infinity``, and integers past Python's 4,300-digit conversion limit become ``MalformedJSON`` with a
one-line reason, never a traceback (issue 15)."""

from __future__ import annotations

import json

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


def decode(data: bytes | str, *, line: int | None = None) -> object:
    """The request (or, with ``line``, one line of a census) as Python objects, or MalformedJSON.

    With ``line``, a JSON syntax error names the line of the file rather than the line inside it."""
    if isinstance(data, bytes):
        if len(data) > MAX_REQUEST_BYTES:
            raise MalformedJSON(f"larger than {MAX_REQUEST_BYTES // (1024 * 1024)} MB")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise MalformedJSON(f"not UTF-8 text (byte {exc.start + 1})") from None
    else:
        text = data
    if _depth_exceeds(text, MAX_DEPTH):
        raise MalformedJSON(f"nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except MalformedJSON:
        raise
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno if line is None else line} column {exc.colno}"
        raise MalformedJSON(f"not JSON ({exc.msg}, {at})") from None
    except RecursionError:
        raise MalformedJSON(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # e.g. an integer longer than Python's 4,300-digit conversion limit
        reason = "a number is too long (more than 4,300 digits)" if "digits" in str(exc) else "not JSON"
        raise MalformedJSON(reason) from None
