"""Test settings: PostgreSQL and Redis on loopback, as in production; tasks run eagerly."""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/plan_benefits")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")

from config.settings.base import *  # noqa: E402, F403
from config.settings.base import BASE_DIR  # noqa: E402

DEBUG = False
DEMO_PLAN_YEAR_CLAIMS = False  # each test files the claims it needs; tests of the plan year turn it on
SECRET_KEY = "test-secret-key-not-for-production"  # noqa: S105
SSN_HASH_KEY = "test-ssn-hash-key"
MFA_ENCRYPTION_KEY = "test-mfa-encryption-key-not-for-production"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
PRIVATE_STORAGE_ROOT = BASE_DIR / "var" / "test-private"
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
ACCOUNT_ENUMERATION_MIN_SECONDS = 0  # tests of the floor turn it on
