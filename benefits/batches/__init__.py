"""Batch annual statements: one PDF per participant of a plan, on workers, exactly once, resumable."""
