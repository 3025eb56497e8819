"""numpy is imported only when a table or a factor is first used (issue 29: a tenth of a census's
budget over a plain JSON read and write for the plans that price no annuity). carver-db's census
figures the accrued benefit at NRD from pay and service alone; Quaker's converts each account to an
annuity, so it reads a table."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))

import census  # noqa: E402

CHILD = """
import io, sys
from benefits.engine.__main__ import main
main(["calculate", "--jsonl", sys.argv[1]], stdout=io.StringIO())
print("numpy" in sys.modules)
"""


@pytest.mark.parametrize(
    ("plan", "needs_numpy"),
    [
        ("carver-401k", False),
        ("fairport-esop", False),
        ("carver-esop", False),
        ("carver-db", False),
        ("quaker-cash-balance", True),
    ],
)
def test_a_census_imports_numpy_only_when_it_prices_an_annuity(tmp_path, plan, needs_numpy):
    path = tmp_path / "census.jsonl"
    lines = [census._header(plan) | {"options": {"traces": False}}, *census.participants(plan, 20)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == str(needs_numpy)


def test_the_first_use_puts_numpy_itself_in_the_module():
    from benefits.engine import actuarial, mortality

    table = mortality.MortalityTable  # reading a name is not a use of numpy
    assert table is not None
    actuarial.np.float64(1.0)  # noqa: B018 - the first use (or a later one: numpy is then the module)
    import numpy

    assert actuarial.np is numpy
    mortality.np.float64(1.0)
    assert mortality.np is numpy


# The BLAS thread count numpy loaded with (threadpoolctl reads it from the loaded library itself).
THREADS_CHILD = """
import io, json, sys
from threadpoolctl import threadpool_info
from benefits.engine.__main__ import main
main(["calculate", "--jsonl", sys.argv[1]], stdout=io.StringIO())
print(json.dumps(sorted({p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"})))
"""


def _blas_threads(path: Path, env: dict[str, str]) -> list[int]:
    out = subprocess.run(
        [sys.executable, "-c", THREADS_CHILD, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", **env},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture
def quaker_census(tmp_path):
    path = tmp_path / "census.jsonl"
    lines = [census._header("quaker-cash-balance") | {"options": {"traces": False}}]
    path.write_text(
        "".join(json.dumps(line) + "\n" for line in [*lines, *census.participants("quaker-cash-balance", 5)])
    )
    return path


def test_the_engine_runs_numpys_blas_on_one_thread(quaker_census):
    """A process on a machine with more than one CPU would start a BLAS thread for each: they spin on
    the CPU (0.08 s at import) and split a sum in a machine-dependent order."""
    assert _blas_threads(quaker_census, {}) == [1]


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="OpenBLAS runs at most one thread a CPU")
def test_a_thread_count_the_operator_sets_is_kept(quaker_census):
    assert _blas_threads(quaker_census, {"OPENBLAS_NUM_THREADS": "2"}) == [2]
