"""Run functions at once, each in its own thread with its own PostgreSQL connection."""

from __future__ import annotations

import threading

from django.db import connections


def run_at_once(*fns, timeout: float = 240.0) -> list[tuple[str, object]]:
    """Start every function together (a barrier) and return ("ok", result) or ("error", exception)
    for each, in order. Each thread closes its own connection when it is done."""
    barrier = threading.Barrier(len(fns))
    results: list[tuple[str, object]] = [("error", TimeoutError("did not finish"))] * len(fns)

    def runner(i: int, fn) -> None:
        try:
            barrier.wait()
            results[i] = ("ok", fn())
        except Exception as exc:  # the refusal is the point of the test: keep it to assert on
            results[i] = ("error", exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(i, fn)) for i, fn in enumerate(fns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    return results


def meet_here(parties: int, *, before: bool = False):
    """A wrapper factory: the first call in each thread runs ``fn`` and then waits for the other
    threads (so every thread has passed the check in code before any of them writes), or, with
    ``before``, waits first (so every thread reaches a lock before any of them takes it)."""
    barrier = threading.Barrier(parties)
    seen: set[int] = set()

    def wrap(fn):
        def inner(*args, **kwargs):
            me = threading.get_ident()
            first = me not in seen
            seen.add(me)
            if first and before:
                barrier.wait(timeout=120)
            result = fn(*args, **kwargs)
            if first and not before:
                barrier.wait(timeout=120)
            return result

        return inner

    return wrap
