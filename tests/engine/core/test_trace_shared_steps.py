"""One result's steps made once (``trace.SharedSteps``): a step listed in many traces, or made again
with the same content (every date after Normal Retirement Date prices the same amounts), shares one
dictionary, so the command line converts and encodes it once. Sharing must never change a byte: two
steps share only where they would be written as the same text."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from decimal import Decimal as D
from io import StringIO

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.streaming import write_result
from benefits.engine.trace import (
    FACTOR,
    MONEY,
    SharedSteps,
    Step,
    Trace,
    TraceBuilder,
    Typed,
    money,
    money_step,
    traces_off,
)


def _written(steps: list[Step]) -> list[str]:
    return [json.dumps(s, ensure_ascii=False) for s in SharedSteps().dicts(steps)]


def test_steps_made_apart_with_the_same_content_share_one_dictionary():
    a = Step("Limit", "§6.1", (("compensation", Typed(D("54300"), MONEY)),), Typed(D("54300"), MONEY))
    b = Step("Limit", "§6.1", (("compensation", Typed(D("54300"), MONEY)),), Typed(D("54300"), MONEY))
    assert a is not b
    first, second = SharedSteps().dicts([a, b])
    assert first is second
    assert first == a.as_dict() == b.as_dict()


def test_factor_types_are_made_once_so_factor_steps_share_too():
    assert FACTOR(6) is FACTOR(6) and FACTOR(6) == FACTOR(6) and FACTOR(6) is not FACTOR(2)
    steps = [Step("Factor", "Table A", (), Typed(D("0.53"), FACTOR(2))) for _ in range(3)]
    first, second, third = SharedSteps().dicts(steps)
    assert first is second is third
    assert first["result_type"] == {"kind": "factor", "places": 2}


def test_equal_numbers_written_differently_are_not_shared():
    # Decimal("1.0") == Decimal("1.00") and 0.0 == -0.0, but each is written as given.
    pairs = [
        (D("1.0"), D("1.00")),
        (0.0, -0.0),
        (1, True),
        (1, D("1")),
        (1, 1.0),
    ]
    for x, y in pairs:
        steps = [Step("rule", "", (("v", x),), x), Step("rule", "", (("v", y),), y)]
        first, second = SharedSteps().dicts(steps)
        assert first is not second, (x, y)
        assert _written(steps) == [json.dumps(s.as_dict(), ensure_ascii=False) for s in steps]


def test_steps_that_differ_in_anything_written_are_not_shared():
    base = Step("rule", "§1", (("a", D("2")),), D("3"))
    others = [
        Step("other rule", "§1", (("a", D("2")),), D("3")),
        Step("rule", "§2", (("a", D("2")),), D("3")),
        Step("rule", "§1", (("b", D("2")),), D("3")),
        Step("rule", "§1", (("a", D("2")),), D("4")),
        Step("rule", "§1", (("a", D("2")),), D("3"), applied=False),
        Step("rule", "§1", (("a", Typed(D("2"), MONEY)),), D("3")),
        Step("rule", "§1", (("a", D("2")),), Typed(D("3"), FACTOR(2))),
        Step("rule", "§1", (("a", D("2")), ("c", date(2027, 4, 1))), D("3")),
    ]
    for other in others:
        first, second = SharedSteps().dicts([base, other])
        assert first is not second, other


def test_a_step_holding_a_list_keeps_its_own_dictionary():
    steps = [Step("rule", "", (("months", [1, 2]),), None), Step("rule", "", (("months", [1, 2]),), None)]
    first, second = SharedSteps().dicts(steps)
    assert first is not second and first == second


# Values equal in Python but written differently, and values alike in all but their type: steps
# made from these collide often, so a content key that confused two of them is found at once.
_VALUES = [
    None,
    True,
    False,
    0,
    1,
    0.0,
    -0.0,
    1.0,
    D("0"),
    D("-0"),
    D("1"),
    D("1.0"),
    D("1.00"),
    "1",
    "1.0",
    "text",
    date(2027, 4, 1),
]
_TYPED = [None, MONEY, FACTOR(2), FACTOR(6)]
_ONE_VALUE = st.tuples(st.sampled_from(range(len(_VALUES))), st.sampled_from(range(len(_TYPED))))
_STEP_RECIPES = st.tuples(
    st.sampled_from(["", "§1"]), st.lists(_ONE_VALUE, max_size=1), _ONE_VALUE, st.booleans()
)
# A step and changes to it, each in one place (a value, the section, applied): the variants differ
# from the first step in one value at most, so a value written differently but equal is met often.
_CHANGES = st.lists(
    st.tuples(st.sampled_from(["result", "input", "section", "applied"]), _ONE_VALUE), max_size=40
)


def _value(recipe: tuple[int, int]) -> object:
    value, kind = _VALUES[recipe[0]], _TYPED[recipe[1]]
    return value if kind is None else Typed(value, kind)


def _variant(recipe, change):
    section, inputs, result, applied = recipe
    where, value = change
    if where == "result":
        return section, inputs, value, applied
    if where == "input":
        return section, [value], result, applied
    if where == "section":
        return ("§1" if section == "" else ""), inputs, result, applied
    return section, inputs, result, not applied


def _step(recipe) -> Step:
    """A new step each time: steps alike in content are made apart, as the dates of a request make them."""
    section, inputs, result, applied = recipe
    return Step("rule", section, tuple(("a", _value(v)) for v in inputs), _value(result), applied)


@settings(max_examples=300)
@given(_STEP_RECIPES, _CHANGES)
def test_sharing_never_changes_what_is_written(recipe, changes):
    """Property: each step's shared dictionary is written exactly as its own ``as_dict``, and the
    command line's result (each shared dictionary encoded once) is the plain encoding, byte for byte."""
    steps = [_step(recipe), *(_step(_variant(recipe, c)) for c in changes)]
    shared = SharedSteps().dicts(steps)
    for step, made in zip(steps, shared, strict=True):
        assert json.dumps(made, ensure_ascii=False) == json.dumps(step.as_dict(), ensure_ascii=False)
    result = {"id": "p", "traces": {"a": Trace(tuple(steps)).as_list(SharedSteps()), "b": shared}}
    out = StringIO()
    write_result(result, out)
    plain = {"id": "p", "traces": {"a": [s.as_dict() for s in steps], "b": [s.as_dict() for s in steps]}}
    assert out.getvalue() == json.dumps(plain, ensure_ascii=False)


