"""The hardened JSON decoder every request passes through, whole (``calculate``) or a line at a time
(``calculate --jsonl``): bytes that are not UTF-8, nesting deeper than ``MAX_DEPTH``, ``NaN`` and
``Infinity``, and integers past Python's 4,300-digit conversion limit become ``MalformedJSON`` with a
one-line reason, never a traceback (issue 15). A string the command line could not write back as
UTF-8 (a lone surrogate escape such as ``"\\ud800"``) is refused too, naming its JSON pointer (issue 26).
Every reader stops at ``MAX_REQUEST_BYTES + 1`` bytes (``read_bounded``): a larger input is refused
without being held whole."""

from __future__ import annotations

import json
import re
from typing import IO

MAX_REQUEST_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 64  # the contract's deepest object is far shallower; deeper is refused before parsing
# A surrogate can only come from a \\uD800-\\uDFFF escape (UTF-8 bytes never decode to one): the walk
# over every string runs only when the text holds such an escape.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class MalformedJSON(ValueError):
    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.pointer = pointer


def read_bounded(stream: IO[bytes] | IO[str], limit: int = MAX_REQUEST_BYTES) -> bytes | str:
    """At most ``limit + 1`` bytes (or characters) of ``stream``: enough to tell "too large" without
    reading a file that never ends (``/dev/zero``) or holding more than the limit."""
    data: bytes | str = stream.read(limit + 1)
    return data


def _pointer_part(key: object) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def printable_pointer(pointer: str) -> str:
    """The pointer as text any terminal can take (a surrogate in a key shown as its escape)."""
    return pointer.encode("utf-8", "backslashreplace").decode("utf-8")


def _unwritable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def lone_surrogate_pointer(obj: object) -> str | None:
    """The JSON pointer of the first key or string that holds a lone surrogate, or None."""
    stack: list[tuple[str, object]] = [("", obj)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, str):
            if _unwritable(value):
                return pointer or "/"
        elif isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                child = f"{pointer}/{_pointer_part(key)}"
                if _unwritable(key):
                    return child
                stack.append((child, item))
        elif isinstance(value, list):
            stack.extend((f"{pointer}/{i}", item) for i, item in reversed(list(enumerate(value))))
    return None


def _refuse_constant(name: str) -> object:
    raise MalformedJSON(f"not JSON ({name} is not a number JSON allows)")


# A string, closed or running to the end of the text (an unterminated string's brackets do not count,
# as the character scan this replaces did not count them), and a bracket outside strings.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_BRACKET = re.compile(r"[][{}]")


def _depth_exceeds(text: str, limit: int) -> bool:
    """Nesting deeper than ``limit`` (brackets outside strings), found without recursion.

    Fewer opening brackets than the limit anywhere in the text (a census line) settles it with two
    counts; otherwise the strings are cut out by a regular expression and only the brackets left
    are walked, not every character."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


# ``json.loads(text, parse_constant=_refuse_constant)`` builds a decoder for every call (a census
# decodes a line at a time): the one decoder, built once, and the check ``json.loads`` makes first.
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)
_BOM = b"\xef\xbb\xbf"


def _loads(text: str) -> object:
    if text.startswith("\ufeff"):
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return _DECODER.decode(text)


def _utf8_sig(data: bytes) -> str:
    """``data.decode("utf-8-sig")`` (a leading BOM dropped, an error's position counted after it)
    without the codec's Python-level wrapper."""
    return (data[3:] if data.startswith(_BOM) else data).decode("utf-8")


def decode(data: bytes | str, *, line: int | None = None) -> object:
    """The request (or, with ``line``, one line of a census) as Python objects, or MalformedJSON.

    With ``line``, a JSON syntax error names the line of the file rather than the line inside it."""
    if isinstance(data, bytes):
        if len(data) > MAX_REQUEST_BYTES:
            raise MalformedJSON(f"larger than {MAX_REQUEST_BYTES // (1024 * 1024)} MB")
        try:
            text = _utf8_sig(data)
        except UnicodeDecodeError as exc:
            raise MalformedJSON(f"not UTF-8 text (byte {exc.start + 1})") from None
    else:
        text = data
    if _depth_exceeds(text, MAX_DEPTH):
        raise MalformedJSON(f"nested deeper than {MAX_DEPTH} levels")
    try:
        obj = _loads(text)
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
    if _SURROGATE_ESCAPE.search(text) or (not isinstance(data, bytes) and _unwritable(text)):
        pointer = lone_surrogate_pointer(obj)
        if pointer is not None:
            raise MalformedJSON(
                "a lone surrogate escape (\\ud800-\\udfff without its pair) is not a character "
                "and cannot be written back",
                pointer=printable_pointer(pointer),
            )
    return obj
