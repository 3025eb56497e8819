"""Generate a deterministic census request for a plan: ``census.request(plan, n, seed)``.

Usage: ``.venv/bin/python bench/census.py PLAN N [SEED] > request.json``
       ``.venv/bin/python bench/census.py --jsonl PLAN N [SEED] > census.jsonl`` (one participant a line,
       generated and written one at a time)

Participants are plausible, not real: birth 1950-1995, hire at 18-55, full-time hours with some
part-time and short years, a third terminated, one in eight rehired, and the plan_data keys the
contract names for the plan (balances, shares, Social Security Amount, ...).
"""

from __future__ import annotations

import json
import random
import sys
from datetime import date, timedelta

AS_OF = {
    "carver-db": date(2026, 11, 21),
    "quaker-cash-balance": date(2026, 11, 21),
    "carver-401k": date(2026, 11, 21),
    "fairport-esop": date(2026, 11, 21),
    "carver-esop": date(2026, 11, 21),
}


def _day(rng: random.Random, start: date, end: date) -> date:
    return start + timedelta(days=rng.randrange(max(1, (end - start).days)))


def _plan_data(plan: str, rng: random.Random, hire: date) -> dict:
    if plan == "carver-db":
        return {"social_security_amount": f"{rng.randrange(6000, 24000)}.00"}
    if plan == "quaker-cash-balance":
        return {"opening_balance": f"{rng.randrange(0, 60000)}.00"} if hire.year < 2000 else {}
    if plan == "carver-401k":
        return {
            "balances": {
                s: f"{rng.randrange(0, 50000)}.{rng.randrange(100):02d}"
                for s in ("before_tax", "matching_pre2002", "matching_2002", "discretionary", "nonelective")
            },
            "deferrals": {"2025": f"{rng.randrange(0, 9000)}.00"},
            "loans": {"outstanding_balance": "0.00", "highest_balance_last_12_months": "0.00"},
        }
    shares = rng.randrange(0, 5000)
    data = {"shares": str(shares), "cash": f"{rng.randrange(0, 2000)}.00", "share_value": "12.40"}
    if plan == "fairport-esop":
        data |= {
            "years_of_participation": rng.randrange(0, 15),
            "shares_allocated_since_inception": str(shares),
            "shares_diversified": "0",
        }
    else:
        data |= {"vested_account_value": f"{rng.randrange(0, 20000)}.00", "normal_retirement_age": 65}
    return data


def participant(plan: str, i: int, rng: random.Random, as_of: date) -> dict:
    birth = _day(rng, date(1950, 1, 1), date(1995, 12, 31))
    earliest = max(date(birth.year + 18, birth.month, 1), date(1975, 1, 1))
    hire = _day(rng, earliest, min(as_of, date(birth.year + 55, 1, 1)))
    p: dict = {
        "id": f"{plan[:3].upper()}-{i:06d}",
        "birth_date": birth.isoformat(),
        "hire_date": hire.isoformat(),
        "marital_status": rng.choice(["single", "married"]),
    }
    if p["marital_status"] == "married":
        p["spouse_birth_date"] = _day(
            rng, birth - timedelta(days=3650), birth + timedelta(days=3650)
        ).isoformat()
    term = None
    if rng.random() < 0.33:
        term = _day(rng, hire, as_of)
    periods = [(hire, term)]
    if term is not None and rng.random() < 0.35 and (as_of - term).days > 400:
        back = _day(rng, term + timedelta(days=30), as_of)
        periods.append((back, None))
        p["employment_periods"] = [
            {"start": s.isoformat(), "end": e.isoformat() if e else None} for s, e in periods
        ]
    elif term is not None:
        p["termination_date"] = term.isoformat()
    part_time = rng.random() < 0.12
    hours, pay = {}, {}
    salary = rng.randrange(25000, 120000)
    for s, e in periods:
        for y in range(s.year, (e or as_of).year + 1):
            frac = (min(e or as_of, date(y, 12, 31)) - max(s, date(y, 1, 1))).days / 365
            base = 1040 if part_time else 2080
            hours[str(y)] = hours.get(str(y), 0) + max(0, int(base * frac) - rng.randrange(0, 120))
            pay[str(y)] = f"{salary * frac:.2f}"
            salary = int(salary * 1.03)
    p["hours"] = hours
    p["compensation"] = pay
    p["plan_data"] = _plan_data(plan, rng, hire)
    return p


def _header(plan: str) -> dict:
    req: dict = {"plan": plan, "as_of": AS_OF[plan].isoformat(), "assumptions": {}}
    if plan == "fairport-esop":
        req["settings"] = {"pre_plan_vesting_cap_years": 5}
    if plan == "quaker-cash-balance":
        req["assumptions"] = {
            "treasury_10y_november": {str(y): "4.50" for y in range(1999, 2026)},
            "applicable_interest_rate_default": "5.00",
        }
    return req


def participants(plan: str, n: int, seed: int = 20261121):
    rng = random.Random(f"{plan}:{seed}")
    for i in range(n):
        yield participant(plan, i, rng, AS_OF[plan])


def request(plan: str, n: int, seed: int = 20261121) -> dict:
    return _header(plan) | {"participants": list(participants(plan, n, seed))}


def write_jsonl(plan: str, n: int, out, seed: int = 20261121) -> None:
    """The same census as ``request`` in JSON Lines (``calculate --jsonl``)."""
    out.write(json.dumps(_header(plan)) + "\n")
    for p in participants(plan, n, seed):
        out.write(json.dumps(p) + "\n")


if __name__ == "__main__":
    args = sys.argv[1:]
    jsonl = args[:1] == ["--jsonl"]
    if jsonl:
        args = args[1:]
    plan, n = args[0], int(args[1])
    seed = int(args[2]) if len(args) > 2 else 20261121
    if jsonl:
        write_jsonl(plan, n, sys.stdout, seed)
    else:
        json.dump(request(plan, n, seed), sys.stdout)
