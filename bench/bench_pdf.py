"""Statement PDFs per second in one process, beside a bare WeasyPrint render of the same HTML.

Usage: ``.venv/bin/python bench/bench_pdf.py [N]``

Needs PostgreSQL (``DATABASE_URL``): loads the demo in a throw-away database and builds the statement
payloads of the 3-plan demo participant. Then, for the same HTML:

- bare WeasyPrint: ``HTML(string=html, base_url=...).write_pdf(pdf_variant="pdf/a-3u")`` with WeasyPrint's
  default fetcher (the floor: layout and PDF writing only);
- the app: ``benefits.services.documents.render_pdf_bytes`` (template render, static-only fetcher, the
  worker's font configuration), as a Celery worker child runs it;
- the first render in a fresh process, cold and after ``benefits.pdf_render.warm()`` (what a worker
  child does at start, ``worker_process_init``).

Targets (issue 17): at least 4 PDFs a second per process, within 1.25× of the bare render.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from django.conf import settings  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from djangobench import ROOT, demo_database  # noqa: E402  (sets Django up)

SAMPLES = 3

FIRST_RENDER = """
import os, sys, time
sys.path.insert(0, {root!r})
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
import django
django.setup()
from benefits import pdf_render
t = time.perf_counter()
if {warm}:
    pdf_render.warm()
w = time.perf_counter()
from benefits.services.documents import render_pdf_bytes
render_pdf_bytes("pdf/base.html", {{"document": None, "payload": {{}}, "participant": None}})
e = time.perf_counter()
print(f"{{(w - t) * 1000:.0f}} {{(e - w) * 1000:.0f}}")
"""


def per_second(fn, jobs: list, rounds: int = 2) -> float:
    """Median over SAMPLES of documents per second rendering every job ``rounds`` times."""
    for job in jobs:
        fn(job)  # warm
    samples = []
    for _ in range(SAMPLES):
        t = time.perf_counter()
        for _ in range(rounds):
            for job in jobs:
                fn(job)
        samples.append(rounds * len(jobs) / (time.perf_counter() - t))
    return statistics.median(samples)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    with demo_database("pdf"):
        run(rounds)
    first_render()


def run(rounds: int) -> None:
    from weasyprint import HTML

    from accounts.models import User
    from benefits import selectors
    from benefits.models import GeneratedDocument
    from benefits.presenters.statements import statement_payload
    from benefits.services import today
    from benefits.services.documents import render_pdf_bytes
    from benefits.services.modeler import STATEMENT_TEMPLATES
    from benefits.statement_inputs import statement_figures

    pat = User.objects.get(email="pat@demo.test").participant
    jobs = []
    for m in selectors.memberships_for_participant(pat):
        payload = statement_payload(statement_figures(m, today=today(), year=today().year))
        document = GeneratedDocument(
            participant=pat, kind="statement", title=f"{m.plan.name} statement", payload=payload
        )
        context = {"document": document, "payload": payload, "participant": pat}
        template = STATEMENT_TEMPLATES[payload["kind"]]
        jobs.append((template, context, render_to_string(template, context)))

    base_url = "file://" + str(Path(settings.BASE_DIR) / "static") + "/"

    def bare(job):
        html = job[2].replace("/static/", base_url)  # the same stylesheet, read by WeasyPrint's own fetcher
        return HTML(string=html, base_url=base_url).write_pdf(pdf_variant="pdf/a-3u")

    def app(job):
        return render_pdf_bytes(job[0], job[1])

    floor = per_second(bare, jobs, rounds)
    ours = per_second(app, jobs, rounds)
    print(f"statement PDFs, one process ({len(jobs)} statements × {rounds}; median of {SAMPLES})")
    print(f"  bare WeasyPrint, same HTML (baseline)      {floor:6.2f} PDFs/s  {1000 / floor:6.0f} ms each")
    print(
        f"  the app (template, fetcher, font config)   {ours:6.2f} PDFs/s  {1000 / ours:6.0f} ms each"
        f"   {floor / ours:4.2f}× the bare render (target ≤ 1.25×; ≥ 4/s)"
    )


def first_render() -> None:
    print("  first render in a fresh process (ms: warm-up, then the render)")
    for warm in (False, True):
        out = subprocess.run(
            [sys.executable, "-c", FIRST_RENDER.format(root=str(ROOT), warm=warm)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        ).stdout.split()
        label = "after worker_process_init warm-up" if warm else "cold (no warm-up)"
        print(f"    {label:<36} warm-up {out[-2]:>5} ms   first render {out[-1]:>5} ms")


if __name__ == "__main__":
    main()
