"""The order in which each kind of payment takes the 401(k)'s sources (see docs/plan-notes)."""

from __future__ import annotations

from benefits.engine.payment_order import PRO_RATA, PaymentOrder

from .sources import (
    BEFORE_TAX,
    DISCRETIONARY,
    MATCHING_2002,
    MATCHING_PRE2002,
    NONELECTIVE,
    ROLLOVER,
    SPECIAL,
    TOP_HEAVY,
)

# §7.3(a), §7.4(e), §8.4(b) name the same order: Before-Tax (with Special), Rollover, vested Matching
# (its parts pro rata, A24; the top-heavy minimum follows the match, §12.3(a)), vested Discretionary,
# Nonelective. The caller gives the vested amounts (the hardship's earnings limit is checked at filing).
_ORDER = (
    (BEFORE_TAX, SPECIAL),
    (ROLLOVER,),
    (MATCHING_PRE2002, TOP_HEAVY, MATCHING_2002),
    (DISCRETIONARY,),
    (NONELECTIVE,),
)
PAYMENT_ORDERS = {
    "withdrawal_59half": PaymentOrder(_ORDER, "Plan §7.3(a)"),
    "hardship": PaymentOrder(_ORDER, "Plan §7.4(e)"),
    "loan": PaymentOrder(_ORDER, "Plan §8.4(b)"),
    # §5.3: a distribution reduces Units "pro rata according to their respective values".
    "termination_distribution": PaymentOrder((), "Plan §5.3 (pro rata)"),
    "death_benefit": PaymentOrder((), "Plan §5.3 (pro rata)"),
    "default": PRO_RATA,
}
