"""Test settings: PostgreSQL and Redis on loopback, as in production; tasks run eagerly."""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/plan_benefits")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")

# pytest-xdist: each worker gets its own database (pytest-django adds the worker's suffix), its own
# Redis database (tests flush the cache, which must not empty another worker's) and its own files.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER.startswith("gw"):
    _base, _, _db = os.environ["REDIS_URL"].rpartition("/")
    _index = (int(_db or 0) - 1 - int(XDIST_WORKER[2:])) % 16
    os.environ["REDIS_URL"] = f"{_base}/{_index}"

from config.settings.base import *  # noqa: E402, F403
from config.settings.base import BASE_DIR  # noqa: E402

DEBUG = False
DEMO_PLAN_YEAR_CLAIMS = False  # each test files the claims it needs; tests of the plan year turn it on
DEMO_PAYMENTS = False  # likewise pat's demo withdrawal and loan; tests of the demo's payments turn it on
SECRET_KEY = "test-secret-key-not-for-production"  # noqa: S105
SSN_HASH_KEY = "test-ssn-hash-key"
MFA_ENCRYPTION_KEY = "test-mfa-encryption-key-not-for-production"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
PRIVATE_STORAGE_ROOT = BASE_DIR / "var" / f"test-private{'-' + XDIST_WORKER if XDIST_WORKER else ''}"
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
ACCOUNT_ENUMERATION_MIN_SECONDS = 0  # tests of the floor turn it on
NOTICE_BATCH_RUNNERS = 1  # one run per batch; tests of the fan-out turn it up
