from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.elections.conftest import AS_OF


@pytest.fixture
def demo(db, settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", as_of=AS_OF)
