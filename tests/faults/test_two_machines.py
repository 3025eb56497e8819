"""Beyond one machine and through a Redis restart (issue 28), with real processes.

Two "machines" on loopback: each has its own working folder (its cwd, TMPDIR, PRIVATE_STORAGE_ROOT,
APP_VAR_DIR and collected static files), a gunicorn and one Celery worker (queues default, pdf and
sweep, one task at a time); machine A also runs beat. They share nothing but the faults PostgreSQL
database, the faults redis-server (our own, on its own port: the shared Redis is never touched) and an
S3-compatible object store (moto's server on loopback), where every private file goes.

The workers run under a supervisor played by this test: a worker, web process or beat that exits is
started again after a second, as `Restart=always` in deploy/systemd/ (or honcho under systemd with
deploy/Procfile) does in production. Each restart is counted and printed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.faults.conftest import smoke, wait_until
from tests.objectstore import free_port, moto_s3

pytestmark = pytest.mark.faults

BUCKET = "plan-benefits-two-machines"
ITEM_PAUSE = "3"  # seconds between a worker's notices: long enough for the other worker to take some
LOST = "Connection to broker lost"  # Celery's consumer, when its Redis connection drops


@dataclass
class Machine:
    """One machine's processes, in its own folder; a supervisor thread restarts any that exits."""

    name: str
    root: Path
    env: dict
    port: int
    procs: dict = field(default_factory=dict)  # name -> (args, Popen)
    restarts: list = field(default_factory=list)
    _stopping: bool = False

    @classmethod
    def make(cls, name: str, base: Path, world_env: dict, store_env: dict) -> Machine:
        root = base / name
        for sub in ("tmp", "private", "var", "static", "logs"):
            (root / sub).mkdir(parents=True)
        env = {
            **world_env,
            **store_env,
            "TMPDIR": str(root / "tmp"),
            "PRIVATE_STORAGE_ROOT": str(root / "private"),  # unused with the bucket: must stay empty
            "APP_VAR_DIR": str(root / "var"),
            "DJANGO_STATIC_ROOT": str(root / "static"),
            "NOTICE_BATCH_ITEM_PAUSE_SECONDS": ITEM_PAUSE,
        }
        return cls(name=name, root=root, env=env, port=free_port())

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def worker_name(self) -> str:
        return f"machine-{self.name}"

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [smoke.PY, str(smoke.ROOT / "manage.py"), *args],
            cwd=self.root, env=self.env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr[-3000:]
        return result.stdout

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen:
        out = (self.root / "logs" / f"{name}.log").open("ab")
        proc = subprocess.Popen(
            args, cwd=self.root, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        out.close()  # the child holds its own copy
        self.procs[name] = (args, proc)
        return proc

    def start(self, *, beat: bool) -> None:
        self._spawn(
            "web", [str(smoke.BIN / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
                    "--workers", "2", "--timeout", "60"],
        )  # fmt: skip
        self._spawn(
            "worker", [str(smoke.BIN / "celery"), "-A", "config", "worker", "-Q", "default,pdf,sweep", "-c", "1",
                       "-n", f"{self.worker_name}@%h", "--without-gossip", "--without-mingle", "-l", "INFO"],
        )  # fmt: skip
        if beat:
            self._spawn(
                "beat", [str(smoke.BIN / "celery"), "-A", "config", "beat", "-s", str(self.root / "var" / "beat"),
                         "-l", "INFO"],
            )  # fmt: skip
        threading.Thread(target=self._supervise, daemon=True).start()

    def _supervise(self) -> None:
        """Restart=always, RestartSec=1: what systemd does for each unit in deploy/systemd/."""
        while not self._stopping:
            for name, (args, proc) in list(self.procs.items()):
                if proc.poll() is not None and not self._stopping:
                    self.restarts.append((name, proc.returncode, time.strftime("%H:%M:%S")))
                    time.sleep(1)
                    if not self._stopping:
                        self._spawn(name, args)
            time.sleep(0.5)

    def stop(self) -> None:
        self._stopping = True
        for _args, proc in self.procs.values():
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
        for _args, proc in self.procs.values():
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)

    def log(self, name: str) -> str:
        return (self.root / "logs" / f"{name}.log").read_text(errors="replace")

    def notice_items(self, batch_id: int) -> set[int]:
        """The items of a batch this machine's worker issued, from its log (one line per item)."""
        return {
            int(m[1])
            for m in re.finditer(rf"Notice batch {batch_id}: item (\d+) issued\b", self.log("worker"))
        }

    def local_files(self) -> list[Path]:
        return [p for p in (self.root / "private").rglob("*") if p.is_file()]


@dataclass
class Cluster:
    a: Machine
    b: Machine
    store: object  # tests.objectstore.ObjectStore
    admin_a: smoke.Client
    admin_b: smoke.Client


@pytest.fixture(scope="module")
def cluster(world, tmp_path_factory):
    base = tmp_path_factory.mktemp("machines")
    if world.redis.proc is None:
        world.redis.start()
    with moto_s3(BUCKET) as store:
        a = Machine.make("a", base, world.env, store.environ)
        b = Machine.make("b", base, world.env, store.environ)
        try:
            # Each machine serves its own copy of the static files: collected once, then copied (as a
            # deploy ships the same build to every machine).
            a.manage("collectstatic", "--noinput")
            shutil.copytree(a.root / "static", b.root / "static", dirs_exist_ok=True)
            a.start(beat=True)
            b.start(beat=False)
            for machine in (a, b):
                smoke.wait_until_up(smoke.Client(machine.base), _Alive(machine))
            # The administrator signs in (password, then TOTP) on machine A; the session lives in the
            # shared database and Redis, so the same cookie is good on machine B.
            admin_a = smoke.Client(a.base)
            smoke.login(admin_a, "admin@demo.test", smoke.ADMIN_TOTP)
            admin_b = smoke.Client(b.base)
            for cookie in admin_a.jar:
                admin_b.jar.set_cookie(cookie)
            yield Cluster(a=a, b=b, store=store, admin_a=admin_a, admin_b=admin_b)
        finally:
            a.stop()
            b.stop()
            for machine in (a, b):
                print(f"machine {machine.name}: supervisor restarts {machine.restarts or 'none'}")


class _Alive:
    """What smoke.wait_until_up asks of a stack: fail early if a process died."""

    def __init__(self, machine: Machine):
        self.machine = machine

    def check_alive(self) -> None:
        _args, proc = self.machine.procs["web"]
        if proc.poll() is not None:
            raise smoke.Fail(f"gunicorn of machine {self.machine.name} exited; see {self.machine.root}/logs")


def _notice_batch_start(client: smoke.Client, plan: str) -> int:
    _, html = client.page("/claims/admin/notices/")
    where, _ = client.page(
        "/claims/admin/notices/",
        {**client.hidden(html, None), "plan": plan, "rule": "asd_within", "within_days": "366"},
    )
    return int(re.search(r"/claims/admin/notices/(\d+)/$", where)[1])


def _notice_items(world, batch_id: int, state: str) -> int:
    return world.sql(
        "select count(*) from elections_noticebatchitem where batch_id = %s and state = %s", (batch_id, state)
    )[0][0]


def _batch_and_jobs_done(world, batch_id: int) -> bool:
    """The batch is done and so is every job row for it (one job may still be in its pause after the
    other finished the batch)."""
    state = world.sql("select state from elections_noticebatch where id = %s", (batch_id,))[0][0]
    open_jobs = world.sql(
        "select count(*) from benefits_job where kind = 'notice_batch.run' and target_id = %s and status <> 'done'",
        (batch_id,),
    )[0][0]
    return state == "done" and open_jobs == 0


def _assert_each_notice_once(world, batch_id: int) -> tuple[int, int]:
    total, issued, distinct_notices = world.sql(
        "select count(*), count(*) filter (where state = 'issued'), count(distinct notice_id) "
        "from elections_noticebatchitem where batch_id = %s",
        (batch_id,),
    )[0]
    in_batch = world.sql("select count(*) from elections_notice where batch_id = %s", (batch_id,))[0][0]
    doubled = world.sql(
        "select participant_id, kind, asd from elections_notice group by 1, 2, 3 having count(*) > 1"
    )
    assert total >= 2, f"the batch chose {total} people: too few to share between workers"
    assert issued == total == distinct_notices == in_batch, (issued, total, distinct_notices, in_batch)
    assert doubled == []
    return total, issued


def test_two_machines_render_on_one_serve_from_the_other_and_share_a_batch_exactly_once(world, cluster):
    a, b = cluster.a, cluster.b

    # 1. Annual statements started on machine A; each machine's worker renders its share into the bucket.
    plan, _ = world.largest_plan()
    batch = int(re.search(r"batch (\d+):", a.manage("statement_batch", plan, "2025"))[1])
    wait_until(lambda: world.batch_finished(batch), 180, "the statement batch", interval=1)
    docs = world.sql(
        "select i.id, d.id, d.file_name, d.sha256 from benefits_statementbatchitem i "
        "join benefits_generateddocument d on d.id = i.document_id where i.batch_id = %s and i.status = 'done'",
        (batch,),
    )
    total = world.sql("select total from benefits_statementbatch where id = %s", (batch,))[0][0]
    assert len(docs) == len({d[1] for d in docs}) == total, (len(docs), total)
    rendered_by = {}
    for worker, items in world.sql(
        "select worker, args->'items' from benefits_job where kind = 'statement_batch.chunk' "
        "and target_id = %s and status = 'done'",
        (batch,),
    ):
        for item in items:
            rendered_by[item] = "a" if worker.startswith(a.worker_name + "@") else "b"
    assert set(rendered_by) == {d[0] for d in docs}
    assert set(rendered_by.values()) == {"a", "b"}, "one worker rendered the whole batch"
    keys = set(cluster.store.object_keys())
    assert {d[2] for d in docs} <= keys, "a statement is not in the object store"
    assert a.local_files() == b.local_files() == [], "a private file was written to a machine's disk"

    # 2. Each statement downloaded (signed in, through the application's checks) from the web process of
    # the machine whose worker did NOT render it, and from the one that did: bytes equal the stored hash.
    for item_id, doc_id, _name, sha in docs:
        other, same = (
            (cluster.admin_b, cluster.admin_a)
            if rendered_by[item_id] == "a"
            else (cluster.admin_a, cluster.admin_b)
        )
        for client in (other, same):
            status, _, headers, body = client.request(f"/benefits/documents/{doc_id}/")
            assert status == 200 and body.startswith(b"%PDF-"), (doc_id, status, headers.get("Content-Type"))
            assert hashlib.sha256(body).hexdigest() == sha, doc_id
    print(
        f"{total} statements: {sum(v == 'a' for v in rendered_by.values())} rendered on A, "
        f"{sum(v == 'b' for v in rendered_by.values())} on B; each downloaded from both web processes"
    )

    # 3. A notice batch started on machine B's page: once its people are chosen it queues a second run
    # (NOTICE_BATCH_RUNNERS, 2 by default), and once the first notice is out "Resume" on machine A (while
    # it is offered) queues another; the other machine's worker takes one, and the runs share the items
    # (each takes the next one no other holds), each notice issued once.
    notice_batch = _notice_batch_start(cluster.admin_b, "quaker-cash-balance")
    wait_until(lambda: _notice_items(world, notice_batch, "issued") >= 1, 120, "the first notice")
    page = f"/claims/admin/notices/{notice_batch}/"
    _, html = cluster.admin_a.page(page)
    if "resume the batch" in html:
        cluster.admin_a.post_from(html, f"{page}resume/")
    wait_until(
        lambda: _batch_and_jobs_done(world, notice_batch), 180, "the notice batch and its jobs", interval=1
    )
    total, _ = _assert_each_notice_once(world, notice_batch)
    jobs = world.sql(
        "select worker, status from benefits_job where kind = 'notice_batch.run' and target_id = %s order by id",
        (notice_batch,),
    )
    assert len(jobs) >= 2 and all(status == "done" for _, status in jobs), jobs
    assert {w.split("@")[0] for w, _ in jobs} == {a.worker_name, b.worker_name}, jobs
    by_a, by_b = a.notice_items(notice_batch), b.notice_items(notice_batch)
    every = {
        r[0]
        for r in world.sql("select id from elections_noticebatchitem where batch_id = %s", (notice_batch,))
    }
    assert by_a and by_b, f"one worker issued every notice: A {sorted(by_a)}, B {sorted(by_b)}"
    assert by_a.isdisjoint(by_b) and by_a | by_b == every, (sorted(by_a), sorted(by_b), sorted(every))
    print(f"notice batch of {total}: {len(by_a)} issued by A's worker, {len(by_b)} by B's; each once")


def test_redis_restarted_under_a_running_notice_batch_every_notice_is_issued_once(world, cluster):
    """Issue 28: a Redis restart could stop a worker for good (kombu's "Unrecoverable error"). Here
    Redis is restarted under a running batch until a worker's log shows its broker connection lost, and
    while it is down the administrator presses "Resume" (a second job whose message never reaches
    Redis). Nobody touches anything after that: the supervisor (this test, as systemd would) starts again
    any process that exits, the sweeper sends the job Redis never had, and the batch finishes with every
    job row done and each notice issued once."""
    a, b = cluster.a, cluster.b
    seen_before = {m.name: m.log("worker").count(LOST) for m in (a, b)}
    notice_batch = _notice_batch_start(cluster.admin_a, "carver-401k")
    wait_until(lambda: _notice_items(world, notice_batch, "issued") >= 1, 120, "the first notice")
    assert _notice_items(world, notice_batch, "pending") >= 1, "the batch finished before Redis restarted"

    def dropped() -> bool:
        return any(m.log("worker").count(LOST) > seen_before[m.name] for m in (a, b))

    restarts = 0
    page = f"/claims/admin/notices/{notice_batch}/"
    while restarts < 5 and not (restarts and dropped()):
        world.redis.stop()  # its queued messages are lost with it (no persistence)
        if restarts == 0:
            _, html = cluster.admin_b.page(page)  # pages answer with Redis down (broker and cache)
            if "resume the batch" in html:
                started = time.monotonic()
                cluster.admin_b.post_from(html, f"{page}resume/")
                assert time.monotonic() - started < 20, "the request hung on the unreachable broker"
        time.sleep(2)
        world.redis.start()
        restarts += 1
        with contextlib.suppress(AssertionError):
            wait_until(dropped, 6, "a worker to notice", interval=0.5)
    assert dropped(), "no worker lost its broker connection"
    started = time.monotonic()

    wait_until(
        lambda: _batch_and_jobs_done(world, notice_batch),
        150,
        "the batch and its jobs after Redis restarted (nobody at the keyboard)",
        interval=1,
    )
    total, _ = _assert_each_notice_once(world, notice_batch)
    jobs = world.sql(
        "select worker, attempts from benefits_job where kind = 'notice_batch.run' and target_id = %s order by id",
        (notice_batch,),
    )
    print(
        f"Redis restarted {restarts} time(s); batch of {total} and its {len(jobs)} job(s) {jobs} done "
        f"{time.monotonic() - started:.0f}s later, each notice once; supervisor restarts: "
        f"A {a.restarts or 'none'}, B {b.restarts or 'none'}"
    )
