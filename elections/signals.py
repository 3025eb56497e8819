"""What elections tell the layers above them (payments), without importing them.

``payment_due`` is sent inside the transaction that makes a payment due: an election taking effect, or
a loan or withdrawal whose spouse's consent completed it (or that needed none). ``payment_withdrawn``
is sent when an election in effect is revoked or replaced before anything was paid. Receivers
(``payments.hooks``) schedule or cancel the payment record in the same transaction and return the words
the claim shows ("Scheduled for January 1, 2027: ...").
"""

from django.dispatch import Signal

payment_due = Signal()  # kwargs: claim, election (or None), actor, on, request
payment_withdrawn = Signal()  # kwargs: claim, election, actor, on, request
