"""Row locks for state changes another person or worker can race (issue 30).

A service that reads a row's state, decides, and writes must hold the row's lock from the read to its
commit; otherwise two actors read the same state and both act (a revocation lost under a verification,
two signed versions). ``lock_row`` takes that lock on the row alone (``FOR UPDATE OF`` the table, so the
joined plan and person rows stay free for everyone else) and reloads the caller's object, so the
state the caller checks next is the committed one and nobody else can change it before this commit."""

from __future__ import annotations

from django.db import models, transaction


def lock_row[M: models.Model](instance: M) -> M:
    """Lock ``instance``'s row until the current transaction ends and reload its fields; call inside
    ``transaction.atomic()``. Raises ``DoesNotExist`` when the row is gone (another actor removed it)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_row needs a transaction: call it inside transaction.atomic().")
    model = type(instance)
    model._base_manager.select_for_update(of=("self",)).only("pk").get(pk=instance.pk)
    instance.refresh_from_db()
    return instance
