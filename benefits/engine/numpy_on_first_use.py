"""numpy imported when a module first uses it, not when the module is imported.

A census of a plan that prices no annuity (an ESOP's, a 401(k)'s without a QJSA figure) imports
``mortality`` and ``actuarial`` for their settings and types but never builds a table or a factor;
numpy's import is about 0.1 s of CPU, a tenth of the budget a 10,000-participant census has over a plain
JSON read and write (issue 29). Each such module binds ``np`` to ``NumpyOnFirstUse(globals())``; the
first attribute read imports numpy and puts the module itself in ``np``, so every later use is the
plain module (no cost after the first).
"""

from __future__ import annotations

from typing import Any


class NumpyOnFirstUse:
    def __init__(self, module_globals: dict[str, Any]) -> None:
        self._globals = module_globals

    def __getattr__(self, name: str) -> Any:
        import numpy

        self._globals["np"] = numpy
        return getattr(numpy, name)
