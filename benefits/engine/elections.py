"""Election windows and spousal-consent rules (pure: no Django).

The law:

* Election period: "the 180-day period ending on the annuity starting date" (Code §417(a)(6)(A), as
  amended by PPA 2006 §1102(a)(1)); a plan may keep a shorter period of its own. Read with Treas. Reg.
  §1.417(e)-1(b)(3)(i) ("not more than 90 [180] days before the ASD"): an election or consent counts on
  a day no earlier than ASD − period and no later than the ASD.
* The QJSA explanation must be given no less than 30 and no more than 180 [the period] days before the
  ASD (§1.417(e)-1(b)(3)(ii)).
* The 30-day minimum may be waived (§417(a)(7)(B); §1.417(e)-1(b)(3)(ii)(A)–(D)) if the participant is
  told of the right to 30 days (A), the election is revocable until the later of the ASD and the end
  of the 7-day period beginning the day after the explanation (B), the ASD is after the explanation
  (C), and distribution does not commence before that 7-day period ends (D).
* Spousal consent (§417(a)(2); §1.401(a)-20 Q&A-27, -29, -31): in writing, to that election's specific
  form and beneficiary, witnessed by a notary or plan representative, effective only for the spouse who
  signed it; not required where a plan representative is satisfied there is no spouse or the spouse
  cannot be located, or in the circumstances the regulation lists (legal separation, abandonment with a
  court order).

Each plan's own rules (its period, which forms a married participant may choose without consent,
whether its single sum needs consent) are an ``ElectionRules``: the plan's ``election_rules``
capability (defined in its package's ``elections`` module), read through ``election_rules(plan_key)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

STATUTORY_PERIOD_DAYS = 180  # Code §417(a)(6)(A) after PPA 2006 §1102(a)(1)(A)
MINIMUM_DAYS = 30  # Treas. Reg. §1.417(e)-1(b)(3)(ii)
WAIVER_DAYS = 7  # Code §417(a)(7)(B); Treas. Reg. §1.417(e)-1(b)(3)(ii)(B), (D)


@dataclass(frozen=True)
class ElectionRules:
    """One plan's election and consent rules, each with the section it was read from."""

    period_days: int = STATUTORY_PERIOD_DAYS
    period_source: str = "Code §417(a)(6)(A)"
    qjsa_applies: bool = True  # False where §401(a)(11) does not apply to the plan
    # Forms a married participant may choose, naming the spouse, without the spouse's consent.
    consent_free_forms: frozenset[str] = field(default_factory=frozenset)
    consent_source: str = "Code §417(a)(2)"
    single_sum_needs_consent: bool = True
    # The plan's default beneficiary: the spouse of a married participant (§401(a)(11) QPSA).
    default_beneficiary: str = "your spouse if you are married; otherwise your estate"
    default_beneficiary_source: str = ""
    waiver_30_days_allowed: bool = True
    # Survivor forms whose survivor may be someone other than the spouse (a contingent annuitant), the
    # section that allows it, and how a contract request names that person so the engine prices the
    # form on that person's life (edits one request participant in place).
    annuitant_forms: frozenset[str] = field(default_factory=frozenset)
    annuitant_source: str = ""
    annuitant_person: Callable[[dict[str, Any], str], None] | None = None


DEFAULT_RULES = ElectionRules()


def election_rules(plan_key: str) -> ElectionRules:
    """The plan's rules (its ``election_rules`` capability); the statute's defaults where it has none."""
    from benefits.engine.plans import PLANS

    plan = PLANS.get(plan_key)
    rules = plan.election_rules if plan is not None else None
    return rules if rules is not None else DEFAULT_RULES


# ------------------------------------------------------------------------------------ windows


