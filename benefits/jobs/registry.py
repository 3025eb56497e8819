"""What each kind of job does: registered once per kind (in an ``AppConfig.ready``) by dotted paths,
so the registry imports no app code until a job actually runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module


@dataclass(frozen=True)
class JobKind:
    name: str
    run: str  # "module:function", called with the Job; must be idempotent (it may run twice)
    label: str  # what staff read on the jobs page, e.g. "PDF document"
    queue: str = "default"
    time_limit: int = 180  # seconds per attempt; the broker's visibility timeout must stay above it
    max_attempts: int = 3
    on_failed: str = ""  # "module:function" (job, reason): put the failure where people look for it
    on_retry: str = ""  # "module:function" (job): make the target waiting again before a retry
    target_url: str = ""  # "module:function" (job) -> URL of the target for staff, or ""
    # "module:function" () -> int: queue again the kind's work left waiting with no open job (e.g. items
    # another worker held when a run passed them); the beat sweeper calls it.
    sweep: str = ""


_KINDS: dict[str, JobKind] = {}


def register_job_kind(kind: JobKind) -> JobKind:
    existing = _KINDS.get(kind.name)
    if existing is not None and existing != kind:
        raise ValueError(f"Job kind {kind.name!r} is already registered differently")
    _KINDS[kind.name] = kind
    return kind


def job_kind(name: str) -> JobKind:
    try:
        return _KINDS[name]
    except KeyError:
        raise LookupError(f"No job kind {name!r} is registered") from None


def job_kinds() -> dict[str, JobKind]:
    return dict(_KINDS)


def resolve(path: str) -> Callable:
    module, _, attr = path.partition(":")
    return getattr(import_module(module), attr)
