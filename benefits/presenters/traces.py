"""The engine's trace behind any figure of a contract result, ready to show in plain words.

Plans keep traces in one of two shapes (engine-cli.md leaves it to the plan): a ``traces`` map keyed
by the figure's dotted path (Carver plans), or a ``trace`` list beside the figure (Quaker). A step
whose result names another path ("as traced under accrued_benefit.monthly_at_nrd") is expanded.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from itertools import groupby

from benefits import formatting

from .plain import plain_text

_INDEX = re.compile(r"^(\w+)\[(\d+)\]$")


def _walk(result: dict, path: str):
    node = result
    for part in path.split("."):
        m = _INDEX.match(part)
        try:
            node = node[m.group(1)][int(m.group(2))] if m else node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def trace_steps(result: dict, path: str, *, _depth: int = 0) -> list[dict]:
    """The steps behind ``path`` in ``result`` (empty when the engine gave none)."""
    steps = (result.get("traces") or {}).get(path)
    if steps is None:
        node = _walk(result, path)
        steps = node.get("trace") if isinstance(node, dict) else None
    if steps is None and "." in path:
        # A form's amount is traced on the form (e.g. "estimates[0].forms.lump_sum" → its trace).
        parent = path.rsplit(".", 1)[0]
        node = _walk(result, parent)
        steps = node.get("trace") if isinstance(node, dict) else None
    out: list[dict] = []
    for step in steps or []:
        target = step.get("result")
        if (
            _depth < 2
            and isinstance(target, str)
            and target != path
            and "." in target
            and target in (result.get("traces") or {})
        ):
            out.extend(trace_steps(result, target, _depth=_depth + 1))
            continue
        out.append(step)
    return out


# Each value is shown by the type the engine gave it (``input_types`` / ``result_type``): money to the
# cent with "$", a factor to the places the plan states, rates and percents with "%". The engine keeps
# full precision; FORMAT_NOTE says how it is shown.
FACTOR_PLACES = 6  # a factor or number the engine gave no places for is shown to at most this many
FORMAT_NOTE = (
    "Amounts are shown to the cent and factors to the decimal places the plan states; the calculation "
    "itself keeps full precision."
)


def _decimal(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, str | int | float | Decimal):
        return None
    if isinstance(value, str) and not re.fullmatch(r"-?\d+(?:\.\d+)?", value.strip()):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def _places(d: Decimal, places: int) -> Decimal:
    return d.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)


def _dollars(d: Decimal, places: int = 2) -> str:
    return formatting.money(d, places)


def _short(d: Decimal, places: int = FACTOR_PLACES) -> str:
    """At most ``places`` decimals, without trailing zeros the engine did not write."""
    if -int(d.as_tuple().exponent) > places:
        d = _places(d, places)
    return str(d)


def _trimmed(d: Decimal, places: int) -> str:
    return format(_places(d, places).normalize(), "f")


def _typed(d: Decimal, kind: str, places: int | None) -> str:
    if kind == "money":
        return _dollars(d)
    if kind == "price":  # a share price keeps the decimals it was set with, at least cents
        return _dollars(d, places if places is not None else max(2, -int(d.normalize().as_tuple().exponent)))
    if kind == "factor":
        return f"{_places(d, places)}" if places is not None else _short(d)
    if kind == "shares":  # to the plan's places, else the decimals that matter
        return f"{_places(d, places):,}" if places is not None else format(d.normalize(), ",f")
    if kind == "rate":
        return f"{_trimmed(d * 100, 4)}%"
    if kind == "percent":
        return f"{_trimmed(d, 4)}%"
    if kind in ("age", "years"):
        return _trimmed(d, 2)
    if kind in ("count", "year"):
        return str(d)
    return _short(d)


# A number without a type (a result stored before the engine typed its trace values) is read by the
# words around it, as before: money words and an unlabelled figure of ten or more with fractions of a
# cent are shown to the cent. The engine types every value it writes now (tests/engine pins that).
_MONEY_WORDS = re.compile(
    r"\b(?:amounts?|benefits?|balances?|earnings|pay|compensation|salary|lump|sum|contributions?|credits?\b|"
    r"deferrals?|match|matching|loans?|payments?|value|limits?|dollars?|annuity|offset|withdrawals?|"
    r"forfeitures?|cash|annual)\b|\$",
    re.I,
)
_FACTOR_WORDS = re.compile(
    r"factor|rate|percent|fraction|ratio|yield|probability|shares?\b|months|years", re.I
)


def _untyped(d: Decimal, context: str) -> str:
    if _MONEY_WORDS.search(context) and not _FACTOR_WORDS.search(context):
        return _dollars(d)
    if -int(d.as_tuple().exponent) > 2 and abs(d) >= 10 and not _FACTOR_WORDS.search(context):
        return _dollars(d)
    return _short(d)


def plain_value(value: object, value_type: dict | None = None, *, context: str = "") -> str:
    """A trace value for people, formatted by its engine type (``{"kind", "places"}``): money to
    the cent with "$", factors to their stated places, dates as "April 1, 2027", keys in words.
    A number without a type is read by ``context`` (see _untyped)."""
    kind = (value_type or {}).get("kind", "")
    places = (value_type or {}).get("places")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(plain_value(v, value_type, context=context) for v in value)
    if isinstance(value, dict):
        return "; ".join(
            f"{plain_text(str(k)) if not str(k).isdigit() else k}: {plain_value(v, value_type, context=context)}"
            for k, v in value.items()
        )
    d = _decimal(value)
    if d is not None:
        return _typed(d, kind, places) if kind else _untyped(d, context.replace("_", " "))
    return plain_text(value)


_PRONOUNS = (
    (r"\bhe is\b", "you are"),
    (r"\bhe was\b", "you were"),
    (r"\bhe has\b", "you have"),
    (r"\bhe would have had\b", "you would have had"),
    (r"\bhimself\b", "yourself"),
    (r"\bhim\b", "you"),
    (r"\bhis\b", "your"),
    (r"\bhe\b", "you"),
    (r"\bthe [Pp]articipant's\b", "your"),
    (r"\bthe [Pp]articipant\b", "you"),
)


def addressed(text: str, name: str | None = None) -> str:
    """The engine writes "he"/"the Participant"; a person reads "you" (or, for staff, the name)."""
    for pattern, words in _PRONOUNS:
        if name:
            words = {"your": f"{name}'s", "yourself": name}.get(words, words)
            words = re.sub(
                r"^you (are|were|have|would)",
                lambda m: (
                    f"{name} " + {"are": "is", "were": "was", "have": "has", "would": "would"}[m.group(1)]
                ),
                words,
            )
            words = name if words == "you" else words
        s_new = re.sub(pattern, words, text)
        text = re.sub(
            pattern.replace("\\bhe", "\\bHe").replace("\\bhis", "\\bHis"),
            words[:1].upper() + words[1:],
            s_new,
        )
    return text


def presented(steps: list[dict], *, name: str | None = None) -> list[dict]:
    """The steps that applied, with their rule, section, inputs and result as words for people
    (see plain_value); ``name`` is the participant's for staff, else the steps say "you".

    A step the engine recorded as not applied (a minimum that did not bind, a reduction that does
    not apply) is left out: a person is shown only what made the number. A regulatory value the
    engine read (a dollar limit for a year) shows its value and its source, not the engine's
    bookkeeping; a run of reads of the same value for successive years is one step with a line
    per year (a cash balance account reads the compensation limit once a year)."""
    applied = (s for s in steps if s.get("applied") is not False)
    out: list[dict] = []
    for parameter, group in groupby(applied, key=_parameter):  # successive reads of one value together
        run = list(group)
        if parameter is not None and len(run) >= _GROUP_AT:
            out.append(_grouped_reads(run))
        else:
            out.extend(_one_step(s, name) for s in run)
    return out


_GROUP_AT = 3  # reads of one value in a row shown as one step with a line per year


def _parameter(step: dict) -> str | None:
    """The regulatory value a read step records (the engine's read steps carry ``parameter``)."""
    inputs = step.get("inputs") or {}
    name = inputs.get("parameter") if isinstance(inputs, dict) else None
    return name if isinstance(name, str) and "for_date" in inputs else None


_READ_TAIL = re.compile(r"\s+in force on\s.*$")


def _read_inputs(step: dict) -> list[tuple[str, str]]:
    """A read's one input a person needs: where the value comes from (the rule names the date)."""
    source = plain_text((step.get("inputs") or {}).get("source", ""))
    return [("Source", source)] if source else []


def _one_step(s: dict, name: str | None) -> dict:
    rule = addressed(plain_text(s.get("rule", "")), name)
    if _parameter(s) is not None:
        inputs = _read_inputs(s)
    else:
        types = s.get("input_types") or {}
        inputs = [
            (plain_text(_words(k)), plain_value(v, types.get(k), context=k))
            for k, v in (s.get("inputs") or {}).items()
        ]
    return {
        "rule": rule,
        "section": plain_text(s.get("section", "")),
        "inputs": inputs,
        "result": plain_value(s.get("result"), s.get("result_type"), context=rule.split(":")[0]),
    }


def _grouped_reads(run: list[dict]) -> dict:
    """Successive reads of one value as one step: each year (or date) and its value, equal
    neighbouring years joined ("2002–2003: $200,000.00"), and the sources once each."""
    what = _READ_TAIL.sub("", plain_text(run[0].get("rule", ""))).split(": no value is published")[0]
    lines: list[list] = []  # [first label, last label, value]
    for s in run:
        on = str((s.get("inputs") or {}).get("for_date", ""))
        label = on[:4] if on.endswith("-01-01") else plain_text(on)
        value = plain_value(s.get("result"), s.get("result_type"), context=what)
        if (s.get("inputs") or {}).get("estimate"):
            value += " (the latest published value, used as an estimate)"
        if lines and lines[-1][2] == value:
            lines[-1][1] = label
        else:
            lines.append([label, label, value])
    inputs = [(first if first == last else f"{first}–{last}", value) for first, last, value in lines]
    sources: list[str] = []
    for s in run:
        source = plain_text((s.get("inputs") or {}).get("source", ""))
        if source and source not in sources:
            sources.append(source)
    if sources:
        inputs.append(("Source", "; ".join(_common_sources(sources))))
    return {
        "rule": f"{what}, for each year used",
        "section": plain_text(run[0].get("section", "")),
        "inputs": inputs,
        "result": "—",
    }


def _common_sources(sources: list[str]) -> list[str]:
    """Sources that differ only by their first year ("limits for 2024; ..." and "limits for 2025;
    ...") are said once, with the years."""
    year = re.compile(r"\b(?:19|20)\d\d\b")
    groups: dict[str, list[int]] = {}
    for source in sources:
        found = year.search(source)
        key = year.sub("####", source, count=1) if found else source
        groups.setdefault(key, []).append(int(found.group(0)) if found else 0)
    out = []
    for key, years in groups.items():
        if "####" not in key:
            out.append(key)
            continue
        ys = sorted(set(years))
        if len(ys) > 2 and ys == list(range(ys[0], ys[-1] + 1)):
            said = f"{ys[0]}–{ys[-1]}"
        else:
            said = ", ".join(str(y) for y in ys)
        out.append(key.replace("####", said))
    return out


_ABBREVIATIONS = {
    "nrd": "normal retirement date",
    "erd": "early retirement date",
    "asd": "annuity starting date",
    "nra": "normal retirement age",
    "yos": "years of service",
    "cs": "credited service",
    "ss": "Social Security",
}


def _words(key: str) -> str:
    return " ".join(_ABBREVIATIONS.get(w, w) for w in key.split("_"))
