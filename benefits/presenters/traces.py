"""The engine's trace behind any figure of a contract result, ready to show in plain words.

Plans keep traces in one of two shapes (engine-cli.md leaves it to the plan): a ``traces`` map keyed
by the figure's dotted path (Carver plans), or a ``trace`` list beside the figure (Quaker). A step
whose result names another path ("as traced under accrued_benefit.monthly_at_nrd") is expanded.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

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


# Money is shown to the cent; any other fraction (a factor, a rate) to FACTOR_PLACES places. The engine
# keeps full precision, and the trace says how it is shown (FORMAT_NOTE).
FACTOR_PLACES = 6
FORMAT_NOTE = (
    "Amounts are shown to the cent and factors to six decimal places; the calculation itself keeps "
    "full precision."
)
_MONEY_WORDS = re.compile(
    r"\b(?:amounts?|benefits?|balances?|earnings|pay|compensation|salary|lump|sum|contributions?|credits?\b|"
    r"deferrals?|match|matching|loans?|payments?|value|limits?|dollars?|annuity|offset|withdrawals?|"
    r"forfeitures?|cash|annual)\b|\$",
    re.I,
)
_FACTOR_WORDS = re.compile(
    r"factor|rate|percent|fraction|ratio|yield|probability|shares?\b|months|years", re.I
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


def _is_money(context: str) -> bool:
    """``context`` names the figure: an input's key, or the head of a step's rule (before a colon)."""
    return bool(_MONEY_WORDS.search(context)) and not _FACTOR_WORDS.search(context)


def plain_value(value: object, *, context: str = "") -> str:
    """A trace value for people: money to the cent with "$", factors to FACTOR_PLACES places,
    dates as "April 1, 2027", keys in words (the engine keeps full precision)."""
    context = context.replace("_", " ")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(plain_value(v, context=context) for v in value)
    if isinstance(value, dict):
        return "; ".join(
            f"{plain_text(str(k)) if not str(k).isdigit() else k}: {plain_value(v, context=context)}"
            for k, v in value.items()
        )
    d = _decimal(value)
    if d is not None:
        if _is_money(context):
            return f"${d.quantize(Decimal('0.01'), ROUND_HALF_UP):,}"
        places = -d.as_tuple().exponent
        # An unlabelled figure of ten or more with fractions of a cent is money (a factor or a rate is
        # small); it is shown to the cent like every other amount.
        if places > 2 and abs(d) >= 10 and not _FACTOR_WORDS.search(context):
            return f"${d.quantize(Decimal('0.01'), ROUND_HALF_UP):,}"
        if places > FACTOR_PLACES:
            return f"{d.quantize(Decimal(1).scaleb(-FACTOR_PLACES), ROUND_HALF_UP)}"
        return str(value)
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
    """Steps with their rule, section, inputs and result as words for people (see plain_value);
    ``name`` is the participant's for staff, else the steps say "you"."""
    out = []
    for s in steps:
        rule = addressed(plain_text(s.get("rule", "")), name)
        out.append(
            {
                "rule": rule,
                "section": plain_text(s.get("section", "")),
                "inputs": [
                    (plain_text(_words(k)), plain_value(v, context=k))
                    for k, v in (s.get("inputs") or {}).items()
                ],
                "result": plain_value(s.get("result"), context=rule.split(":")[0]),
            }
        )
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
