"""Pages and background work under load, on the production stack with real processes.

    .venv/bin/python bench/bench_load.py [USERS] [SECONDS]      (defaults: 30 users, 60 seconds)

What it runs (scripts/smoke.py's stack, on its own database, Redis database and port): PostgreSQL,
Redis, gunicorn (2 workers), a Celery worker per queue (`default` with 1 process, `pdf` with a prefork
pool of 2 children retiring after 50 tasks, as the README deploys them) and beat. The demo is loaded,
then USERS simulated people act at once for SECONDS, each in its own signed-in session: two thirds
participants (dashboard, vesting, statement, a statement PDF and a modeler run: the two kinds of
background work people wait for), the rest committee members (claims queue, a claim) and
administrators (background work, audit log). Each user pauses 0.5-1.5 s between requests, as a person
clicking would.

What it prints: per page, the count, p50 and p95 in milliseconds and the errors (any status other
than 200, or a request that failed); requests a second; for the background work started in the window,
queue-to-done p50/p95 in seconds (a job's creation to its finish, from its row) and how many were not
done when the wait ended; and the pool children the workers lost or killed at start-up (Celery's
"Timed out waiting for UP message" and "exited with" lines in the worker logs).

Targets (issue 29, at 30 users on this machine): 0 errors, job queue-to-done p95 <= 5 s, no pool child
killed at start-up. LOAD_PROC_ALIVE_TIMEOUT=4 gives the baseline of Celery's default start-up window
(the setting is 60 s, config/settings/base.py); LOAD_MAX_TASKS_PER_CHILD (50, as deployed) set low makes
the pool children retire and start again inside a short run, the path where start-up kills happened.
Environment: LOAD_DATABASE (plan_benefits_load), LOAD_PG, LOAD_REDIS_URL
(redis://127.0.0.1:6379/13, flushed), LOAD_PORT (8790), LOAD_JOB_WAIT (120 s).
"""

from __future__ import annotations

import datetime
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from smoke import (  # noqa: E402
    ADMIN_TOTP,
    BIN,
    COMMITTEE_TOTP,
    Client,
    Fail,
    Stack,
    first_of_month_after,
    flush_redis,
    log,
    login,
    manage,
    prepare_database,
    smoke_environment,
    wait_until_up,
)


def start_stack(stack: Stack, port: int, work: Path) -> None:
    stack.start(
        "gunicorn", str(BIN / "gunicorn"), "config.wsgi:application",
        "--bind", f"127.0.0.1:{port}", "--workers", "2", "--timeout", "60",
    )  # fmt: skip
    common = ("--without-gossip", "--without-mingle", "-l", "info")
    stack.start(
        "worker-default", str(BIN / "celery"), "-A", "config", "worker", "-Q", "default", "-c", "1",
        "-n", "default@%h", *common,
    )  # fmt: skip
    stack.start(
        "worker-pdf", str(BIN / "celery"), "-A", "config", "worker", "-Q", "pdf", "-c", "2",
        "-n", "pdf@%h", "--max-tasks-per-child", os.environ.get("LOAD_MAX_TASKS_PER_CHILD", "50"), *common,
    )  # fmt: skip
    stack.start("beat", str(BIN / "celery"), "-A", "config", "beat", "-s", str(work / "beat-schedule"))


def clone(signed_in: Client) -> Client:
    """Another browser tab of the same signed-in session (its own connection, the same cookies)."""
    other = Client(signed_in.base)
    for cookie in signed_in.jar:
        other.jar.set_cookie(cookie)
    return other


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, list[str]] = defaultdict(list)

    def get(self, client: Client, name: str, path: str, data: dict | None = None) -> str | None:
        started = time.perf_counter()
        try:
            status, where, _, content = client.request(path, data)
            problem = None if status == 200 else f"{status} at {where}"
        except Exception as exc:  # a refused or timed-out request is an error of the run, not a crash
            content, problem = b"", f"{type(exc).__name__}: {exc}"
        elapsed = (time.perf_counter() - started) * 1000
        with self.lock:
            self.times[name].append(elapsed)
            if problem:
                self.errors[name].append(problem)
        return None if problem else content.decode(errors="replace")


def participant_loop(
    client: Client, rec: Recorder, pid: str, plan: str, modeler: bool, until: float, seed: int
) -> None:
    rnd = random.Random(seed)
    base = f"/benefits/participants/{pid}/plans/{plan}/"
    while time.monotonic() < until:
        rec.get(client, "dashboard", "/benefits/")
        rec.get(client, "vesting", base + "vesting/")
        html = rec.get(client, "statement", base + "statement/")
        if html and rnd.random() < 0.5:
            fields = client.hidden(html, base + "statement/pdf/")
            rec.get(client, "statement pdf (starts a job)", base + "statement/pdf/", fields)
        html = rec.get(client, "modeler", base + "modeler/") if modeler else None
        if html and rnd.random() < 0.5:
            start = first_of_month_after(
                datetime.datetime.now(datetime.UTC).date(), rnd.choice((60, 120, 400))
            )
            fields = {**client.hidden(html, None), "mode": "dates", "dates": start.isoformat()}
            rec.get(client, "modeler run (starts a job)", base + "modeler/", fields)
        time.sleep(rnd.uniform(0.5, 1.5))


