"""Does sign-up or password reset tell anyone which addresses have a login? Timed on the production stack.

    .venv/bin/python bench/bench_enumeration.py [ROUNDS]      (default: 20 rounds of each)

What it runs (scripts/smoke.py's stack on its own database, Redis database and port): PostgreSQL,
Redis, gunicorn (2 workers) with the production settings, the demo loaded and five more logins. Each
round posts the sign-up form and the password-reset form once with an address that has a login and
once with a new one, alternating the order, each from a fresh session (its own CSRF cookie), paced
so that the rate limits (which answer alike for both kinds of address) are not what is measured. No
Celery worker runs: the e-mails that follow are jobs left waiting, as they would be while a worker is
busy, so what is timed is the request alone.

What it prints: for each form and each kind of address, the count, min, p50, p95 and max in
milliseconds, whether every answer was the same (status and redirect), and the gap between the
medians of registered and new addresses beside the floor (ACCOUNT_ENUMERATION_MIN_SECONDS, 1.5 s
in production). The baseline is the same run with the floor switched off (BENCH_FLOOR=0), which
shows what the floor hides. Environment: BENCH_DATABASE (plan_benefits_enum), BENCH_PG,
BENCH_REDIS_URL (redis://127.0.0.1:6379/12, flushed), BENCH_PORT (8791), BENCH_FLOOR.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from smoke import (  # noqa: E402
    BIN,
    Client,
    Fail,
    Stack,
    flush_redis,
    log,
    manage,
    prepare_database,
    smoke_environment,
    wait_until_up,
)

REGISTERED = [f"enum-registered-{k}@example.test" for k in range(5)]
ROUND_SECONDS = 8.0  # paced under the rate limits (20 a minute from one address, 5 a minute per e-mail)
PASSWORD = "a-long-password-2026-77"  # noqa: S105 (a throwaway password for the timed sign-ups)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def timed_post(base: str, path: str, fields: dict) -> tuple[float, str]:
    """GET the form in a fresh session, then time its POST alone; the answer is status and place."""
    client = Client(base)
    _, html = client.page(path)
    data = {"csrfmiddlewaretoken": client.csrf(html), **fields}
    started = time.perf_counter()
    status, where, headers, _ = client.request(path, data, follow=False)
    elapsed = (time.perf_counter() - started) * 1000
    return elapsed, f"{status} {headers.get('Location', where)}"


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    pg = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
    port = int(os.environ.get("BENCH_PORT", "8791"))
    work = Path(tempfile.mkdtemp(prefix="enum-"))
    (work / "logs").mkdir()
    database_url = prepare_database(pg, os.environ.get("BENCH_DATABASE", "plan_benefits_enum"))
    env = smoke_environment(work, database_url, redis_url)
    if os.environ.get("BENCH_FLOOR") is not None:
        env["ACCOUNT_ENUMERATION_MIN_SECONDS"] = os.environ["BENCH_FLOOR"]
    floor = float(env.get("ACCOUNT_ENUMERATION_MIN_SECONDS", "1.5"))
    flush_redis(redis_url)
    stack = Stack(env, work / "logs")
    times: dict[tuple[str, str], list[float]] = {}
    answers: dict[str, set[str]] = {}
    try:
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        manage(env, "load_demo")
        manage(
            env, "shell", "-c",
            "from accounts.models import User\n"
            f"for e in {REGISTERED!r}: User.objects.create_user(email=e, password={PASSWORD!r})",
        )  # fmt: skip
        stack.start(
            "gunicorn", str(BIN / "gunicorn"), "config.wsgi:application",
            "--bind", f"127.0.0.1:{port}", "--workers", "2", "--timeout", "60",
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}/"
        wait_until_up(Client(base), stack)
        log(f"{rounds} rounds of sign-up and password reset, floor {floor} s")
        for i in range(rounds):
            round_started = time.monotonic()
            new = f"enum-{i}-{os.getpid()}@example.test"
            order = [("registered", REGISTERED[i % len(REGISTERED)]), ("new", new)]
            if i % 2:
                order.reverse()
            for who, email in order:
                for form, path, fields in (
                    (
                        "sign-up",
                        "/accounts/signup/",
                        {"email": email, "password1": PASSWORD, "password2": PASSWORD},
                    ),
                    ("password reset", "/accounts/password/reset/", {"email": email}),
                ):
                    elapsed, answer = timed_post(base, path, fields)
                    times.setdefault((form, who), []).append(elapsed)
                    answers.setdefault(form, set()).add(answer)
            time.sleep(max(0.0, ROUND_SECONDS - (time.monotonic() - round_started)))
        stack.check_alive()
    except Fail as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        stack.stop()
        shutil.rmtree(work, ignore_errors=True)

    print(f"\nSign-up and password reset on the production stack ({os.cpu_count()} cores), floor {floor} s")
    print(f"{'form':<16} {'address':<11} {'n':>3} {'min ms':>7} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
    for (form, who), t in sorted(times.items()):
        print(
            f"{form:<16} {who:<11} {len(t):>3} {min(t):>7.0f} {statistics.median(t):>7.0f} "
            f"{percentile(t, 95):>7.0f} {max(t):>7.0f}"
        )
    for form in ("sign-up", "password reset"):
        gap = statistics.median(times[(form, "registered")]) - statistics.median(times[(form, "new")])
        same = "the same answer" if len(answers[form]) == 1 else f"DIFFERENT answers: {sorted(answers[form])}"
        print(f"{form}: {same} for both; median registered minus new: {gap:+.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