class WindowError(ValueError):
    """An election or consent outside its window; ``field`` names what the rule is about."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name


def _d(d: date) -> str:
    return f"{d:%B} {d.day}, {d.year}"


@dataclass(frozen=True)
class Window:
    """The dates that follow from one explanation and one annuity starting date."""

    explained_on: date
    asd: date
    period_days: int
    period_source: str = "Code §417(a)(6)(A)"

    @property
    def period_opens(self) -> date:
        """The first day an election or consent counts: no more than ``period_days`` before the ASD."""
        return self.asd - timedelta(days=self.period_days)

    @property
    def period_closes(self) -> date:
        return self.asd

    @property
    def thirty_days_end(self) -> date:
        """The earliest ASD without a waiver: 30 days after the explanation."""
        return self.explained_on + timedelta(days=MINIMUM_DAYS)

    @property
    def seven_day_period_end(self) -> date:
        """The last day of the 7-day period beginning the day after the explanation."""
        return self.explained_on + timedelta(days=WAIVER_DAYS)

    @property
    def needs_waiver(self) -> bool:
        return self.asd < self.thirty_days_end

    @property
    def revocable_until(self) -> date:
        """The later of the ASD and the end of the 7-day period (§1.417(e)-1(b)(3)(ii)(B))."""
        return max(self.asd, self.seven_day_period_end)

    def check_explanation(self) -> None:
        """The explanation is timely for this ASD (§1.417(e)-1(b)(3)(ii); plan period)."""
        if self.explained_on < self.period_opens:
            raise WindowError(
                "explanation",
                f"The explanation was given on {_d(self.explained_on)}, more than {self.period_days} days "
                f"before the payment start date of {_d(self.asd)} ({self.period_source}); a new "
                "explanation is needed.",
            )
        if self.asd <= self.explained_on:
            raise WindowError(
                "asd",
                f"The payment start date ({_d(self.asd)}) must be after the date the explanation was given "
                f"({_d(self.explained_on)}) (Treas. Reg. §1.417(e)-1(b)(3)(ii)(C)).",
            )

    def check_election(self, signed_on: date, *, waive_30_days: bool, waiver_allowed: bool = True) -> None:
        """The election counts: inside the period, after the explanation, 30 days or a valid waiver."""
        self.check_explanation()
        if signed_on < self.explained_on:
            raise WindowError("signed_on", "An election can be made only after the explanation is given.")
        if signed_on < self.period_opens:
            raise WindowError(
                "signed_on",
                f"The election period opens on {_d(self.period_opens)}: an election counts only within the "
                f"{self.period_days} days ending on the payment start date ({self.period_source}).",
            )
        if signed_on > self.period_closes:
            raise WindowError(
                "signed_on",
                f"The election period ended on the payment start date, {_d(self.asd)} ({self.period_source}).",
            )
        if self.needs_waiver:
            if not waiver_allowed:
                raise WindowError(
                    "asd",
                    f"The payment start date must be at least 30 days after the explanation, on or after "
                    f"{_d(self.thirty_days_end)} (Treas. Reg. §1.417(e)-1(b)(3)(ii)).",
                )
            if not waive_30_days:
                raise WindowError(
                    "waive_30_days",
                    f"Your payment start date is less than 30 days after the explanation: to start on "
                    f"{_d(self.asd)} you must choose to waive the 30-day period (Code §417(a)(7)(B)), or "
                    f"choose a start date on or after {_d(self.thirty_days_end)}.",
                )
            if self.asd <= self.seven_day_period_end:
                raise WindowError(
                    "asd",
                    f"Payments cannot start until the 7-day period after the explanation has ended: the "
                    f"earliest start date is {_d(self.seven_day_period_end + timedelta(days=1))} "
                    "(Treas. Reg. §1.417(e)-1(b)(3)(ii)(D)).",
                )

    def can_revoke(self, on: date) -> bool:
        return on <= self.revocable_until


# ------------------------------------------------------------------------------------ consent


@dataclass(frozen=True)
class ConsentPeriod:
    """The days on which a spouse's signature counts for something other than an election: a
    beneficiary designation (from the designation, or the QPSA waiver period), a loan (the 90 days
    ending on the day it is made, Code §417(a)(4)), a withdrawal (the plan's election period)."""

    period_opens: date
    period_closes: date
    period_source: str


@dataclass(frozen=True)
class ConsentFacts:
    """What a consent's validity turns on, copied from the records (no ORM here)."""

    kind: str  # "consent" or "exception"
    consent_spouse: str
    election_id: int
    consent_election_id: int
    signed_on: date | None
    witness: str  # "notary", "plan_representative" or ""
    witness_name: str
    notary_commission_number: str
    notary_commission_expires: date | None
    witnessing: str  # "in_person" or "remote"
    remote_live_audio_video: bool
    remote_identity_shown: bool
    remote_same_day_transmission: bool
    has_upload: bool
    verified: bool
    exception: str
    certification: str
    certified_by_staff: bool


def same_name(a: str, b: str) -> bool:
    """Two names as entered are the same person's: equal ignoring case and spacing."""
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def consent_problems(
    facts: ConsentFacts,
    *,
    spouse_now: str,
    election_signed_on: date,
    window: Window | ConsentPeriod,
    subject: str = "the election",
) -> dict[str, str]:
    """Every reason this consent does not make ``subject`` (an election, a designation, a loan or a
    withdrawal) effective, by field; empty when valid."""
    problems: dict[str, str] = {}
    if facts.consent_election_id != facts.election_id:
        problems["election"] = (
            f"The consent is to something else; a consent binds only what it names, not {subject} "
            "(Treas. Reg. §1.401(a)-20 Q&A-31)."
        )
    if facts.kind == "exception":
        if not facts.exception:
            problems["exception"] = (
                "Name the circumstance that makes consent unnecessary (Code §417(a)(2)(B))."
            )
        if not (facts.certification.strip() and facts.certified_by_staff):
            problems["certification"] = (
                "An exception needs a plan representative's certification of the facts (Code §417(a)(2)(B); "
                "Treas. Reg. §1.401(a)-20 Q&A-27)."
            )
        if not facts.verified:
            problems["verified"] = "The administrator has not yet verified the exception."
        return problems
    if not same_name(facts.consent_spouse, spouse_now):
        problems["spouse"] = (
            f"The consent was signed by {facts.consent_spouse or 'someone'}, not by your spouse of record "
            f"({spouse_now or 'none recorded'}): a consent binds only the spouse who signs it "
            "(Code §417(a)(2)(B); Treas. Reg. §1.401(a)-20 Q&A-29)."
        )
    if facts.signed_on is None:
        problems["signed_on"] = "Give the date your spouse signed the consent."
    else:
        if facts.signed_on < election_signed_on:
            problems["signed_on"] = (
                f"The spouse signed on {_d(facts.signed_on)}, before {subject} was made on "
                f"{_d(election_signed_on)}: the consent must be to what {subject} names."
            )
        elif facts.signed_on < window.period_opens or facts.signed_on > window.period_closes:
            problems["signed_on"] = (
                f"The spouse signed on {_d(facts.signed_on)}, outside the period in which a consent counts "
                f"({_d(window.period_opens)} to {_d(window.period_closes)}; {window.period_source})."
            )
    if facts.witness not in ("notary", "plan_representative") or not facts.witness_name.strip():
        problems["witness"] = (
            "The consent must be witnessed by a notary public or a plan representative, named on the form "
            "(Code §417(a)(2)(A)(iii))."
        )
    elif facts.witness == "notary":
        if not facts.notary_commission_number.strip() or facts.notary_commission_expires is None:
            problems["notary_commission_number"] = "Give the notary's commission number and its expiry date."
        elif facts.signed_on and facts.notary_commission_expires < facts.signed_on:
            problems["notary_commission_expires"] = (
                "The notary's commission had expired when the spouse signed."
            )
    if facts.witnessing == "remote" and not (
        facts.remote_live_audio_video and facts.remote_identity_shown and facts.remote_same_day_transmission
    ):
        problems["witnessing"] = (
            "Remote witnessing counts only by live audio-video, with the spouse's photo identification shown "
            "live and the signed form sent the same day (proposed Treas. Reg. §1.401(a)-21(d)(6), "
            "REG-114666-22, on which plans may rely)."
        )
    if not facts.has_upload:
        problems["upload"] = "Upload the signed, witnessed consent form."
    if not facts.verified:
        problems["verified"] = "The administrator has not yet verified the consent."
    return problems
