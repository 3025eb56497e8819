"""The command line's output written as it is computed, and census files read as JSON Lines.

``write_response`` writes the same JSON as ``json.dump(run(request))`` (byte for byte), but each
result is serialised with ``json.dumps`` (the C encoder) and written as soon as it is computed, so
nothing holds the whole response. ``calculate_jsonl`` reads a JSON Lines census: the first line is the
request without ``participants``, then one participant a line; it writes one result a line. Its memory
does not grow with the number of participants (docs/engine-cli.md, *Large censuses*).

Each line goes through the same hardened decoder as a whole request (``json_input``): bytes that are
not UTF-8, deep nesting, ``NaN``/``Infinity``, a 4,301-digit integer or a line that is not an object is
refused with its pointer, the rule and its line number. A malformed request still exits 2 with nothing
on standard output: each line is decoded and parsed once, and its result written to a temporary file
as soon as it is computed; the results are copied to standard output once the last line has parsed.
"""

from __future__ import annotations

import codecs
import functools
import json
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext
from typing import IO, Any, TextIO

from .input_ranges import MAX_PARTICIPANTS
from .json_input import MAX_REQUEST_BYTES, MalformedJSON, decode
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
from .trace import traces_off

# The encoder ``json.dumps(…, ensure_ascii=False)`` makes, built once. No circular check: a result is a
# tree the engine built from fresh containers (a step's dictionary may be listed many times, never
# inside itself), and the check costs a sixth of the encoding.
_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)
_ENCODE = _ENCODER.encode


