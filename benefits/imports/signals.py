"""What the import area tells the layers above it (elections), without importing them.

``market_rates_loaded`` is sent inside the transaction of an import that wrote market rates (created or
changed rows): the elections receiver gives again, in a batch queued on commit, the provisional
explanations whose look-back rates are now published (issue 25).
"""

from django.dispatch import Signal

market_rates_loaded = Signal()  # kwargs: months (set of first-of-month dates written), actor, batch
