"""A cache outage degrades, it does not break: with Redis unreachable, login and pages work, and the
login rate limit still counts (in each process's memory) instead of opening up or answering 500."""

import time

import pytest
from django.core.cache import caches

pytestmark = pytest.mark.django_db

DOWN = {
    "default": {
        "BACKEND": "config.cache.ResilientRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "OPTIONS": {"retry_after": 30},
    }
}


@pytest.fixture
def redis_down(settings):
    settings.CACHES = DOWN
    yield caches["default"]


def test_the_cache_answers_from_memory_while_redis_is_down(redis_down):
    started = time.monotonic()
    assert redis_down.get("missing") is None
    assert redis_down.add("k", 1, 60) is True and redis_down.get("k") == 1
    assert redis_down.incr("k") == 2
    assert redis_down.degraded
    assert time.monotonic() - started < 3  # one failed connection, then memory without waiting


def test_login_and_pages_work_while_redis_is_down(redis_down, client, participant_user, password):
    response = client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    assert response.status_code == 302 and not response["Location"].startswith("/accounts/login")
    page = client.get("/benefits/")
    assert page.status_code == 200
    assert "cache" not in page.content.decode().lower() and "redis" not in page.content.decode().lower()


def test_the_login_rate_limit_still_holds_while_redis_is_down(redis_down, client, participant_user):
    pages = [
        client.post("/accounts/login/", {"login": participant_user.email, "password": "wrong-password-1"})
        for _ in range(7)
    ]
    assert all(p.status_code == 200 for p in pages)
    # "5/5m/key": after five failures the form refuses, so the attacker is still slowed down.
    assert "Too many failed login attempts" not in pages[0].content.decode()
    assert "Too many failed login attempts" in pages[-1].content.decode()
