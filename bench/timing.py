"""Timing for the engine benchmarks on a shared machine: medians of 3, wall and CPU time.

The machine is shared (several engineers' test runs on 2 CPUs), so wall time swings with the load;
the CPU time of this process is what one core spends and is the figure to compare with a per-core
target. Every benchmark prints the load average it ran under.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} / {five:.1f} / {fifteen:.1f} on {os.cpu_count()} CPUs"


def median_of(fn: Callable[[], Any], runs: int = 3) -> tuple[float, float]:
    """(median wall seconds, median CPU seconds) of ``runs`` calls."""
    walls, cpus = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        fn()
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - w)
    return statistics.median(walls), statistics.median(cpus)
