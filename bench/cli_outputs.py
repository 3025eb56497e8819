"""Every byte the command line writes, for a before/after check of a speed change.

Usage:
  ``.venv/bin/python bench/cli_outputs.py write DIR [--n 300] [--root CHECKOUT]``
  ``.venv/bin/python bench/cli_outputs.py compare BEFORE AFTER``

``write`` runs ``python -m benefits.engine calculate`` (from ``--root``, default this checkout: point it
at an export of the code before the change to make the "before" set) on every ``examples/*.json``,
and on a generated census of every plan (bench/census.py, N participants, at two as-of dates) as one
JSON request and as JSON Lines, each with every trace, with ``options.traces`` false, and (JSON) with
``options.detail``; plus a malformed census line and a malformed request. Each run's standard output,
standard error and exit status go to ``DIR/<name>.out``. ``compare`` lists every file that differs
(exit 1) or says they are all identical (exit 0), the engine version aside (it is a fingerprint of
the engine's source, so any change to the code changes it).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import census  # noqa: E402

AS_OF_DATES = (date(2026, 11, 21), date(2025, 3, 31))
VERSION = re.compile(rb'"engine_version": "[^"]*"')


def without_version(path: Path) -> bytes:
    return VERSION.sub(b'"engine_version": ""', path.read_bytes()) if path.exists() else b"(none)"


def run(root: Path, args: list[str]) -> bytes:
    proc = subprocess.run(
        [sys.executable, "-m", "benefits.engine", *args], cwd=root, capture_output=True, check=False
    )
    return proc.stdout + b"\n--- stderr\n" + proc.stderr + f"\n--- exit {proc.returncode}\n".encode()


def inputs(tmp: Path, n: int) -> list[tuple[str, list[str]]]:
    """(name, CLI arguments) of every run; the files are written under ``tmp``."""
    runs = [(f"example-{p.stem}", ["calculate", str(p)]) for p in sorted((ROOT / "examples").glob("*.json"))]
    for plan in list(census.AS_OF):
        for as_of in AS_OF_DATES:
            census.AS_OF[plan] = as_of
            request = census.request(plan, n)
            for mode, options in (("traced", {}), ("bare", {"traces": False}), ("detail", {"detail": True})):
                name = f"{plan}-{as_of.isoformat()}-{mode}"
                whole = tmp / f"{name}.json"
                whole.write_text(json.dumps(request | ({"options": options} if options else {})))
                runs.append((f"{name}-json", ["calculate", str(whole)]))
                if mode == "detail":
                    continue
                lines = tmp / f"{name}.jsonl"
                header = {k: v for k, v in request.items() if k != "participants"}
                with lines.open("w") as out:
                    out.write(json.dumps(header | ({"options": options} if options else {})) + "\n")
                    for p in request["participants"]:
                        out.write(json.dumps(p) + "\n")
                runs.append((f"{name}-jsonl", ["calculate", "--jsonl", str(lines)]))
    bad = tmp / "malformed.jsonl"
    first = json.dumps({"plan": "carver-db", "as_of": "2026-11-21", "assumptions": {}})
    bad.write_text(first + '\n{"id": "A", "birth_date": "1960-01-01"}\n{"id": \n')
    runs.append(("malformed-jsonl", ["calculate", "--jsonl", str(bad)]))
    deep = tmp / "deep.json"
    deep.write_text('{"plan": "carver-db", "x": ' + "[" * 70 + "]" * 70 + "}")
    runs.append(("deep-json", ["calculate", str(deep)]))
    return runs


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("action", choices=("write", "compare"))
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--root", default=str(ROOT))
    args = parser.parse_args()
    if args.action == "write":
        out = Path(args.dirs[0])
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            for name, argv in inputs(Path(tmp), args.n):
                (out / f"{name}.out").write_bytes(run(Path(args.root), argv))
        print(f"wrote {len(list(out.glob('*.out')))} outputs to {out}")
        return 0
    before, after = (Path(d) for d in args.dirs[:2])
    names = sorted({p.name for p in before.glob("*.out")} | {p.name for p in after.glob("*.out")})
    differ = [n for n in names if without_version(before / n) != without_version(after / n)]
    for n in differ:
        print(f"DIFFERS: {n}")
    print(f"{len(names) - len(differ)} of {len(names)} outputs byte-identical")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
