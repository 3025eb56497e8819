"""The answers to what elections tell this layer (``elections.signals``), connected in ``apps.ready``."""

from __future__ import annotations


def _on_payment_due(sender, *, claim, election=None, actor=None, on, request=None, **kwargs) -> str:
    from payments.presenters import scheduled_words
    from payments.services import payment_schedule

    payment = payment_schedule(claim=claim, election=election, actor=actor, on=on, request=request)
    return scheduled_words(payment)


def _on_payment_withdrawn(sender, *, claim, election=None, actor=None, on, request=None, **kwargs) -> str:
    from payments.services import payment_cancel_for_claim

    payment_cancel_for_claim(
        claim=claim, actor=actor, request=request, reason="The election was revoked or replaced."
    )
    return ""


def connect() -> None:
    from elections.signals import payment_due, payment_withdrawn

    payment_due.connect(_on_payment_due, dispatch_uid="payments.payment_due")
    payment_withdrawn.connect(_on_payment_withdrawn, dispatch_uid="payments.payment_withdrawn")
