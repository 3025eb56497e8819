from __future__ import annotations

import base64
import hashlib
import hmac
import os
import struct
import time
import uuid

import pytest
import time_machine
from hypothesis import settings as hypothesis_settings

from benefits.engine.numpy_on_first_use import import_numpy

# numpy as the product runs it (its BLAS on one thread), also for the test modules that import it
# themselves, before any engine module would.
import_numpy()

# CI runs the property tests derandomized (the same examples every run) and without per-example
# deadlines, so a shared, loaded machine cannot turn them red by chance; locally they explore freely.
# HYPOTHESIS_RANDOM=1 (make test-random) explores new examples even where CI is set.
hypothesis_settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI") and not os.environ.get("HYPOTHESIS_RANDOM"):
    hypothesis_settings.load_profile("ci")


def pytest_collection_modifyitems(config, items):
    """Longest files first, so the parallel run (--dist loadfile: a file is one unit of work, given to the
    next free worker) does not end with one worker alone on a long file. The browser tests are the long
    ones (tens of seconds a test); the other files follow with the most tests first. The order within a
    file is kept. xdist's own reordering (by test count only) is off in pyproject.toml, or it would put
    the browser files, which have few tests, last."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # one process: the collection order, as written
        return
    per_file: dict[object, int] = {}
    browser: set[object] = set()
    for item in items:
        per_file[item.path] = per_file.get(item.path, 0) + 1
        if item.get_closest_marker("browser"):
            browser.add(item.path)
    items.sort(key=lambda item: (item.path not in browser, -per_file[item.path]))


# Django imports stay inside the fixtures so the engine's tests (tests/engine) also run without Django:
#   pytest -p no:django tests/engine
PASSWORD = "correct-horse-battery-9"  # noqa: S105 - the factories' password

TOTP_SECRET = base64.b32encode(b"test-totp-secret-123").decode()


def totp_now(secret: str, *, at: float | None = None) -> str:
    """An RFC 6238 code (30 s, 6 digits, SHA-1), computed here so tests use no allauth internals."""
    counter = int((at if at is not None else time.time()) // 30)
    key = base64.b32decode(secret, casefold=True)
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"


def token() -> str:
    """A fresh one-time submission token, as every form that creates something carries (issue 15)."""
    return uuid.uuid4().hex


def enroll_totp(user, secret: str = TOTP_SECRET) -> None:
    from allauth.mfa.models import Authenticator
    from allauth.mfa.utils import encrypt

    Authenticator.objects.create(user=user, type=Authenticator.Type.TOTP, data={"secret": encrypt(secret)})


@pytest.fixture(autouse=True)
def _clear_cache(request):
    """Rate-limit counters live in the cache: start every Django test with an empty one."""
    if not request.config.pluginmanager.hasplugin("django") or "tests/engine" in str(request.path):
        yield
        return
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def participant_user(db):
    from accounts.models import User
    from tests.factories import MembershipFactory, ParticipantFactory, UserFactory

    user = UserFactory(role=User.Role.PARTICIPANT)
    participant = ParticipantFactory(user=user)
    MembershipFactory(participant=participant)
    return user


@pytest.fixture
def other_participant(db):
    from accounts.models import User
    from tests.factories import MembershipFactory, ParticipantFactory, UserFactory

    participant = ParticipantFactory(user=UserFactory(role=User.Role.PARTICIPANT))
    MembershipFactory(participant=participant)
    return participant


@pytest.fixture
def committee_user(db):
    from accounts.models import User
    from tests.factories import UserFactory

    user = UserFactory(role=User.Role.COMMITTEE)
    enroll_totp(user)
    return user


@pytest.fixture
def admin_user(db):
    from accounts.models import User
    from tests.factories import UserFactory

    user = UserFactory(role=User.Role.ADMINISTRATOR, is_staff=True)
    enroll_totp(user)
    return user


def login_with_totp(client, user, password: str = PASSWORD, secret: str = TOTP_SECRET):
    """The real two-step login: password, then a TOTP code. Returns the final response."""
    resp = client.post("/accounts/login/", {"login": user.email, "password": password})
    assert resp.status_code == 302 and resp["Location"] == "/accounts/2fa/authenticate/", resp
    return post_totp_code(client, secret)


def post_totp_code(client, secret: str = TOTP_SECRET):
    """Post the current TOTP code with the clock held still: the code and the server's check read the same
    instant, so a 30-second step cannot end between them (on a loaded machine it could), and no test
    waits for the next step."""
    with time_machine.travel(time.time(), tick=False):
        return client.post("/accounts/2fa/authenticate/", {"code": totp_now(secret)})


@pytest.fixture
def staff_client(client):
    """A client logged in (with TOTP) as the given staff user."""

    def _login(user):
        resp = login_with_totp(client, user)
        assert resp.status_code == 302, resp
        return client

    return _login
