"""The steps behind a number: inputs used, the rule applied with its plan section, intermediate values.

A ``Trace`` is an immutable list of ``Step``s. Engine functions build one as they go and attach it to
their result, so the web app, the PDFs and the command line can show a participant or an auditor how
a number was reached, in plain words with the plan section.

Three things every trace carries, whichever helper (``Trace.add`` or ``TraceBuilder``) built it:

* **Which steps applied.** A branch the calculation did not take (a minimum that did not bind, an
  offset that is zero because its rule did not apply, a reduction that does not apply at Normal
  Retirement) is recorded with ``applied=False`` (``Trace.skip`` / ``TraceBuilder.skip``), so an
  auditor sees it was considered and a participant is shown only what applied.
* **Typed values.** Each input and result says what it is (``ValueType``: money, a factor with its
  stated number of places, a rate, a percent, an age, a date, a count, shares, …): plan code wraps a
  number with ``money(x)``, ``factor(x, 6)``, ``rate(x)``…; dates, counts, flags and text are typed
  from their Python type. Readers format a value by its type, never by guessing from words.
* **Every regulatory value read.** A parameter or mortality-table read made while a trace is being
  built (``parameters.recorded_reads``) becomes a step of that trace, before the step that follows
  it, without plan code adding it by hand.

Recording can be switched off for a block (``traces_off()``: the command line's ``options.traces:
false``, a census that wants only the figures). Inside it no ``Step`` is made: ``Trace.add``/``skip``/
``extend``/``not_applied`` return the trace unchanged, ``TraceBuilder.step``/``skip`` only return
their result and ``build()`` gives an empty ``Trace``, and no parameter read is recorded. The figures
never depend on the steps (nothing reads a value back out of a trace), so they are the same either
way. The switch is a context variable reset when the block ends: the web app, a Celery task or the
next request always records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Any, TypeVar, overload

from benefits.engine.parameters import ParameterRead, current_reads, unrecorded_reads

T = TypeVar("T")

# Whether trace steps are being recorded (``traces_off``); on unless a block switched it off.
_RECORDING: ContextVar[bool] = ContextVar("trace_recording", default=True)


def recording() -> bool:
    """True unless inside ``traces_off()``: trace steps (and parameter reads) are being recorded."""
    return _RECORDING.get()


@contextmanager
def traces_off() -> Iterator[None]:
    """Inside the block no trace step is made and no parameter read recorded (every ``Trace`` built
    is empty); the figures are the same. Reset when the block ends, however it ends."""
    token = _RECORDING.set(False)
    try:
        with unrecorded_reads():
            yield
    finally:
        _RECORDING.reset(token)


def traces_off_unless_off() -> AbstractContextManager[None]:
    """``traces_off()``, or nothing to do where it is already in force (no step recorded, no read
    listed): a census switches traces off once for all its participants, not once for each."""
    if not _RECORDING.get() and current_reads() is None:
        return nullcontext()
    return traces_off()


@dataclass(frozen=True)
class ValueType:
    """What a traced value is, so a reader formats it without guessing.

    ``kind``: ``money`` (dollars; shown to the cent), ``factor`` (a multiplier shown to ``places``
    decimal places), ``rate`` (a fraction per period, e.g. 0.05 for 5%), ``percent`` (a number of
    percent, e.g. 80), ``age`` (years, possibly with a fraction), ``date``, ``year`` (a calendar or
    plan year), ``count`` (a whole number: months, hours, years of service), ``years`` (a duration in
    years with a fraction), ``shares`` (share units, ``places`` decimals), ``price`` (dollars per
    share, ``places`` decimals), ``flag`` (yes/no), ``text``, ``none`` (no value), ``path`` (a
    pointer to another figure's trace), ``number`` (a plain number with no unit).
    """

    kind: str
    places: int | None = None

    def as_dict(self) -> dict[str, Any]:
        # Made once and shared: every step's dictionary lists its values' types (a traced request
        # writes 200,000 of them), and no reader changes one.
        made: dict[str, Any] | None = self.__dict__.get("_as_dict")
        if made is None:
            made = {"kind": self.kind} if self.places is None else {"kind": self.kind, "places": self.places}
            object.__setattr__(self, "_as_dict", made)
        return made


MONEY = ValueType("money", 2)
RATE = ValueType("rate")
PERCENT = ValueType("percent")
AGE = ValueType("age")
DATE = ValueType("date")
YEAR = ValueType("year")
COUNT = ValueType("count")
YEARS = ValueType("years")
FLAG = ValueType("flag")
TEXT = ValueType("text")
NONE = ValueType("none")
NUMBER = ValueType("number")
PATH = ValueType("path")


# Each of these types made once for its places, like the constants above: a traced request types
# 100,000 values with them, and one result's steps made apart share a dictionary only where their
# types are the same object (``SharedSteps``).
_PLACED: dict[tuple[str, int | None], ValueType] = {}


def _placed(kind: str, places: int | None) -> ValueType:
    made = _PLACED.get((kind, places))
    if made is None:
        made = _PLACED[(kind, places)] = ValueType(kind, places)
    return made


def FACTOR(places: int) -> ValueType:  # noqa: N802 - reads like the other type constants
    """A factor stated to ``places`` decimal places (e.g. the plan's two-place option factors)."""
    return _placed("factor", places)


def SHARES(places: int | None = None) -> ValueType:  # noqa: N802
    """Share units: to ``places`` decimals where the plan rounds shares, else the decimals that matter."""
    return _placed("shares", places)


def PRICE(places: int | None = None) -> ValueType:  # noqa: N802
    """Dollars per share: to ``places`` decimals where the plan states them, else at least cents."""
    return _placed("price", places)


@dataclass(frozen=True, init=False)
class Typed[T]:
    """A value with its type, as handed to a trace step (``money(x)``, ``factor(x, 6)``…)."""

    value: T
    type: ValueType

    def __init__(self, value: T, type: ValueType) -> None:  # noqa: A002 - the field's name
        # Written to the instance's dictionary: a frozen dataclass's own ``__init__`` goes through
        # ``object.__setattr__`` for each field, and a traced request wraps 150,000 values.
        d = self.__dict__
        d["value"] = value
        d["type"] = type


# Each wrapper gives the value itself inside ``traces_off()``: no step is made there to carry its
# type, and a step hands back its result unwrapped either way (a census wraps millions of values it
# never traces). Held equal to the wrapped path by tests/engine/core/test_trace_untraced_wrappers.py.


def typed[T](value: T, value_type: ValueType) -> Typed[T]:
    return Typed(value, value_type) if _RECORDING.get() else value  # type: ignore[return-value]


def money[T](value: T) -> Typed[T]:
    return Typed(value, MONEY) if _RECORDING.get() else value  # type: ignore[return-value]


def factor[T](value: T, places: int) -> Typed[T]:
    return Typed(value, FACTOR(places)) if _RECORDING.get() else value  # type: ignore[return-value]


def rate[T](value: T) -> Typed[T]:
    return Typed(value, RATE) if _RECORDING.get() else value  # type: ignore[return-value]


def percent[T](value: T) -> Typed[T]:
    return Typed(value, PERCENT) if _RECORDING.get() else value  # type: ignore[return-value]


def age[T](value: T) -> Typed[T]:
    return Typed(value, AGE) if _RECORDING.get() else value  # type: ignore[return-value]


def years[T](value: T) -> Typed[T]:
    return Typed(value, YEARS) if _RECORDING.get() else value  # type: ignore[return-value]


def year[T](value: T) -> Typed[T]:
    return Typed(value, YEAR) if _RECORDING.get() else value  # type: ignore[return-value]


def count[T](value: T) -> Typed[T]:
    return Typed(value, COUNT) if _RECORDING.get() else value  # type: ignore[return-value]


def shares[T](value: T, places: int | None = None) -> Typed[T]:
    return Typed(value, SHARES(places)) if _RECORDING.get() else value  # type: ignore[return-value]


def price[T](value: T, places: int | None = None) -> Typed[T]:
    return Typed(value, PRICE(places)) if _RECORDING.get() else value  # type: ignore[return-value]


def number[T](value: T) -> Typed[T]:
    return Typed(value, NUMBER) if _RECORDING.get() else value  # type: ignore[return-value]


def text[T](value: T) -> Typed[T]:
    return Typed(value, TEXT) if _RECORDING.get() else value  # type: ignore[return-value]


def type_of(value: object) -> ValueType | None:
    """The type a value has by its Python type alone; None for a number that must be typed."""
    kind = _TYPE_BY_CLASS.get(type(value), _UNKNOWN)  # the usual values, in one lookup
    if kind is not _UNKNOWN:
        return kind
    if isinstance(value, Typed):
        return value.type
    if value is None:
        return NONE
    if isinstance(value, bool):
        return FLAG
    if isinstance(value, date):
        return DATE
    if isinstance(value, int):
        return COUNT
    if isinstance(value, str):
        return None if _numeric(value) else TEXT
    if isinstance(value, list | tuple | dict):
        items = list(value.values()) if isinstance(value, dict) else list(value)
        if not items:
            return NONE
        types = {type_of(v) for v in items}
        return types.pop() if len(types) == 1 else None  # mixed: each item is typed by its own kind
    return None  # a Decimal or float: money, a factor or a rate, which only its maker knows


# ``type_of`` of a value by its exact class, where the class alone decides (a str does not: "12.5"
# is a number to be typed by its maker, "Single" is text; a subclass goes the long way). A traced
# request types 100,000 values. ``_UNKNOWN``: not in the table (a type of its own, never returned).
_UNKNOWN = ValueType("unknown")
_TYPE_BY_CLASS: Mapping[type, ValueType | None] = {
    type(None): NONE,
    bool: FLAG,
    date: DATE,
    int: COUNT,
    Decimal: None,
    float: None,
}


_NUMERIC = re.compile(r"\s*-?\d+(?:\.\d+)?\s*")


def _numeric(s: str) -> bool:
    return _NUMERIC.fullmatch(s) is not None


_AS_IS = frozenset({str, int, bool, type(None)})


def _untyped(value: object) -> object:
    return value.value if isinstance(value, Typed) else value


def _plain(value: object) -> object:
    if type(value) in _AS_IS:  # the usual values: nothing to convert
        return value
    value = _untyped(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, init=False)
class Step:
    """One step. A value handed in wrapped (``money(x)``) is stored bare, its type beside it."""

    rule: str  # what was done, in plain words
    section: str = ""  # plan section or regulation, e.g. "Carver DB §3.1(A)" or "IRC §415(b)"
    inputs: tuple[tuple[str, object], ...] = ()
    result: object = None
    applied: bool = True  # False: a branch considered and not taken (a minimum that did not bind…)
    input_kinds: tuple[tuple[str, ValueType | None], ...] = ()
    result_kind: ValueType | None = None

    def __init__(
        self,
        rule: str,
        section: str = "",
        inputs: tuple[tuple[str, object], ...] = (),
        result: object = None,
        applied: bool = True,
        input_kinds: tuple[tuple[str, ValueType | None], ...] = (),
        result_kind: ValueType | None = None,
    ) -> None:
        # Written to the instance's dictionary: a traced request makes 4,000 steps a participant, a
        # census millions, and the frozen dataclass's own ``__init__`` (``object.__setattr__`` for
        # each field) was a fifth of a step's cost.
        if inputs and not input_kinds:
            kinds: list[tuple[str, ValueType | None]] = []
            bare: list[tuple[str, object]] = []
            wrapped = False
            for k, v in inputs:  # one pass
                if type(v) is Typed:
                    kinds.append((k, v.type))
                    bare.append((k, v.value))
                    wrapped = True
                else:
                    kinds.append((k, type_of(v)))
                    bare.append((k, v))
            input_kinds = tuple(kinds)
            if wrapped:
                inputs = tuple(bare)
        if result_kind is None:
            if type(result) is Typed:
                result_kind = result.type
                result = result.value
            else:
                result_kind = type_of(result)
        d = self.__dict__
        d["rule"] = rule
        d["section"] = section
        d["inputs"] = inputs
        d["result"] = result
        d["applied"] = applied
        d["input_kinds"] = input_kinds
        d["result_kind"] = result_kind

    def unapplied(self) -> Step:
        """``replace(self, applied=False)``, its types not worked out again (a branch not taken); one
        object for a step marked so again (a shared step, ``money_step``, stays shared)."""
        if not self.applied:
            return self
        made: Step | None = self.__dict__.get("_unapplied")
        if made is None:
            made = Step(
                self.rule, self.section, self.inputs, self.result, False, self.input_kinds, self.result_kind
            )
            self.__dict__["_unapplied"] = made
        return made

    def as_dict(self) -> dict[str, Any]:
        # Kept on the step: a step is listed in every trace that extends the one it was made in
        # (each form of an estimate repeats the balance and the life annuity; a parameter read
        # recurs in every trace that read it). The copy is shallow: its values are never changed.
        cached: dict[str, Any] | None = self.__dict__.get("_as_dict")
        if cached is not None:
            return dict(cached)
        out: dict[str, Any] = {
            "rule": self.rule,
            "section": self.section,
            "inputs": {k: _plain(v) for k, v in self.inputs},
            "result": _plain(self.result),
            "applied": self.applied,
        }
        kinds = {k: t.as_dict() for k, t in self.input_kinds if t is not None}
        if kinds:
            out["input_types"] = kinds
        if self.result_kind is not None:
            out["result_type"] = self.result_kind.as_dict()
        object.__setattr__(self, "_as_dict", out)
        return dict(out)


# ``money_step``'s steps by their words and figures (bounded: cleared when full).
_MONEY_STEPS: dict[tuple[object, ...], Step] = {}
_MONEY_STEPS_MAX = 8192


def money_step(rule: str, section: str, result: Decimal, applied: bool = True, **inputs: Decimal) -> Step:
    """``Step(rule, section, inputs, money(result), applied)`` with every input money too, one object
    for the same words and figures: the dates of a request repeat them (the §415 dollar amount, the
    cash-out threshold, the amount of a form that the limit holds to the same figure), and a step
    met again is listed by identity (``SharedSteps``) instead of being made and compared again. A
    figure that is not a Decimal gets its own step. The key holds each figure's text (Decimal("1.0")
    and Decimal("1.00") are written apart)."""
    if not _RECORDING.get():
        return _NOT_RECORDED  # put nowhere (``put`` and ``with_step`` record nothing either)
    key: tuple[object, ...] = (rule, section, applied, str(result))
    exact = type(result) is Decimal
    for k, v in inputs.items():  # a loop, not a generator: every date of a request passes here
        exact = exact and type(v) is Decimal
        key += (k, str(v))
    if not exact:
        wrapped = tuple((k, Typed(v, MONEY)) for k, v in inputs.items())
        return Step(rule, section, wrapped, Typed(result, MONEY), applied)
    step = _MONEY_STEPS.get(key)
    if step is None:
        step = Step(
            rule,
            section,
            tuple(inputs.items()),
            result,
            applied,
            tuple((k, MONEY) for k in inputs),
            MONEY,
        )
        if len(_MONEY_STEPS) >= _MONEY_STEPS_MAX:
            _MONEY_STEPS.clear()
        _MONEY_STEPS[key] = step
    return step


_NOT_RECORDED = Step("not recorded")


def read_step(read: ParameterRead) -> Step:
    """The trace step for one regulatory value used: what, for which date, the value and its source."""
    step: Step | None = read.__dict__.get("_step")  # kept on the read (``Parameter`` reuses its reads)
    if step is None:
        step = _read_step(read)
        object.__setattr__(read, "_step", step)
    return step


@lru_cache(maxsize=4096)  # the same read (a limit for a year) recurs across participants
def _read_step(read: ParameterRead) -> Step:
    value = read.entry.value
    return Step(
        read.words(),
        read.section,
        (
            ("parameter", read.name),
            ("for_date", read.on.isoformat()),
            ("in_force_from", read.entry.effective.isoformat()),
            ("source", read.entry.source),
            ("estimate", read.projected),
        ),
        None if value is None else Typed(str(value), _UNIT_TYPES.get(read.unit, NUMBER)),
    )


# A parameter file's ``unit`` → how its value reads.
_UNIT_TYPES: Mapping[str, ValueType] = {
    "currency-USD": MONEY,
    "USD": MONEY,
    "usd": MONEY,
    "dollars": MONEY,
    "percent": PERCENT,
    "rate": RATE,
    "year": YEAR,
    "years": YEARS,
    "count": COUNT,
}


def _pending_reads(mark: int | None) -> tuple[list[Step], int | None]:
    """Read steps for the regulatory values read since ``mark``, and the new mark."""
    reads = current_reads()
    if reads is None:
        return [], None
    if mark is None or mark > len(reads):
        mark = len(reads)
    return [read_step(r) for r in reads[mark:]], len(reads)


def _reads_mark() -> int | None:
    reads = current_reads()
    return None if reads is None else len(reads)


def _merged(steps: tuple[Step, ...], new: Sequence[Step], reads: Sequence[Step] = ()) -> tuple[Step, ...]:
    """``steps``, then the ``reads`` not already listed (in ``steps`` or ``new``), then ``new``: each
    parameter-read step kept once, as applied where any listing of it applied."""
    if not reads and not any(_is_read(s) for s in new):
        return steps + tuple(new)  # the usual step: nothing to deduplicate
    out = list(steps)
    first: dict[tuple[str, tuple[tuple[str, object], ...]], int] = {}  # read key → its first place in out
    for i, o in enumerate(out):
        if _is_read(o):
            first.setdefault(_read_key(o), i)
    in_new = {_read_key(s) for s in new if _is_read(s)}
    for s in reads:  # a read not yet listed, in the trace or in the new steps
        key = _read_key(s)
        if key not in first and key not in in_new:
            first[key] = len(out)
            out.append(s)
    for s in new:
        if _is_read(s):
            key = _read_key(s)
            at = first.get(key)
            if at is not None:
                if s.applied and not out[at].applied:
                    out[at] = s
                continue
            first[key] = len(out)
        out.append(s)
    return tuple(out)


def _read_key(step: Step) -> tuple[str, tuple[tuple[str, object], ...]]:
    return step.rule, step.inputs


def _is_read(step: Step) -> bool:
    return bool(step.inputs) and step.inputs[0][0] == "parameter"


def _any_read(steps: Iterable[Step]) -> bool:
    """Whether a parameter-read step is among ``steps`` (``_is_read`` of any; a loop, not a generator:
    every step added to a trace passes here)."""
    for s in steps:
        inputs = s.inputs
        if inputs and inputs[0][0] == "parameter":
            return True
    return False


_READS_NOW = object()  # ``Trace``'s default mark: the reads listed when it is made


@dataclass(frozen=True, init=False)
class Trace:
    """Immutable; each ``add``/``skip``/``extend`` also takes in the regulatory values read since the
    trace's last step (``parameters.recorded_reads``), so no builder can leave them out."""

    steps: tuple[Step, ...] = ()
    reads_mark: int | None = field(default=None, compare=False, repr=False)

    def __init__(self, steps: tuple[Step, ...] = (), reads_mark: int | None | object = _READS_NOW) -> None:
        # Written to the instance's dictionary (a trace is made for each step added).
        d = self.__dict__
        d["steps"] = steps
        d["reads_mark"] = _reads_mark() if reads_mark is _READS_NOW else reads_mark

    def _with(self, new: tuple[Step, ...]) -> Trace:
        listed = current_reads()
        # The usual step: no value read since this trace's last step, and no read among the new
        # steps: nothing to merge (what ``_pending_reads`` and ``_merged`` would conclude).
        mark = self.reads_mark
        if (listed is None or mark is None or mark >= len(listed)) and not _any_read(new):
            return _trace(self.steps + new, None if listed is None else len(listed))
        reads, mark = _pending_reads(mark)
        return Trace(_merged(self.steps, new, reads), mark)

    def with_step(self, step: Step) -> Trace:
        """A new trace with ``step`` (made beforehand, ``money_step``) added, as ``add`` adds the step
        it makes. Inside ``traces_off()``: this trace, unchanged."""
        if not _RECORDING.get():
            return self
        return self._with((step,))

    def add(
        self, rule: str, *, section: str = "", result: object = None, applied: bool = True, **inputs: object
    ) -> Trace:
        """Return a new trace with one more step (traces are immutable); ``applied=False`` records a
        branch considered and not taken. Inside ``traces_off()``: this trace, unchanged."""
        if not _RECORDING.get():
            return self
        return self._with((Step(rule, section, tuple(inputs.items()), result, applied),))

    def skip(self, rule: str, *, section: str = "", result: object = None, **inputs: object) -> Trace:
        """Return a new trace with a step that was considered and did not apply."""
        if not _RECORDING.get():
            return self
        return self._with((Step(rule, section, tuple(inputs.items()), result, applied=False),))

    def extend(self, other: Trace) -> Trace:
        if not _RECORDING.get():
            return self
        return self._with(other.steps)

    def not_applied(self) -> Trace:
        """This trace with every step marked as not applied: a whole branch (a minimum computed and
        compared) that did not make the figure."""
        if not self.steps:
            return self
        return Trace(tuple(s.unapplied() for s in self.steps), self.reads_mark)

    def applied(self) -> tuple[Step, ...]:
        """The steps that applied (what a participant is shown)."""
        return tuple(s for s in self.steps if s.applied)

    def as_list(self, shared: SharedSteps | None = None) -> list[dict[str, Any]]:
        """Each step's dictionary. ``shared``: one result's steps, so that a step listed in several of
        its traces is one dictionary there (the command line encodes it once,
        ``streaming.write_result``); each result still gets its own copies."""
        return [s.as_dict() for s in self.steps] if shared is None else shared.dicts(self.steps)


def _trace(steps: tuple[Step, ...], reads_mark: int | None) -> Trace:
    """``Trace(steps, reads_mark)`` without the call to ``__init__`` (a trace is made for each step)."""
    trace = object.__new__(Trace)
    d = trace.__dict__
    d["steps"] = steps
    d["reads_mark"] = reads_mark
    return trace


class SharedSteps:
    """The dictionaries of one result's steps, each made once (``Trace.as_list(shared)``).

    Once for each step, and once for steps made apart with the same content: every date after
    Normal Retirement Date prices the same amounts, so its form steps are the same words and
    figures made again, date by date. The most repeated are made once where they are made
    (``money_step``); the rest share one dictionary here (``_content_key``: equal only where the
    two would be written as the same text), so each is converted and encoded once."""

    def __init__(self) -> None:
        self._made: dict[int, dict[str, Any]] = {}
        self._by_content: dict[tuple[object, ...], dict[str, Any]] = {}
        self._kept: list[Step] = []  # each step stays alive, so its id stays its own

    def dicts(self, steps: Iterable[Step]) -> list[dict[str, Any]]:
        """The dictionaries of ``steps``, in order (one loop: a traced request lists 17,000)."""
        get, out = self._made.get, []
        for step in steps:
            made = get(id(step))
            if made is None:
                self._kept.append(step)
                key = _content_key(step)
                if key is None:
                    made = step.as_dict()
                else:
                    made = self._by_content.get(key)
                    if made is None:
                        made = self._by_content[key] = step.as_dict()
                self._made[id(step)] = made
            out.append(made)
        return out


# Values whose equality is their written form: equal values of these classes write the same JSON.
# (Not Decimal or float: Decimal("1.0") == Decimal("1.00") and 0.0 == -0.0, written differently:
# they are keyed by their text.)
_EXACT = frozenset({str, int, bool, type(None), date})


def _content_key(step: Step) -> tuple[object, ...] | None:
    """What ``Step.as_dict`` writes, as a hashable key: two steps with equal keys have dictionaries
    that read alike and encode to the same text. Value types are keyed by identity (each is alive
    as long as the ``SharedSteps`` that keeps its step; two equal types made apart only miss a
    share). None for a step holding a value of another class (a list, a mapping): its own
    dictionary, as before."""
    rule, section, applied, inputs, kinds = (
        step.rule,
        step.section,
        step.applied,
        step.inputs,
        step.input_kinds,
    )
    if (
        type(rule) is not str
        or type(section) is not str
        or type(applied) is not bool
        or len(kinds) != len(inputs)
    ):
        return None
    result = _as_written(step.result)
    if result is _NOT_KEYED:
        return None
    key: list[object] = [rule, section, applied, id(step.result_kind), type(step.result), result]
    for (k, v), (_, kind) in zip(inputs, kinds, strict=True):
        written = _as_written(v)
        if written is _NOT_KEYED:
            return None
        key += (k, id(kind), type(v), written)
    return tuple(key)


_NOT_KEYED = object()


def _as_written(value: object) -> object:
    """``value`` as a key that tells apart what is written apart: a Decimal or float by its text,
    a value of ``_EXACT`` as it is; ``_NOT_KEYED`` for any other."""
    t = type(value)
    if t is Decimal:
        return str(value)
    if t is float:
        return repr(value)
    return value if t in _EXACT else _NOT_KEYED


class TraceBuilder:
    """A mutable helper for long calculations; ``build()`` freezes it into a ``Trace``.

    Every regulatory value read (a parameter or a mortality table, ``parameters.recorded_reads``)
    between the builder's creation and ``build()`` is added to the trace automatically, once, after
    the steps (where the command line has always listed them).
    """

    def __init__(self) -> None:
        self._steps: list[Step] = []
        self._on = _RECORDING.get()  # made inside ``traces_off()``: records nothing
        self._mark = _reads_mark() if self._on else None

    @overload
    def step(
        self, rule: str, *, section: str = "", result: Typed[T], applied: bool = True, **inputs: object
    ) -> T: ...

    @overload
    def step(
        self, rule: str, *, section: str = "", result: T = ..., applied: bool = True, **inputs: object
    ) -> T: ...

    def step(
        self, rule: str, *, section: str = "", result: object = None, applied: bool = True, **inputs: object
    ) -> object:
        """Record a step (``applied=False``: considered and not taken); returns the result, unwrapped
        from ``money(…)`` etc."""
        if self._on:
            self._steps.append(Step(rule, section, tuple(inputs.items()), result, applied))
        return _untyped(result)

    @overload
    def skip(self, rule: str, *, section: str = "", result: Typed[T], **inputs: object) -> T: ...

    @overload
    def skip(self, rule: str, *, section: str = "", result: T = ..., **inputs: object) -> T: ...

    def skip(self, rule: str, *, section: str = "", result: object = None, **inputs: object) -> object:
        """Record a branch considered and not taken (``applied=False``); returns the result."""
        if self._on:
            self._steps.append(Step(rule, section, tuple(inputs.items()), result, applied=False))
        return _untyped(result)

    def include(self, trace: Trace) -> None:
        if self._on:
            self._steps.extend(trace.steps)

    def put(self, step: Step) -> None:
        """Record a step made beforehand (``money_step``)."""
        if self._on:
            self._steps.append(step)

    def build(self) -> Trace:
        if not self._on:
            return _EMPTY
        reads, self._mark = _pending_reads(self._mark)
        steps = _merged(tuple(self._steps), [], reads)
        self._steps = list(steps)
        return Trace(steps, self._mark)


_EMPTY = Trace((), None)  # what every builder made inside ``traces_off()`` builds
