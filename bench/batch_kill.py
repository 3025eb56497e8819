"""Annual statements for a generated population, with the PDF worker SIGKILLed halfway: every statement
must exist exactly once at the end (issue 11, "Done when": 10,000 participants).

Usage: ``nice .venv/bin/python bench/batch_kill.py [--participants 10000] [--concurrency 2] [--keep]``

Real processes, production settings, nothing shared with other runs:

1. its own PostgreSQL database (``BATCH_KILL_PG``, default postgres://postgres@127.0.0.1:5432, database
   ``plan_benefits_batch_kill``, dropped at the end unless ``--keep``) and its own redis-server (port
   ``BATCH_KILL_REDIS_PORT``, default 8117, no persistence);
2. ``migrate``, ``collectstatic``, ``load_demo`` (the five plans), ``generate_population N``;
3. a PDF worker (``-c CONCURRENCY``), a default-queue worker, the sweep worker and celery beat (the job
   sweeper);
4. the statement batch of every plan for one year (``statement_batch``);
5. when half the statements are done, the whole PDF worker (main process and children) is SIGKILLed,
   mid-chunk, and a new one started two seconds later;
6. when every batch has finished: per batch, done items = distinct memberships = distinct documents =
   documents issued for the batch = files written = batch total, and none failed.

Prints the figures (time, rate before and after the kill, duplicates, missing) and exits non-zero on any
difference. Logs are kept in the printed work folder.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import smoke  # noqa: E402

PG = os.environ.get("BATCH_KILL_PG", "postgres://postgres@127.0.0.1:5432")
DATABASE = os.environ.get("BATCH_KILL_DATABASE", "plan_benefits_batch_kill")
REDIS_PORT = int(os.environ.get("BATCH_KILL_REDIS_PORT", "8117"))
YEAR = 2025
POLL = 5


def log(message: str) -> None:
    print(f"[batch-kill {time.strftime('%H:%M:%S')}] {message}", flush=True)


def sql(dsn: str, query: str, params=()) -> list[tuple]:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute(query, params)
        return cur.fetchall() if cur.description else []


def manage(env: dict, *args: str) -> str:
    result = subprocess.run(
        [smoke.PY, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if result.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def start_redis(logs: Path) -> subprocess.Popen:
    import redis

    proc = subprocess.Popen(
        [shutil.which("redis-server") or "/usr/bin/redis-server", "--port", str(REDIS_PORT),
         "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=(logs / "redis.log").open("wb"), stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    end = time.monotonic() + 20
    while time.monotonic() < end:
        try:
            if redis.Redis(port=REDIS_PORT, socket_connect_timeout=0.5).ping():
                return proc
        except redis.exceptions.ConnectionError:
            time.sleep(0.2)
    raise SystemExit("redis-server did not answer")


def pdf_worker(stack: smoke.Stack, name: str, concurrency: int) -> subprocess.Popen:
    return stack.start(
        name, str(smoke.BIN / "celery"), "-A", "config", "worker", "-Q", "pdf", "-c", str(concurrency),
        "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "-l", "INFO",
    )  # fmt: skip


def counts(dsn: str, batches: list[int]) -> dict[str, int]:
    out = {"pending": 0, "done": 0, "failed": 0}
    out.update(
        sql(
            dsn,
            "select status, count(*) from benefits_statementbatchitem where batch_id = any(%s) group by status",
            (batches,),
        )
    )
    return out


def check(dsn: str, work: Path, batch_id: int) -> dict[str, int]:
    total, plan = sql(
        dsn,
        "select b.total, p.key from benefits_statementbatch b join benefits_plan p on p.id = b.plan_id "
        "where b.id = %s",
        (batch_id,),
    )[0]
    done, memberships, documents = sql(
        dsn,
        "select count(*), count(distinct membership_id), count(distinct document_id) "
        "from benefits_statementbatchitem where batch_id = %s and status = 'done'",
        (batch_id,),
    )[0]
    issued = sql(
        dsn,
        "select count(*) from benefits_generateddocument where (payload->'batch'->>'id')::int = %s",
        (batch_id,),
    )[0][0]
    files = len(list((work / "private" / "statements" / plan / str(YEAR)).glob("*.pdf")))
    return {
        "plan": plan,
        "total": total,
        "done": done,
        "memberships": memberships,
        "documents": documents,
        "issued": issued,
        "files": files,
        "duplicates": issued - done,
        "missing": total - done,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--participants", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=2, help="PDF worker processes")
    parser.add_argument("--kill-at", type=float, default=0.5, help="fraction done when the worker is killed")
    parser.add_argument("--timeout", type=float, default=4 * 3600, help="seconds to wait for the batches")
    parser.add_argument("--keep", action="store_true", help="keep the database and the work folder")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="batch-kill-"))
    logs = work / "logs"
    logs.mkdir()
    log(f"work folder {work}")
    redis_proc = start_redis(logs)
    dsn = smoke.prepare_database(PG, DATABASE)
    env = smoke.smoke_environment(work, dsn, f"redis://127.0.0.1:{REDIS_PORT}/0")
    env.update(JOBS_SWEEP_SECONDS="10", JOBS_RESEND_AFTER="30", DJANGO_CONN_MAX_AGE="60")
    stack = smoke.Stack(env, logs)
    try:
        for step in (("migrate", "--noinput"), ("collectstatic", "--noinput"), ("load_demo",)):
            manage(env, *step)
        started = time.monotonic()
        log(manage(env, "generate_population", str(args.participants)).strip())
        log(f"population ready in {time.monotonic() - started:.0f} s")

        workers = {"pdf": pdf_worker(stack, "pdf", args.concurrency)}
        stack.start(
            "worker-default", str(smoke.BIN / "celery"), "-A", "config", "worker", "-Q", "default", "-c", "1",
            "-n", "default@%h", "--without-gossip", "--without-mingle", "-l", "INFO",
        )  # fmt: skip
        # The sweeper runs on a queue and a worker of its own (config/settings/base.py, deploy/Procfile):
        # without it nothing puts back the chunks the killed worker held until Redis's visibility timeout.
        stack.start(
            "worker-sweep", str(smoke.BIN / "celery"), "-A", "config", "worker", "-Q", "sweep", "-c", "1",
            "-n", "sweep@%h", "--without-gossip", "--without-mingle", "-l", "INFO",
        )  # fmt: skip
        stack.start("beat", str(smoke.BIN / "celery"), "-A", "config", "beat", "-s", str(logs / "beat-db"))

        plans = [key for (key,) in sql(dsn, "select key from benefits_plan order by key")]
        started = time.monotonic()
        batches = []
        for plan in plans:
            out = manage(env, "statement_batch", plan, str(YEAR))
            batches.append(int(out.split("batch ")[1].split(":")[0]))
            log(out.strip())
        total = sql(dsn, "select sum(total) from benefits_statementbatch where id = any(%s)", (batches,))[0][
            0
        ]
        log(f"{len(batches)} batches, {total} statements; the PDF worker is killed at {args.kill_at:.0%}")

        killed_at = kill_done = None
        last = 0.0
        while True:
            now = counts(dsn, batches)
            elapsed = time.monotonic() - started
            if elapsed - last >= 60:
                last = elapsed
                log(f"{elapsed:7.0f} s  {now}  {now['done'] / max(elapsed, 1):.2f}/s")
            if killed_at is None and now["done"] >= args.kill_at * total:
                held = sql(
                    dsn, "select count(*) from benefits_job where status = 'running' and queue = 'pdf'"
                )[0][0]
                os.killpg(workers["pdf"].pid, signal.SIGKILL)  # main process and children, mid-chunk
                workers["pdf"].wait(timeout=30)
                for entry in [p for p in stack.procs if p[1] is workers["pdf"]]:  # dead on purpose
                    stack.procs.remove(entry)
                    entry[2].close()
                killed_at, kill_done = elapsed, now["done"]
                log(f"SIGKILLed the PDF worker at {elapsed:.0f} s with {now['done']} of {total} done "
                    f"and {held} chunk(s) running")  # fmt: skip
                time.sleep(2)
                workers["pdf"] = pdf_worker(stack, "pdf-restarted", args.concurrency)
            finished = sql(
                dsn,
                "select count(*) from benefits_statementbatch where id = any(%s) and finished_at is not null",
                (batches,),
            )[0][0]
            if finished == len(batches):
                break
            if elapsed > args.timeout:
                log(f"timed out after {elapsed:.0f} s: {now}")
                return 1
            stack.check_alive()
            time.sleep(POLL)

        elapsed = time.monotonic() - started
        final = counts(dsn, batches)
        results = [check(dsn, work, b) for b in batches]
        reclaimed = sql(
            dsn,
            "select count(*), coalesce(sum(attempts - 1), 0) from benefits_job "
            "where kind = 'statement_batch.chunk' and attempts > 1",
        )[0]
        print()
        print(
            f"statement batches: {len(batches)} plans, {total} statements, {args.participants} generated participants"
        )
        print(
            f"  PDF worker: {args.concurrency} processes; SIGKILLed at {killed_at:.0f} s with {kill_done} done"
        )
        print(f"  finished in {elapsed:.0f} s: {final['done'] / elapsed:.2f} statements/s overall "
              f"({kill_done / killed_at:.2f}/s before the kill, "
              f"{(final['done'] - kill_done) / (elapsed - killed_at):.2f}/s after it)")  # fmt: skip
        print(f"  chunks run more than once: {reclaimed[0]} ({reclaimed[1]} extra attempts)")
        for r in results:
            print(f"  {r['plan']:<14} total {r['total']:>6}  done {r['done']:>6}  documents {r['issued']:>6}  "
                  f"files {r['files']:>6}  duplicates {r['duplicates']}  missing {r['missing']}")  # fmt: skip
        duplicates = sum(r["duplicates"] for r in results)
        missing = sum(r["missing"] for r in results)
        print(f"  duplicates = {duplicates}, missing = {missing}, failed = {final['failed']}")
        ok = (
            not duplicates
            and not missing
            and not final["failed"]
            and all(
                r["done"] == r["memberships"] == r["documents"] == r["issued"] == r["files"] == r["total"]
                for r in results
            )
        )
        print("  exactly once: " + ("yes" if ok else "NO"))
        return 0 if ok else 1
    finally:
        stack.stop()
        redis_proc.terminate()
        redis_proc.wait(timeout=20)
        if not args.keep:
            sql(f"{PG}/postgres", f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
            shutil.rmtree(work / "private", ignore_errors=True)
            shutil.rmtree(work / "static", ignore_errors=True)
            log(f"dropped {DATABASE}; logs kept in {logs}")


if __name__ == "__main__":
    sys.exit(main())
