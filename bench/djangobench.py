"""Django set up for the benchmarks: a throw-away PostgreSQL database with the demo loaded.

``with demo_database("pages"):`` creates ``<DATABASE_URL's name>_bench_pages``, migrates it, loads the
demo (documents in a temporary folder) and drops it on the way out, so a benchmark never touches the
database of a test run or of the demo.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import override_settings, setup_test_environment  # noqa: E402


@contextlib.contextmanager
def demo_database(suffix: str, **settings):
    if connection.vendor != "postgresql":
        sys.exit("the page and PDF benchmarks need PostgreSQL: set DATABASE_URL")
    setup_test_environment()
    connection.settings_dict.setdefault("TEST", {})["NAME"] = (
        f"{connection.settings_dict['NAME']}_bench_{suffix}"
    )
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    storage = tempfile.mkdtemp(prefix=f"bench-{suffix}-")
    try:
        with override_settings(PRIVATE_STORAGE_ROOT=storage, DEBUG=False, **settings):
            call_command("load_demo", verbosity=0)
            yield
    finally:
        connection.creation.destroy_test_db(connection.settings_dict["NAME"], verbosity=0)
