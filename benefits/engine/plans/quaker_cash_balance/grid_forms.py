"""One date's forms as the one-pass path prices them: the amounts in lists, each ``FormAmount`` made
when read, and the contract's form objects written from the lists (``GridForms.contract_json``).

A modeler grid prices hundreds of dates of up to nine forms; making a ``FormAmount`` (and its
``__dict__``) for each, only for the contract to read three fields back, and the garbage collector's
walks over them, were a measurable part of the one pass. The mapping reads as the dict
``estimate`` gives (``{key: FormAmount(key, FORM_NAMES[key], monthly=…, survivor_monthly=…)}``,
then the lump sum), equal to it key for key and in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any, cast

from benefits.engine.keyed_lists import KeyedLists, keys_and_index
from benefits.engine.money import money_str

from .forms import FORM_NAMES, FormAmount

_DEFAULT_TRACE = FormAmount.trace  # the dataclass default, the very object
LUMP_SUM = "lump_sum"


def form_amount(
    key: str, name: str, monthly: Decimal | None, survivor: Decimal | None, lump: Decimal | None
) -> FormAmount:
    """``FormAmount(key, name, monthly=…, survivor_monthly=…, lump_sum=…)`` without the frozen
    dataclass's field-by-field ``__init__``."""
    f = object.__new__(FormAmount)
    object.__setattr__(  # its fields as one dict (not a keyword dict copied into the instance's)
        f,
        "__dict__",
        {"key": key, "name": name, "monthly": monthly, "survivor_monthly": survivor, "lump_sum": lump,
         "trace": _DEFAULT_TRACE},
    )  # fmt: skip
    return f


class GridForms(KeyedLists[FormAmount]):
    """Form key → ``FormAmount``: the annuity forms ``keys[:-1]`` (``monthly[i]``, ``survivors[i]``:
    the survivor's amount or None), then the lump sum (``lump``) under ``"lump_sum"``."""

    __slots__ = ("_lump", "_monthly", "_survivors")

    _monthly: Sequence[Decimal]
    _survivors: Sequence[Decimal | None]
    _lump: Decimal | None

    def __init__(
        self,
        keys: tuple[str, ...],
        monthly: Sequence[Decimal],
        survivors: Sequence[Decimal | None],
        lump: Decimal | None,
    ) -> None:
        keys, index = keys_and_index(keys)
        if keys[-1:] != (LUMP_SUM,) or len(index) != len(keys) or len(monthly) != len(keys) - 1:
            raise ValueError("the annuity forms once each, then the lump sum")  # never, as made here
        self._keys, self._index = keys, index
        self._monthly, self._survivors, self._lump = monthly, survivors, lump

    def __getitem__(self, key: str) -> FormAmount:
        i = self._index[key]
        if i == len(self._monthly):
            return form_amount(LUMP_SUM, FORM_NAMES[LUMP_SUM], None, None, self._lump)
        return form_amount(key, FORM_NAMES[key], self._monthly[i], self._survivors[i], None)

    def __reduce__(self) -> tuple[Any, ...]:  # a copy or pickle is the plain dict
        return (dict, (dict(self),))

    def contract_json(self, written: list[str]) -> tuple[dict[str, Any], dict[str, str]]:
        """``contract._forms_json`` of this mapping, from the lists: each form's contract object
        and the survivors' amounts by form, each money string added to ``written``."""
        out: dict[str, Any] = {}
        survivors: dict[str, str] = {}
        for k, amount, survivor in zip(self._keys, self._monthly, self._survivors, strict=False):
            if survivor is None:
                text = money_str(amount)
                out[k] = {"monthly": text}
                written.append(text)
            else:
                text, survivors[k] = money_str(amount), money_str(survivor)
                out[k] = {"monthly": text, "survivor_monthly": survivors[k]}
                written += (text, survivors[k])
        text = money_str(cast(Decimal, self._lump))
        out[LUMP_SUM] = {"lump_sum": text}
        written.append(text)
        return out, survivors
