"""``python -m benefits.engine calculate REQUEST.json`` (or ``-`` for standard input).

Exit 0 with the JSON response; exit 2 with a one-line message on standard error naming the JSON
pointer of the bad field when the request is malformed. See docs/engine-cli.md.

``calculate --jsonl CENSUS.jsonl`` (or ``-``) reads JSON Lines (the request without participants, then
one participant a line) and writes one result a line, in memory that does not grow with the census.
Either way each result is written as soon as it is computed (``benefits.engine.streaming``).
"""

from __future__ import annotations

import sys
from typing import TextIO

from .json_input import MalformedJSON, decode, read_bounded

USAGE = "usage: python -m benefits.engine calculate REQUEST.json|-\n       python -m benefits.engine calculate --jsonl CENSUS.jsonl|-"


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
        except RequestError as exc:  # each line through the same decoder; the message names the line
            print(exc.one_line(), file=stderr)
            return 2
        return 0
    if len(argv) != 2 or argv[0] != "calculate":
        print(USAGE, file=stderr)
        return 2
    try:
        if argv[1] == "-":
            raw = getattr(stdin, "buffer", None)
            data = read_bounded(raw if raw is not None else stdin)
        else:
            with open(argv[1], "rb") as fh:
                data = read_bounded(fh)
    except OSError as exc:
        print(f"cannot read {argv[1]}: {exc.strerror}", file=stderr)
        return 2
    try:
        obj = decode(data)
    except MalformedJSON as exc:
        print(f"malformed request at {exc.pointer or '/'}: {exc}", file=stderr)
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


def _collect_less() -> None:
    """Garbage collection for a process that answers one request and exits.

    A run keeps its modules, tables and caches to the end, and a traced result is a large tree of
    small objects (10 MB of JSON for every date of a cash balance participant): at the default
    thresholds the collector walks them again and again, about a quarter of such a run. The
    objects made by the imports are set aside (``gc.freeze``) and the young generation collected
    after 50,000 allocations instead of 2,000. Memory stays flat for a JSON Lines census
    (docs/performance.md). Not for the web app or workers, which live long: the command line only.
    """
    import gc

    from . import request, streaming  # noqa: F401 - imported now so that freezing covers them

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def _run() -> int:
    """``main`` for a real process: a reader that goes away (``| head``) ends the run quietly, with
    the status a Unix tool killed by SIGPIPE gives (128 + 13), and no traceback."""
    import os

    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # Python flushes stdout again at exit: point it at /dev/null so that flush cannot fail too.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    return code


if __name__ == "__main__":
    _collect_less()
    sys.exit(_run())
