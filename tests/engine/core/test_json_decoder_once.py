"""The request decoder reads text as ``bytes.decode("utf-8-sig")`` and ``json.loads(text,
parse_constant=...)`` did (``json_input._utf8_sig`` and ``_loads``, which build nothing per call):
the same objects, and for bad input the same error at the same position (a census names it)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.json_input import MalformedJSON, _loads, _refuse_constant, _utf8_sig, decode


def outcome(fn, arg):
    try:
        return ("ok", repr(fn(arg)))
    except UnicodeDecodeError as exc:
        return ("unicode", exc.start, exc.end, exc.reason)
    except json.JSONDecodeError as exc:
        return ("json", exc.msg, exc.pos, exc.lineno, exc.colno)
    except (MalformedJSON, ValueError) as exc:
        return (type(exc).__name__, str(exc))


byte_pieces = st.sampled_from(
    [b"\xef\xbb\xbf", b"\xef\xbb", b"\xff", b"\xc3", b"\xa9", b"a", b'"', b"{", b"}", b"1", b"\xe2\x82\xac"]
)
text_pieces = st.sampled_from(
    ["\ufeff", "{", "}", "[", "]", '"a"', ":", ",", "1", "-", "1.5e3", "NaN", "Infinity", "-Infinity", " ", "\n",
     "null", "true", '"\\ud800"', '"x', "\\"]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(data=st.one_of(st.binary(max_size=12), st.lists(byte_pieces, max_size=10).map(b"".join)))
def test_utf8_sig_is_the_codec(data):
    assert outcome(_utf8_sig, data) == outcome(lambda d: d.decode("utf-8-sig"), data)


@settings(max_examples=800, deadline=None)
@given(text=st.lists(text_pieces, max_size=12).map("".join))
def test_loads_is_json_loads_with_the_constant_refused(text):
    assert outcome(_loads, text) == outcome(lambda t: json.loads(t, parse_constant=_refuse_constant), text)


def test_a_census_line_with_a_bom_or_bad_bytes_is_refused_as_before():
    assert decode(b'\xef\xbb\xbf{"a": 1}', line=3) == {"a": 1}
    for raw, message in (
        (b'\xef\xbb\xbf{"a": \xff}', "not UTF-8 text (byte 7)"),
        (b'{"a": \xff}', "not UTF-8 text (byte 7)"),
        (b'{"a": NaN}', "not JSON (NaN is not a number JSON allows)"),
        (b'{"a": }', "not JSON (Expecting value, line 3 column 7)"),
    ):
        try:
            decode(raw, line=3)
        except MalformedJSON as exc:
            assert str(exc) == message
        else:
            raise AssertionError(raw)
