"""Benefit elections (issue 13): the participant's election of a form of benefit, spousal consent,
beneficiaries, and the notices that go with them (§417(a)(3) explanation, QPSA, §402(f)).

This area follows the same shape as ``elections.claims`` (docs/architecture.md): ``models.py``
(imported from ``elections/models.py``), ``services.py`` for every write, ``selectors.py`` for every
scoped read, ``presenters.py``, ``forms.py``, ``views.py``, ``urls.py``, ``tasks.py``. Plan-specific
election and consent rules come from the plan through the engine's plan protocol, never from here.
"""