def _step_encoder() -> Callable[[object], str]:
    """``_ENCODE`` for a step's dictionary, the C encoder ``encode`` would build made once (a traced
    result encodes 1,400 distinct steps, and ``encode`` builds its encoder afresh for each: a quarter
    of their cost). The same arguments as ``JSONEncoder.iterencode`` gives it, so the same text
    (tests/engine/core/test_cli_streaming.py holds it); without the C accelerator, ``_ENCODE``."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return _ENCODE
    e = _ENCODER
    chunks = make(
        None,
        e.default,
        json.encoder.encode_basestring,
        e.indent,
        e.key_separator,
        e.item_separator,
        e.sort_keys,
        e.skipkeys,
        e.allow_nan,
    )
    join = "".join

    def encode(step: object) -> str:
        return join(chunks(step, 0))

    return encode


_ENCODE_STEP = _step_encoder()


def write_result(result: dict[str, Any], out: TextIO) -> None:
    """Write ``json.dumps(result, ensure_ascii=False)``, byte for byte, a piece at a time (a traced
    result's JSON is megabytes: it is never held whole). A traced result may list a step it repeats
    (each form of a date repeats the date's steps, a parameter read recurs in every trace that read
    it) as one dictionary (``trace.SharedSteps``): each is encoded once, its text repeated. On a
    UTF-8 stream with a byte buffer (standard output, a spool file) the pieces are written to the
    buffer as UTF-8, each repeated text turned into bytes once: a 174-date carver-db result is 8 MB
    of which 17,500 step texts are 1,355 distinct ones, and turning 8 MB of text with "§" in it into
    UTF-8 costs more than encoding the steps."""
    traces = result.get("traces")
    if not isinstance(traces, dict) or not all(isinstance(k, str) for k in (*result, *traces)):
        out.write(_ENCODE(result))
        return
    sink = _utf8_buffer(out)
    if sink is None:
        _write_traced(result, traces, out.write, str)
        return
    out.flush()  # what was written as text goes first
    errors = out.errors or "strict"
    _write_traced(result, traces, sink.write, lambda text: text.encode("utf-8", errors))


def _write_traced[T: (str, bytes)](
    result: dict[str, Any],
    traces: dict[str, Any],
    write: Callable[[T], object],
    convert: Callable[[str], T],
) -> None:
    """``write_result``'s pieces of a traced result, each made into what ``write`` takes by
    ``convert`` (the text itself, or its UTF-8 bytes); a step's piece is made once."""
    comma, opening, closing, empty = convert(", "), convert("{"), convert("}"), convert("{}")
    sep = opening
    for key, value in result.items():
        write(sep + convert(f"{_ENCODE(key)}: "))
        sep = comma
        if value is not traces:
            write(convert(_ENCODE(value)))
            continue
        seen: dict[int, T] = {}  # id of a step's dictionary → its piece; each is alive in ``traces``
        get = seen.get
        inner = opening
        for name, steps in traces.items():
            if type(steps) is not list:
                write(inner + convert(f"{_ENCODE(name)}: {_ENCODE(steps)}"))
            else:
                pieces = []
                for step in steps:
                    piece = get(id(step))
                    if piece is None:
                        piece = seen[id(step)] = convert(_ENCODE_STEP(step))
                    pieces.append(piece)
                write(inner + convert(f"{_ENCODE(name)}: [") + comma.join(pieces) + convert("]"))
            inner = comma
        write(empty if inner is opening else closing)
    write(empty if sep is opening else closing)


def _utf8_buffer(out: TextIO) -> IO[bytes] | None:
    """The byte buffer under ``out`` when ``out`` writes UTF-8 (text written there and its UTF-8
    bytes written to the buffer are the same output), else None (a ``StringIO``, another encoding)."""
    buffer = getattr(out, "buffer", None)
    encoding = getattr(out, "encoding", None)
    if buffer is None or not isinstance(encoding, str):
        return None
    try:
        utf8 = codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return None
    return buffer if utf8 else None


def write_response(request: Request, out: TextIO, results: Iterable[dict[str, Any]] | None = None) -> None:
    """``{"plan", "as_of", "engine_version", "results": [...]}`` with each result written when ready."""
    head = json.dumps(response_header(request), ensure_ascii=False)
    out.write(head[:-1] + ', "results": [')
    for i, result in enumerate(iter_results(request) if results is None else results):
        if i:
            out.write(", ")
        write_result(result, out)
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
        inner = "" if exc.pointer in ("", "/") else exc.pointer
        raise _on_line(pointer + inner if inner else pointer, str(exc), lineno) from None
    try:
        return parse(obj)
    except RequestError as exc:
        raise _on_line(exc.pointer, str(exc), lineno) from None
    except (RecursionError, MemoryError, ValueError, TypeError, ArithmeticError) as exc:
        raise _on_line(pointer, f"cannot be read ({type(exc).__name__})", lineno) from None


def _line_too_long(lineno: int) -> RequestError:
    return RequestError("", f"a line is larger than {MAX_REQUEST_BYTES // (1024 * 1024)} MB (line {lineno})")


def _lines(fh: IO[bytes], start: int) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes), each line read with a bound: a line past ``MAX_REQUEST_BYTES`` (or a
    stream without newlines, ``/dev/zero``) is refused without being held whole."""
    lineno = start
    while True:
        line = fh.readline(MAX_REQUEST_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_REQUEST_BYTES:
            raise _line_too_long(lineno)
        yield lineno, line
        lineno += 1


def _participant_lines(fh: IO[bytes]) -> Iterator[tuple[int, int, bytes]]:
    """(participant index, line number, bytes) for each non-blank line after the first."""
    index = 0
    for lineno, line in _lines(fh, start=2):
        if line.strip():
            if index >= MAX_PARTICIPANTS:
                raise RequestError(
                    "/participants",
                    f"at most {MAX_PARTICIPANTS:,} participants a request; split the census (line {lineno})",
                )
            yield index, lineno, line
            index += 1


def _header(fh: IO[bytes]) -> Request:
    first = next((line for _, line in _lines(fh, start=1)), b"")
    if not first.strip():
        raise RequestError(
            "", "the first line must be the request without participants (a JSON object) (line 1)"
        )
    return _parsed(first, "", 1, lambda obj: parse_header(obj, participants=False))


def _participants(fh: IO[bytes], request: Request) -> Iterator[tuple[int, ParsedParticipant]]:
    for index, lineno, line in _participant_lines(fh):
        parse = functools.partial(parse_one, index=index, as_of=request.as_of)
        yield index, _parsed(line, f"/participants/{index}", lineno, parse)


def write_jsonl(fh: IO[bytes], out: TextIO) -> int:
    """One result a line, each written as soon as it is computed; the count."""
    request = _header(fh)
    count = 0
    with nullcontext() if request.traces else traces_off():  # once for the census, not each result
        for index, item in _participants(fh, request):
            write_result(result_for(request, item, index), out)
            out.write("\n")
            count += 1
    return count


def _spool_bounded(chunks: Iterator[bytes], spool: IO[bytes]) -> None:
    """Copy standard input to the spool, refusing a line past the bound as it arrives (a stream
    without newlines would otherwise fill the disk) and a census past the participant maximum's
    worth of lines."""
    since_newline, lineno = 0, 1
    for chunk in chunks:
        newlines = chunk.count(b"\n")
        if newlines:
            lineno += newlines
            since_newline = len(chunk) - chunk.rindex(b"\n") - 1
        else:
            since_newline += len(chunk)
        if since_newline > MAX_REQUEST_BYTES:
            raise _line_too_long(lineno)
        if lineno > MAX_PARTICIPANTS * 4 + 2:  # blank lines allowed, not without end
            raise RequestError("/participants", f"at most {MAX_PARTICIPANTS:,} participants a request")
        spool.write(chunk)


def calculate_jsonl(path: str, stdin: TextIO, out: TextIO) -> int:
    """Calculate the census, each line decoded and parsed once, its results written to a spool on
    disk; copy them to ``out`` only once every line has parsed (raises RequestError before writing
    anything). Memory does not grow with the census."""
    with tempfile.TemporaryFile("w+", encoding="utf-8", newline="") as results:
        if path == "-":
            with tempfile.TemporaryFile("w+b") as spool:
                raw = getattr(stdin, "buffer", None)
                if raw is not None:
                    chunks: Iterator[bytes] = iter(lambda: raw.read(1 << 16), b"")
                else:  # a text stream (tests): its characters as UTF-8
                    chunks = (
                        c.encode("utf-8", "surrogateescape") for c in iter(lambda: stdin.read(1 << 16), "")
                    )
                _spool_bounded(chunks, spool)
                spool.seek(0)
                count = write_jsonl(spool, results)
        else:
            with open(path, "rb") as fh:
                count = write_jsonl(fh, results)
        sink = _utf8_buffer(out)
        if sink is None:
            results.seek(0)
            shutil.copyfileobj(results, out, 1 << 20)
        else:  # the spool is UTF-8 too: its bytes copied as they are, not decoded and encoded again
            results.flush()
            spooled: IO[bytes] = results.buffer  # type: ignore[assignment]  # a BufferedRandom
            spooled.seek(0)
            out.flush()
            shutil.copyfileobj(spooled, sink, 1 << 20)
    return count
