"""Real parallel requests for the race tests: each callable runs in its own thread with its own
PostgreSQL connection (Django opens one per thread), all released at the same instant by a barrier.

Use with ``@pytest.mark.django_db(transaction=True)``: each thread commits for real, so the database's
locks and constraints decide the race, not the test's transaction."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.db import connections


def run_together(*calls: Callable[[], object], delays: tuple[float, ...] = (), timeout: float = 120) -> list:
    """Run ``calls`` at once (call i after ``delays[i]`` seconds); returns each result or the exception
    it raised, in order. A thread still running after ``timeout`` fails the test."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def worker(i: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait()
            if i < len(delays) and delays[i]:
                time.sleep(delays[i])
            results[i] = call()
        except BaseException as exc:  # reported to the test, which asserts on it
            results[i] = exc
        finally:
            connections.close_all()  # this thread's own connection

    threads = [threading.Thread(target=worker, args=(i, c), daemon=True) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
        assert not t.is_alive(), "a parallel request did not finish"
    return results