def staff_loop(client: Client, rec: Recorder, pages: list[tuple[str, str]], until: float, seed: int) -> None:
    rnd = random.Random(seed)
    while time.monotonic() < until:
        name, path = rnd.choice(pages)
        rec.get(client, name, path)
        time.sleep(rnd.uniform(0.5, 1.5))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def job_times(database_url: str, since: float, wait: float) -> tuple[list[float], int]:
    """Queue-to-done seconds of the jobs created since ``since`` (epoch), waiting for them to finish."""
    import psycopg

    query = (
        "SELECT extract(epoch FROM finished_at - created_at), status FROM benefits_job "
        "WHERE created_at >= to_timestamp(%s)"
    )
    end = time.monotonic() + wait
    with psycopg.connect(database_url, autocommit=True) as conn:
        while True:
            rows = conn.execute(query, (since,)).fetchall()
            waiting = sum(1 for _, status in rows if status not in ("done", "failed"))
            if not waiting or time.monotonic() > end:
                return [float(s) for s, status in rows if status == "done"], waiting
            time.sleep(1)


def pool_losses(logs: Path) -> tuple[int, int]:
    text = "".join(p.read_text(errors="replace") for p in logs.glob("worker-*.log"))
    return text.count("Timed out waiting for UP message"), len(re.findall(r"exited with", text))


def main() -> int:
    users = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    pg = os.environ.get("LOAD_PG", "postgres://postgres@127.0.0.1:5432")
    redis_url = os.environ.get("LOAD_REDIS_URL", "redis://127.0.0.1:6379/13")
    port = int(os.environ.get("LOAD_PORT", "8790"))
    job_wait = float(os.environ.get("LOAD_JOB_WAIT", "120"))
    work = Path(tempfile.mkdtemp(prefix="load-"))
    (work / "logs").mkdir()
    database_url = prepare_database(pg, os.environ.get("LOAD_DATABASE", "plan_benefits_load"))
    env = smoke_environment(work, database_url, redis_url)
    # LOAD_PROC_ALIVE_TIMEOUT=4 runs the baseline: Celery's default start-up window for a pool child.
    if os.environ.get("LOAD_PROC_ALIVE_TIMEOUT"):
        env["CELERY_WORKER_PROC_ALIVE_TIMEOUT"] = os.environ["LOAD_PROC_ALIVE_TIMEOUT"]
    flush_redis(redis_url)
    stack = Stack(env, work / "logs")
    try:
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        manage(env, "load_demo")
        start_stack(stack, port, work)
        base = f"http://127.0.0.1:{port}/"
        wait_until_up(Client(base), stack)
        pat, committee, admin = Client(base), Client(base), Client(base)
        login(pat, "pat@demo.test", None)
        login(committee, "committee@demo.test", COMMITTEE_TOTP)
        login(admin, "admin@demo.test", ADMIN_TOTP)
        _, html = pat.page("/benefits/")
        plans = sorted(set(re.findall(r"/benefits/participants/(\d+)/plans/([a-z0-9-]+)/", html)))
        modelers = set(re.findall(r"/benefits/participants/(\d+)/plans/([a-z0-9-]+)/modeler/", html))
        if not plans:
            raise Fail("pat's dashboard lists no plan")
        _, html = committee.page("/claims/committee/")
        claims = sorted(set(re.findall(r'href="(/claims/\d+/)"', html)))
        committee_pages = [("claims queue", "/claims/committee/")] + [("a claim", c) for c in claims[:5]]
        admin_pages = [("background work", "/benefits/staff/jobs/"), ("audit log", "/benefits/staff/audit/")]

        rec = Recorder()
        since = time.time()
        started = time.monotonic()
        until = started + seconds
        threads = []
        for i in range(users):
            if i % 3 == 2:
                signed_in, pages = (committee, committee_pages) if i % 2 else (admin, admin_pages)
                target, args = staff_loop, (clone(signed_in), rec, pages, until, i)
            else:
                pid, plan = plans[i % len(plans)]
                modeler = (pid, plan) in modelers
                target, args = participant_loop, (clone(pat), rec, pid, plan, modeler, until, i)
            threads.append(threading.Thread(target=target, args=args, daemon=True))
        log(f"{users} users for {seconds:.0f} s")
        for t in threads:
            t.start()
        for t in threads:
            t.join(seconds + 120)
        elapsed = time.monotonic() - started
        done, waiting = job_times(database_url, since, job_wait)
        stack.check_alive()
        start_kills, exits = pool_losses(work / "logs")
    finally:
        stack.stop()

    total = sum(len(v) for v in rec.times.values())
    errors = sum(len(v) for v in rec.errors.values())
    print(f"\n{users} simulated users for {seconds:.0f} s on the production stack ({os.cpu_count()} cores)")
    print(f"{'page':<32} {'requests':>8} {'p50 ms':>8} {'p95 ms':>8} {'errors':>7}")
    for name in sorted(rec.times):
        t = rec.times[name]
        p50, p95 = percentile(t, 50), percentile(t, 95)
        print(f"{name:<32} {len(t):>8} {p50:>8.0f} {p95:>8.0f} {len(rec.errors[name]):>7}")
    print(f"requests: {total} in {elapsed:.0f} s = {total / elapsed:.1f}/s; errors: {errors}")
    for name, problems in sorted(rec.errors.items()):
        if problems:
            print(f"  {name}: {problems[:3]}")
    if done:
        print(
            f"background jobs: {len(done)} done, queue-to-done p50 {statistics.median(done):.1f} s, "
            f"p95 {percentile(done, 95):.1f} s; not done after the {job_wait:.0f} s wait: {waiting}"
        )
    else:
        print(f"background jobs: none done; not done after the {job_wait:.0f} s wait: {waiting}")
    print(f"pool children killed at start-up: {start_kills}; pool children that exited: {exits}")
    print("targets at 30 users: 0 errors, job p95 <= 5 s, no pool child killed at start-up")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
