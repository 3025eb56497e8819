from tests.elections.conftest import committee, demo, pat  # noqa: F401 - the demo's people
