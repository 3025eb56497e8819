"""The participant portal: presenters that turn the engine's results into page data.

Nothing here computes a benefit: every figure comes from the engine (``benefits.calculations`` or an
engine Python API) and is only selected, labelled and formatted for a page or a PDF payload.
"""
