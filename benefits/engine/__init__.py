"""The calculation engine: pure Python, no Django, no database, no network.

Every number the app, the PDFs and the command line show comes from here. Money is ``Decimal``
rounded explicitly (see ``money``); actuarial factors may be float64 and become money only through
``money.to_money``. Results carry a ``trace.Trace`` of the steps that produced them.

``ENGINE_VERSION`` names the engine that made a result: the release plus a fingerprint of the
engine's code and data files (parameters, mortality tables), e.g. ``0.1.0+3f9a1c2b7d4e``. Any change
to the engine's code or data changes it, so a stored result keyed by it is recomputed rather than
served by a newer engine.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

RELEASE = "0.1.0"
_ROOT = Path(__file__).parent
_FINGERPRINTED = (".py", ".json", ".csv")


def engine_fingerprint(root: Path = _ROOT) -> str:
    """SHA-256 (first 12 hex digits) over the engine's code and data files, by relative path.

    Only what changes results counts: source files and data; caches and editor files do not.
    """
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix not in _FINGERPRINTED or "__pycache__" in path.parts or not path.is_file():
            continue
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:12]


if TYPE_CHECKING:
    ENGINE_FINGERPRINT: str
    ENGINE_VERSION: str


def __getattr__(name: str) -> str:
    """``ENGINE_FINGERPRINT`` and ``ENGINE_VERSION``, worked out on first use and kept: a command-line
    census in JSON Lines never writes them, and hashing every engine file is 13 ms of its start-up."""
    if name not in ("ENGINE_FINGERPRINT", "ENGINE_VERSION"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    fingerprint = engine_fingerprint()
    globals().update(ENGINE_FINGERPRINT=fingerprint, ENGINE_VERSION=f"{RELEASE}+{fingerprint}")
    return str(globals()[name])
