"""Beneficiary designations: every write (sign a new version, withdraw a pending one, take effect once
the spouse's consent is verified) and the consent rules that apply to a designation.

The plan's rules come from the engine (the plan's ``beneficiary_rules`` capability); nothing here names
a plan. A designation is never edited: a new version is signed, and it takes effect only when any
consent it needs is verified, superseding the one in effect (Code §417(a)(2); Treas. Reg.
§1.401(a)-20 Q&A-31).
"""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from benefits import formatting
from benefits.audit import AuditEventType, audit_record
from benefits.engine import beneficiaries as rules_engine
from benefits.engine.elections import ConsentPeriod, consent_problems
from benefits.engine.plans import get_plan
from benefits.models import PlanMembership
from elections.authority import ElectionInvalid, require_owner, staff_viewed
from elections.benefit_elections.models import BeneficiaryDesignation
from elections.consents import services as consents
from elections.consents.facts import consent_facts
from elections.consents.models import SpousalConsent


def plan_rules(membership: PlanMembership) -> rules_engine.BeneficiaryRules | None:
    """The plan's beneficiary rules, or ``None`` when it takes no designation outside an election."""
    return get_plan(membership.plan.key).beneficiary_rules


def _married(participant) -> bool:
    return participant.marital_status == participant.MaritalStatus.MARRIED


def named_rows(rows: list[dict]) -> list[rules_engine.Named]:
    return [rules_engine.Named.from_mapping(r) for r in rows]


def check_designation(
    membership: PlanMembership, rows: list[dict], *, on: date
) -> tuple[dict[str, str], list[str]]:
    """(problems by field, consent reasons) for this designation as the participant entered it."""
    rules = plan_rules(membership)
    if rules is None:
        return {
            "plan": f"{membership.plan.name} takes beneficiary designations only with a benefit election."
        }, []
    p = membership.participant
    married = _married(p)
    named = named_rows(rows)
    problems = rules_engine.designation_problems(
        named, rules, on=on, spouse_name=p.spouse_name if married else ""
    )
    reasons = rules_engine.consent_reasons(named, rules, married=married, spouse_name=p.spouse_name)
    if reasons and rules.waives_qpsa:
        opens = rules_engine.qpsa_waiver_opens(p.birth_date, p.termination_date)
        if on < opens:
            problems["primary"] = (
                "Primary beneficiaries: naming anyone but your spouse gives up the survivor benefit your "
                f"spouse would receive if you died before retirement, and that can be done only from {formatting.date_words(opens)} "
                "(the first day of the plan year in which you reach 35, or when you leave employment if "
                "sooner; Code §417(a)(6)(B)). Until then your spouse must be your only primary beneficiary."
            )
    return problems, reasons


def designation_sign(
    *, membership: PlanMembership, user, rows: list[dict], password: str, on: date | None = None, request=None
) -> BeneficiaryDesignation:
    """Sign a new designation (password re-entered). Refused whole when any rule is broken. It takes
    effect now when no consent is needed; otherwise when the spouse's consent is verified."""
    require_owner(membership.participant, user)
    on = on or timezone.localdate()
    if not (password and user.check_password(password)):
        raise ElectionInvalid({"password": "Password: re-enter your password to sign (it did not match)."})
    problems, reasons = check_designation(membership, rows, on=on)
    if problems:
        raise ElectionInvalid(problems)
    p = membership.participant
    married = _married(p)
    clean = [
        {k: v for k, v in vars(r).items() if v} for r in named_rows(rows)
    ]  # only what was entered, as text
    with transaction.atomic():
        PlanMembership.objects.select_for_update().get(pk=membership.pk)  # one signature at a time
        version = (
            BeneficiaryDesignation.objects.filter(membership=membership).aggregate(v=Max("version"))["v"] or 0
        ) + 1
        designation = BeneficiaryDesignation.objects.create(
            participant=p,
            membership=membership,
            version=version,
            beneficiaries=clean,
            needs_consent=bool(reasons),
            consent_reasons=reasons,
            married=married,
            spouse_name=p.spouse_name if married else "",
            signed_on=on,
            signed_at=timezone.now(),
            signed_by=user,
            signed_ip=(request.META.get("REMOTE_ADDR") if request else None),
            state=BeneficiaryDesignation.State.AWAITING_CONSENT,
        )
        # An earlier designation still waiting for consent is withdrawn: only the latest is pursued.
        for old in BeneficiaryDesignation.objects.filter(
            membership=membership, state=BeneficiaryDesignation.State.AWAITING_CONSENT
        ).exclude(pk=designation.pk):
            _withdraw(old, actor=user, request=request, why=f"replaced by version {version}")
        audit_record(
            event_type=AuditEventType.DESIGNATION_SIGNED,
            summary=f"Beneficiary designation v{version} signed for {membership.plan.name}",
            actor=user,
            participant=p,
            request=request,
            designation_id=designation.pk,
            version=version,
            needs_consent=bool(reasons),
        )
        if reasons:
            consents.consent_open(
                subject={"designation": designation},
                participant=p,
                spouse_name=p.spouse_name,
                title=f"Spousal consent form for beneficiary designation {version} ({membership.plan.name})",
                template_name="pdf/notices/spousal_consent_beneficiaries.html",
                payload=consent_form_payload(designation),
                actor=user,
                request=request,
            )
        else:
            designation_try_effective(designation, actor=user, on=on, request=request)
    return designation


