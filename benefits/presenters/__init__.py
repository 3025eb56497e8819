"""Presenters: they turn the engine's results and the selectors' rows into page and PDF data.

Nothing here computes a benefit, queries the ORM or writes: every figure comes from the engine through
``benefits.engine_adapter``, every row from ``benefits.selectors``, and is only selected, labelled and
formatted for a page or a PDF payload.
"""
