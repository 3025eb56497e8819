"""The census: each participant's identity, dates, marital status and spouse, and the plans they are in."""

from __future__ import annotations

import re

from benefits.identity import ssn_hash
from benefits.imports import cells as c
from benefits.imports.kinds.base import Cells, Column, Kind, Target
from benefits.models import Employer, Participant, Plan, PlanMembership

MARITAL = {"single": "single", "married": "married"}
SSN = re.compile(r"^\d{3}-?\d{2}-?\d{4}$")
OPTIONAL_TEXT = {"spouse_name": 200, "email": 254, "phone": 30, "address": 500}
OPTIONAL_DATES = ("termination_date", "spouse_birth_date", "death_date", "disability_date")


class ParticipantsKind(Kind):
    def context(self, table):
        numbers = {cells.get("participant_number", "") for _, cells in table.rows}
        participants = {
            p.participant_number: p for p in Participant.objects.filter(participant_number__in=numbers)
        }
        memberships = PlanMembership.objects.filter(
            participant__participant_number__in=numbers
        ).select_related("participant", "plan")
        return {
            "participants": participants,
            "memberships": {(m.participant.participant_number, m.plan.key): m for m in memberships},
            "employers": {e.name.lower(): e for e in Employer.objects.all()},
            "plans": {p.key: p for p in Plan.objects.all()},
            "ssn_owner": {},  # filled lazily: ssn hash -> participant number
        }

    def targets(self, row: Cells, ctx: dict) -> list[Target]:
        number = row.get("participant_number", c.text, max_length=20)
        existing = ctx["participants"].get(number) if number else None
        values: dict = {}
        employer_name = row.get("employer", c.text, max_length=200)
        if employer_name is not None:
            employer = ctx["employers"].get(employer_name.lower())
            if employer is None:
                row.fail("employer", f"employer: no employer is named {employer_name!r}.")
            values["employer"] = employer
        values["first_name"] = row.get("first_name", c.text, max_length=100)
        values["last_name"] = row.get("last_name", c.text, max_length=100)
        values["birth_date"] = row.get("birth_date", c.a_date)
        values["hire_date"] = row.get("hire_date", c.a_date)
        values["marital_status"] = row.get("marital_status", c.choice, MARITAL)
        for name in OPTIONAL_DATES:
            if name in row.cells:
                values[name] = row.get(name, c.optional_date)
        for name, length in OPTIONAL_TEXT.items():
            if name in row.cells:
                values[name] = row.get(name, c.text, max_length=length, required=False)
        self._ssn(row, ctx, number, existing, values)
        self._dates_in_order(row, values, existing)
        plans = self._plans(row, ctx)
        entry = row.get("entry_date", c.optional_date) if "entry_date" in row.cells else None
        if entry is not None and values.get("hire_date") and entry < values["hire_date"]:
            row.fail(
                "entry_date", "entry_date is before hire_date: a participant enters a plan after being hired."
            )
        row.done()
        person = Target(Participant, (number,), {"participant_number": number}, values, label=number)
        out = [person]
        for plan in plans:
            found = ctx["memberships"].get((number, plan.key))
            out.append(
                Target(
                    PlanMembership,
                    (number, plan.key),
                    {"participant": found.participant if found else person, "plan": plan},
                    {"entry_date": entry} if entry is not None else {},
                    label=f"{number} {plan.key}",
                )
            )
        return out

    def _ssn(self, row: Cells, ctx: dict, number, existing, values: dict) -> None:
        raw = row.raw("ssn")
        if raw == "":
            if existing is None:
                row.fail("ssn", "ssn is required for a new participant.")
            return
        if not SSN.match(raw):
            row.fail("ssn", "ssn must be nine digits, written 123-45-6789.")
            return
        digest = ssn_hash(raw)
        owner = ctx["ssn_owner"].get(digest)
        if owner is None:
            owner = (
                Participant.objects.filter(ssn_hash=digest)
                .values_list("participant_number", flat=True)
                .first()
            )
        if owner is not None and owner != number:
            row.fail("ssn", f"ssn belongs to participant {owner} already.")
            return
        ctx["ssn_owner"][digest] = number
        values["ssn_hash"] = digest
        values["ssn_last4"] = re.sub(r"\D", "", raw)[-4:]

    def _dates_in_order(self, row: Cells, values: dict, existing) -> None:
        def value(name):
            return values[name] if name in values else getattr(existing, name, None)

        birth, hire = value("birth_date"), value("hire_date")
        if birth and hire and hire <= birth:
            row.fail("hire_date", "hire_date must be after birth_date.")
        term = value("termination_date")
        if term and hire and term < hire:
            row.fail("termination_date", "termination_date must not be before hire_date.")
        for name in ("death_date", "disability_date"):
            day = value(name)
            if day and birth and day < birth:
                row.fail(name, f"{name} must not be before birth_date.")
        status = values.get("marital_status")
        spouse_name, spouse_birth = value("spouse_name"), value("spouse_birth_date")
        if status == "married":
            if not spouse_name:
                row.fail("spouse_name", "spouse_name is required when marital_status is married.")
            if not spouse_birth:
                row.fail("spouse_birth_date", "spouse_birth_date is required when marital_status is married.")
        elif status == "single":
            for name in ("spouse_name", "spouse_birth_date"):
                if name in values and values[name]:
                    row.fail(name, f"{name} must be blank when marital_status is single.")
            # A participant who is now single keeps no spouse on record.
            if existing is not None:
                values.setdefault("spouse_name", "")
                values.setdefault("spouse_birth_date", None)

    def _plans(self, row: Cells, ctx: dict) -> list[Plan]:
        raw = row.raw("plans")
        plans = []
        for key in filter(None, (k.strip() for k in re.split(r"[;|]", raw))):
            plan = ctx["plans"].get(key)
            if plan is None:
                row.fail("plans", f"plans: no plan has the key {key!r}.")
            else:
                plans.append(plan)
        return plans

    def existing(self, model, keys, ctx):
        if model is Participant:
            return {
                (n,): p for (n,), p in ((k, ctx["participants"].get(k[0])) for k in keys) if p is not None
            }
        return {k: ctx["memberships"][k] for k in keys if k in ctx["memberships"]}

    def memberships_affected(self, targets):
        ids: set[int] = set()
        for t in targets:
            if t.instance is None:
                continue
            if isinstance(t.instance, PlanMembership):
                ids.add(t.instance.pk)
            else:
                ids.update(t.instance.memberships.values_list("pk", flat=True))
        return ids