def test_a_money_step_is_the_step_add_makes_and_one_object_for_the_same_words_and_figures():
    """``money_step``: the same step ``Trace.add`` makes with money figures, made once for the same
    words and figures (the dates of a request repeat them), apart where the written figure differs."""
    made = Trace().add("Amount", section="§8.2", result=money(D("8642.88")), survivor=money(D("4321.44")))
    step = money_step("Amount", "§8.2", D("8642.88"), survivor=D("4321.44"))
    assert step == made.steps[0] and step.as_dict() == made.steps[0].as_dict()
    assert money_step("Amount", "§8.2", D("8642.88"), survivor=D("4321.44")) is step
    assert Trace().with_step(step).steps == (step,)
    for other in (
        money_step("Amount", "§8.2", D("8642.880"), survivor=D("4321.44")),  # written apart
        money_step("Amount", "§8.2", D("8642.88"), survivor=D("4321.4")),
        money_step("Amount", "§8.2", D("8642.88"), applied=False, survivor=D("4321.44")),
        money_step("Amount", "§7.1", D("8642.88"), survivor=D("4321.44")),
        money_step("Amounts", "§8.2", D("8642.88"), survivor=D("4321.44")),
    ):
        assert other is not step and other.as_dict() != step.as_dict()
    loose = money_step("Amount", "§8.2", 5, survivor=D("1"))  # type: ignore[arg-type]
    assert loose == Trace().add("Amount", section="§8.2", result=money(5), survivor=money(D("1"))).steps[0]
    assert loose is not money_step("Amount", "§8.2", 5, survivor=D("1"))  # type: ignore[arg-type]


def test_nothing_is_recorded_from_a_money_step_while_traces_are_off():
    with traces_off():
        tb = TraceBuilder()
        tb.put(money_step("Amount", "§8.2", D("1.00")))
        assert tb.build().steps == ()
        assert Trace().with_step(money_step("Amount", "§8.2", D("1.00"))).steps == ()


def test_a_step_marked_not_applied_is_one_object_however_often():
    step = money_step("Limit", "§6.1", D("54300"))
    once = step.unapplied()
    assert once == replace(step, applied=False) and once is step.unapplied() and once.unapplied() is once
    assert Trace((step,)).not_applied().steps == (once,)
