"""Fault tests with real processes (`make faults`, `pytest -m faults tests/faults`).

The world: its own PostgreSQL database, its own redis-server on a spare port (stopped and started by the
tests; the shared Redis is never touched), production settings, the demo data plus a generated
population. Each test starts the gunicorn / Celery processes it needs and stops them at its end.

Environment: FAULTS_DATABASE (default plan_benefits_faults), FAULTS_PG (postgres://postgres@127.0.0.1:5432),
FAULTS_REDIS_PORT (default 8114), FAULTS_PORT (gunicorn, default 8115), FAULTS_POPULATION (default 60).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("smoke_script", ROOT / "scripts" / "smoke.py")
smoke = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(smoke)

PG = os.environ.get("FAULTS_PG", "postgres://postgres@127.0.0.1:5432")
DATABASE = os.environ.get("FAULTS_DATABASE", "plan_benefits_faults")
REDIS_PORT = int(os.environ.get("FAULTS_REDIS_PORT", "8114"))
WEB_PORT = int(os.environ.get("FAULTS_PORT", "8115"))
POPULATION = os.environ.get("FAULTS_POPULATION", "60")


class OwnRedis:
    """A redis-server of our own (no persistence, like the shared one): stopping it loses its queues."""

    def __init__(self, port: int, log: Path):
        self.port, self.log, self.proc = port, log, None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "/usr/bin/redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_until(self.ping, 20, "redis-server to answer")

    def ping(self) -> bool:
        import redis

        try:
            return redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
        except redis.exceptions.ConnectionError:
            return False

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=20)
        self.proc = None


def wait_until(predicate, timeout: float, what: str, interval: float = 0.5):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


@dataclass
class World:
    env: dict
    redis: OwnRedis
    work: Path
    dsn: str

    def sql(self, query: str, params=()) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            cur = conn.execute(query, params)
            return cur.fetchall() if cur.description else []

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [smoke.PY, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        return result.stdout

    def start_batch(self, plan: str, year: int) -> int:
        return int(re.search(r"batch (\d+):", self.manage("statement_batch", plan, str(year)))[1])

    def batch_counts(self, batch_id: int) -> dict[str, int]:
        counts = {"pending": 0, "done": 0, "failed": 0}
        counts.update(
            self.sql(
                "select status, count(*) from benefits_statementbatchitem where batch_id = %s group by status",
                (batch_id,),
            )
        )
        return counts

    def batch_finished(self, batch_id: int) -> bool:
        return bool(
            self.sql("select finished_at from benefits_statementbatch where id = %s", (batch_id,))[0][0]
        )

    def largest_plan(self) -> tuple[str, int]:
        return self.sql(
            "select p.key, count(*) from benefits_planmembership m join benefits_plan p on p.id = m.plan_id "
            "group by p.key order by count(*) desc, p.key limit 1"
        )[0]

    def terminate_connections(self) -> int:
        """Drop every server connection to the database (what a failover or a restart does)."""
        return len(
            self.sql(
                "select pg_terminate_backend(pid) from pg_stat_activity "
                "where datname = %s and pid <> pg_backend_pid()",
                (DATABASE,),
            )
        )

    def assert_exactly_once(self, batch_id: int) -> int:
        total, year, plan = self.sql(
            "select b.total, b.year, p.key from benefits_statementbatch b join benefits_plan p on p.id = b.plan_id "
            "where b.id = %s",
            (batch_id,),
        )[0]
        items, memberships, documents = self.sql(
            "select count(*), count(distinct membership_id), count(distinct document_id) "
            "from benefits_statementbatchitem where batch_id = %s and status = 'done'",
            (batch_id,),
        )[0]
        issued = self.sql(
            "select count(*) from benefits_generateddocument where (payload->'batch'->>'id')::int = %s",
            (batch_id,),
        )[0][0]
        files = list((self.work / "private" / "statements" / plan / str(year)).glob("*.pdf"))
        assert items == memberships == documents == issued == total, (
            items,
            memberships,
            documents,
            issued,
            total,
        )
        assert len(files) == total
        return total


def start_workers(stack, *, pdf_concurrency: int = 2) -> dict:
    procs = {
        "worker-default": stack.start(
            "worker-default", str(smoke.BIN / "celery"), "-A", "config", "worker", "-Q", "default", "-c", "1",
            "-n", "default@%h", "--without-gossip", "--without-mingle", "-l", "INFO",
        ),
        "worker-pdf": stack.start(
            "worker-pdf", str(smoke.BIN / "celery"), "-A", "config", "worker", "-Q", "pdf", "-c",
            str(pdf_concurrency), "-n", "pdf@%h", "--without-gossip", "--without-mingle", "-l", "INFO",
        ),
        "worker-sweep": stack.start(
            "worker-sweep", str(smoke.BIN / "celery"), "-A", "config", "worker", "-Q", "sweep", "-c", "1",
            "-n", "sweep@%h", "--without-gossip", "--without-mingle", "-l", "INFO",
        ),
        "beat": stack.start(
            "beat", str(smoke.BIN / "celery"), "-A", "config", "beat", "-s", str(stack.logs / "beat-schedule"), "-l", "INFO",
        ),
    }  # fmt: skip
    return procs


def start_web(stack) -> str:
    stack.start(
        "gunicorn", str(smoke.BIN / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{WEB_PORT}",
        "--workers", "2", "--timeout", "60",
    )  # fmt: skip
    base = f"http://127.0.0.1:{WEB_PORT}/"
    smoke.wait_until_up(smoke.Client(base), stack)
    return base


@pytest.fixture(scope="session")
def world(tmp_path_factory):
    work = tmp_path_factory.mktemp("faults")
    (work / "logs").mkdir()
    redis = OwnRedis(REDIS_PORT, work / "logs" / "redis.log")
    redis.start()
    url = f"redis://127.0.0.1:{REDIS_PORT}/0"
    dsn = smoke.prepare_database(PG, DATABASE)
    env = smoke.smoke_environment(work, dsn, url)
    env.update(
        JOBS_SWEEP_SECONDS="2",
        JOBS_RESEND_AFTER="4",
        JOBS_HEARTBEAT_SECONDS="1",
        JOBS_STALL_GRACE="6",
        STATEMENT_BATCH_CHUNK_SIZE="4",
        DJANGO_CONN_MAX_AGE="60",
    )
    world = World(env=env, redis=redis, work=work, dsn=dsn)
    world.manage("migrate", "--noinput")
    world.manage("collectstatic", "--noinput")
    world.manage("load_demo")
    world.manage("generate_population", POPULATION)
    yield world
    redis.stop()


@pytest.fixture
def stack(world, request):
    logs = world.work / "logs" / request.node.name
    logs.mkdir(parents=True, exist_ok=True)
    if world.redis.proc is None:
        world.redis.start()
    stack = smoke.Stack(world.env, logs)
    yield stack
    stack.stop()