KIND = ParticipantsKind(
    name="participants",
    label="Participants",
    description="The census: each participant's name, dates, marital status and spouse, and the plans they "
    "are in. Columns left out of the file are left as they are.",
    columns=(
        Column(
            "participant_number", True, "The participant's number (the key: a new number adds a participant)."
        ),
        Column("employer", True, "The employer's name, as on the Plans page."),
        Column("first_name", True, "First name."),
        Column("last_name", True, "Last name."),
        Column("birth_date", True, "Date of birth (YYYY-MM-DD)."),
        Column(
            "ssn",
            True,
            "Social Security number, 123-45-6789: required for a new participant. Only a keyed "
            "hash and the last four digits are stored.",
        ),
        Column("hire_date", True, "Date of hire: the first Hour of Service."),
        Column("termination_date", False, "Date of severance from employment; blank while employed."),
        Column("marital_status", True, "single or married."),
        Column("spouse_name", False, "The spouse's name; required when married, blank when single."),
        Column(
            "spouse_birth_date",
            False,
            "The spouse's date of birth; required when married, blank when single.",
        ),
        Column("email", False, "Email address."),
        Column("phone", False, "Telephone number."),
        Column("address", False, "Mailing address."),
        Column("death_date", False, "Date of death, if any."),
        Column("disability_date", False, "Date of disability, if any."),
        Column(
            "plans",
            False,
            "The plans the participant is in, by key, separated by semicolons "
            "(carver-db;carver-401k). A membership is added when missing; none is removed.",
        ),
        Column("entry_date", False, "The date the participant entered the plans named in plans."),
    ),
    key_columns=("participant_number",),
    rules=(
        "Dates are in order: birth before hire, hire not after termination, death and disability not before birth.",
        "A married participant has a spouse name and spouse birth date; a single one has neither.",
        "The SSN is nine digits and belongs to no other participant; the employer and plans exist.",
        "One row per participant number.",
    ),
)
