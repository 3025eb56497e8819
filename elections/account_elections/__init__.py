"""Elections a participant makes about their account, outside a benefit payment: an ESOP's
diversification election (Code §401(a)(28)(B)) and a 401(k) deferral rate. Windows, limits and dates
come from the engine through the plan protocol (``diversification``, ``deferrals``)."""
