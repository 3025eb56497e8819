"""numpy imported when a module first uses it, not when the module is imported, with its BLAS on one
thread.

A census of a plan that prices no annuity (an ESOP's, a 401(k)'s without a QJSA figure) imports
``mortality`` and ``actuarial`` for their settings and types but never builds a table or a factor;
numpy's import is about 0.1 s of CPU, a tenth of the budget a 10,000-participant census has over a plain
JSON read and write (issue 29). Each such module binds ``np`` to ``NumpyOnFirstUse(globals())``; the
first attribute read imports numpy and puts the module itself in ``np``, so every later use is the
plain module (no cost after the first).

``import_numpy`` is the one place numpy is imported (the engine's modules, and a server process at
start, ``benefits/apps.py``). It keeps numpy's BLAS (OpenBLAS in numpy's wheels) to one thread unless
the operator has set its thread count. The engine's arrays are small (a few hundred lives by a few
hundred ages): a second BLAS thread made nothing faster on this machine, but the threads OpenBLAS
starts spin on the CPU: 0.08 s of CPU at import in every process, and on the §415 ratios a 174-date
request primes in one pass, 0.024 s of CPU for 0.012 s of work. A server's processes (web workers,
Celery's pool children) and its CPUs are shared between requests, so threads inside one request take
CPU from the others. And a sum split between threads adds in a different order, so a factor could
differ in its last bit from one machine to another. With one thread, it is the same on every machine.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

# Read by the BLAS when numpy loads it: OpenBLAS (numpy's wheels), MKL (some distributions' numpy).
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def import_numpy() -> ModuleType:
    """numpy, its BLAS on one thread unless the environment sets the count (effective only if this
    process has not loaded numpy yet: the BLAS reads it once)."""
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")
    import numpy

    return numpy


class NumpyOnFirstUse:
    def __init__(self, module_globals: dict[str, Any]) -> None:
        self._globals = module_globals

    def __getattr__(self, name: str) -> Any:
        numpy = import_numpy()
        self._globals["np"] = numpy
        return getattr(numpy, name)
