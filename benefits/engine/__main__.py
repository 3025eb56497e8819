"""``python -m benefits.engine calculate REQUEST.json`` (or ``-`` for standard input).

Exit 0 with the JSON response; exit 2 with a one-line message on standard error naming the JSON
pointer of the bad field when the request is malformed. See docs/engine-cli.md.
"""

from __future__ import annotations

import json
import sys
from typing import TextIO

USAGE = "usage: python -m benefits.engine calculate REQUEST.json|-"


def main(
    argv: list[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    from .request import RequestError, calculate_request

    argv = sys.argv[1:] if argv is None else argv
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    if len(argv) != 2 or argv[0] != "calculate":
        print(USAGE, file=stderr)
        return 2
    try:
        if argv[1] == "-":
            text = stdin.read()
        else:
            with open(argv[1], encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(f"cannot read {argv[1]}: {exc.strerror}", file=stderr)
        return 2
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        print(
            f"malformed request at /: not JSON ({exc.msg}, line {exc.lineno} column {exc.colno})", file=stderr
        )
        return 2
    try:
        response = calculate_request(obj)
    except RequestError as exc:
        print(exc.one_line(), file=stderr)
        return 2
    json.dump(response, stdout, ensure_ascii=False)
    stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
