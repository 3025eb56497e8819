"""The request decoder's depth check (``json_input._depth_exceeds``) decides as the plain character
scan does: nesting counted by brackets outside strings, an escaped quote staying inside its string,
an unterminated string's brackets not counted, a stray closing bracket lowering the depth."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.json_input import MAX_DEPTH, _depth_exceeds


def character_scan(text: str, limit: int) -> bool:
    """The definition: one character at a time."""
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


pieces = st.sampled_from(['"', "\\", "[", "]", "{", "}", "a", ",", ":", "\n", '\\"', "[[[[", "]]"])


@settings(max_examples=600, deadline=None)
@given(text=st.lists(pieces, max_size=80).map("".join), limit=st.integers(0, 6))
def test_the_depth_check_is_the_character_scan(text, limit):
    assert _depth_exceeds(text, limit) == character_scan(text, limit)


def test_deep_nesting_inside_and_outside_strings():
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert _depth_exceeds(deep, MAX_DEPTH)
    assert not _depth_exceeds('"' + deep + '"', MAX_DEPTH)
    assert not _depth_exceeds('"' + deep, MAX_DEPTH)  # an unterminated string
    assert _depth_exceeds('"\\"' + '"' + deep, MAX_DEPTH)  # the escaped quote does not end the string
    flat = "[" + "[]," * 200 + "[]]"  # many brackets, never deep
    assert not _depth_exceeds(flat, MAX_DEPTH)