def _withdraw(designation: BeneficiaryDesignation, *, actor, request, why: str) -> None:
    designation.state = BeneficiaryDesignation.State.WITHDRAWN
    designation.save(update_fields=["state"])
    audit_record(
        event_type=AuditEventType.DESIGNATION_WITHDRAWN,
        summary=f"Beneficiary designation v{designation.version} withdrawn ({why})",
        actor=actor,
        participant=designation.participant,
        request=request,
        designation_id=designation.pk,
    )


def designation_withdraw(
    *, designation: BeneficiaryDesignation, user, request=None
) -> BeneficiaryDesignation:
    """The participant withdraws a designation still waiting for consent; the one in effect stays."""
    require_owner(designation.participant, user)
    with transaction.atomic():
        designation = BeneficiaryDesignation.objects.select_for_update().get(pk=designation.pk)
        if designation.state != BeneficiaryDesignation.State.AWAITING_CONSENT:
            raise ElectionInvalid({"designation": "Only a designation waiting for consent can be withdrawn."})
        _withdraw(designation, actor=user, request=request, why="by the participant")
    return designation


def designation_try_effective(
    designation: BeneficiaryDesignation, *, actor=None, on: date | None = None, request=None
) -> bool:
    """Put the designation in effect when it needs no consent or a valid one is verified; the one in
    effect before is superseded (kept, never edited)."""
    on = on or timezone.localdate()
    if designation.state != BeneficiaryDesignation.State.AWAITING_CONSENT:
        return designation.state == BeneficiaryDesignation.State.EFFECTIVE
    if designation.needs_consent and not any(
        not designation_consent_validity(c, on=on) for c in designation.consents.all()
    ):
        return False
    with transaction.atomic():
        now = timezone.now()
        for old in BeneficiaryDesignation.objects.select_for_update().filter(
            membership=designation.membership, state=BeneficiaryDesignation.State.EFFECTIVE
        ):
            old.state, old.superseded_at = BeneficiaryDesignation.State.SUPERSEDED, now
            old.save(update_fields=["state", "superseded_at"])
        designation.state, designation.effective_at = BeneficiaryDesignation.State.EFFECTIVE, now
        designation.save(update_fields=["state", "effective_at"])
        audit_record(
            event_type=AuditEventType.DESIGNATION_EFFECTIVE,
            summary=f"Beneficiary designation v{designation.version} in effect ({designation.membership.plan.name})",
            actor=actor,
            participant=designation.participant,
            request=request,
            designation_id=designation.pk,
        )
    return True


def designation_consent_validity(consent: SpousalConsent, *, on: date) -> dict[str, str]:
    """The consent's problems against its designation: the same spouse, signed after the designation
    it names and no later than today, witnessed, uploaded, verified."""
    designation = consent.designation
    p = designation.participant
    spouse_now = p.spouse_name if _married(p) else ""
    facts = consent_facts(consent, subject_id=designation.pk)
    period = ConsentPeriod(
        designation.signed_on,
        on,
        "the spouse signs after the designation it names (Treas. Reg. §1.401(a)-20 Q&A-31)",
    )
    return consent_problems(
        facts,
        spouse_now=spouse_now,
        election_signed_on=designation.signed_on,
        window=period,
        subject="the beneficiary designation",
    )


def consent_form_payload(designation: BeneficiaryDesignation) -> dict:
    """The consent form's content: the plan, the specific beneficiaries named, why consent is needed,
    and who takes by default (Q&A-31: the consent names the beneficiary)."""
    from elections.benefit_elections.presenters import beneficiary_rows, words

    p = designation.participant
    rules = plan_rules(designation.membership)
    return {
        "designation_id": designation.pk,
        "version": designation.version,
        "plan": designation.membership.plan.name,
        "participant": p.full_name,
        "participant_number": p.participant_number,
        "spouse": designation.spouse_name,
        "signed_on": words(designation.signed_on),
        "beneficiaries": beneficiary_rows(designation.beneficiaries),
        "reasons": designation.consent_reasons,
        "default_order": list(rules.default_order) if rules else [],
        "waives_qpsa": bool(rules and rules.waives_qpsa),
        "consent_source": rules.consent_source if rules else "",
    }


def staff_viewed_designations(*, viewer, participant, request=None) -> None:
    """Every staff view of a participant's beneficiaries is an audit event."""
    staff_viewed(
        viewer=viewer,
        participant=participant,
        what="the beneficiaries",
        request=request,
        event_type=AuditEventType.DESIGNATION_VIEWED_BY_STAFF,
    )
