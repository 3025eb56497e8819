"""A server process loads numpy when Django starts (benefits/apps.py), not on a participant's first
modeler request, and with its BLAS on one thread: the engine itself takes numpy on first use, so
that a command-line census that prices no annuity never loads it
(tests/engine/core/test_numpy_on_first_use.py)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import json, sys
import django
django.setup()
from threadpoolctl import threadpool_info
print(json.dumps(sorted({p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"})))
print("numpy" in sys.modules)
"""


def test_django_start_loads_numpy_before_any_request():
    out = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"DJANGO_SETTINGS_MODULE": "config.settings.test", "PATH": "/usr/bin:/bin"},
    )
    *_, threads, loaded = out.stdout.strip().splitlines()
    assert loaded == "True"
    assert threads == "[1]"  # through the engine's import: its BLAS on one thread
