"""Linking a login to a Participant record, by proving identity with data the plan already holds."""

from __future__ import annotations

import hmac
from datetime import date

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from benefits.audit import AuditEventType, audit_record, client_ip
from benefits.models import Participant

GENERIC_FAILURE = (
    "We could not match those details to a plan record. Check them against your plan statement "
    "and try again, or contact your plan administrator."
)
# Said only after all three details matched, so it tells nothing to someone guessing.
DECEASED_RECORD = (
    "This plan record is of a participant who has died, so it cannot be linked to a login. If you are "
    "a beneficiary or the surviving spouse, contact the plan administrator: they link your account to "
    "the record as the beneficiary, and you can then claim the death benefit from your Claims page."
)


class IdentityLinkError(Exception):
    pass


class IdentityLinkLocked(IdentityLinkError):
    pass


def _attempt_keys(user, request) -> list[tuple[str, int]]:
    """(counter, limit): one per account, one per client address (the real client's, behind the
    trusted proxies). An account's own failures lock only that account; the address limit is several
    accounts' worth, so one person cannot lock linking for others behind the same address."""
    keys = [(f"identity-link:user:{user.pk}", settings.IDENTITY_LINK_MAX_ATTEMPTS)]
    ip = client_ip(request)
    if ip:
        keys.append((f"identity-link:ip:{ip}", settings.IDENTITY_LINK_MAX_ATTEMPTS_PER_ADDRESS))
    return keys


def identity_link_attempts_exceeded(*, user, request=None) -> bool:
    return any((cache.get(key) or 0) >= limit for key, limit in _attempt_keys(user, request))


def _count_failure(user, request) -> None:
    window = settings.IDENTITY_LINK_WINDOW_SECONDS
    for key, _limit in _attempt_keys(user, request):
        cache.add(key, 0, timeout=window)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=window)


def participant_link_identity(
    *, user, participant_number: str, birth_date: date, ssn_last4: str, request=None
) -> Participant:
    """Link ``user`` to the Participant these three items identify, or fail without saying which was wrong.

    Repeated failures (per user and per IP) lock further attempts for a window.
    """
    if not user.is_participant_role:
        raise IdentityLinkError("Only participant accounts link to a plan record.")
    if hasattr(user, "participant"):
        raise IdentityLinkError("Your account is already linked to a plan record.")
    if identity_link_attempts_exceeded(user=user, request=request):
        raise IdentityLinkLocked(
            "Too many unsuccessful attempts. For your security, try again later or contact your plan administrator."
        )

    with transaction.atomic():
        candidate = (
            Participant.objects.select_for_update()
            .filter(participant_number=participant_number.strip(), user__isnull=True)
            .first()
        )
        matched = (
            candidate is not None
            and candidate.birth_date == birth_date
            and hmac.compare_digest(  # bytes: str refuses non-ASCII input
                candidate.ssn_last4.encode(), (ssn_last4 or "").strip().encode()
            )
        )
        if matched and candidate.death_date is not None:
            # A deceased participant's record is never taken over by a login: a survivor claims as the
            # beneficiary, through the administrator's beneficiary link.
            audit_record(
                event_type=AuditEventType.IDENTITY_LINK_FAILED,
                summary=f"{user.email} matched participant {candidate.participant_number}, who has died: "
                "pointed to the beneficiary path",
                actor=user,
                participant=candidate,
                request=request,
            )
        elif matched:
            candidate.user = user
            candidate.save(update_fields=["user"])
            audit_record(
                event_type=AuditEventType.IDENTITY_LINKED,
                summary=f"{user.email} linked to participant {candidate.participant_number}",
                actor=user,
                participant=candidate,
                request=request,
            )
            return candidate
        else:
            audit_record(
                event_type=AuditEventType.IDENTITY_LINK_FAILED,
                summary=f"{user.email} failed an identity check",
                actor=user,
                request=request,
            )
    if matched:  # the record of a participant who has died (recorded above)
        raise IdentityLinkError(DECEASED_RECORD)
    _count_failure(user, request)
    raise IdentityLinkError(GENERIC_FAILURE)


# ------------------------------------------------------------------------------------ roles and access


class RoleChangeRefused(Exception):
    """The change is not allowed; the message says why, in words for the administrator."""


def mfa_authenticated(request) -> bool:
    """Did this session's login include a second factor? (allauth records each method used.)"""
    if request is None or not getattr(request, "user", None) or not request.user.is_authenticated:
        return False
    from allauth.account.authentication import get_authentication_records

    return any(r.get("method") == "mfa" for r in get_authentication_records(request, request.user))


def _require_mfa_administrator(actor, request) -> None:
    from allauth.mfa.utils import is_mfa_enabled

    if not getattr(actor, "is_authenticated", False) or not actor.is_administrator or not actor.is_active:
        raise PermissionDenied("Only an administrator changes roles and access.")
    if not is_mfa_enabled(actor) or not mfa_authenticated(request):
        raise PermissionDenied("Changing roles needs a login with two-factor authentication.")


STAFF_ROLES = ("committee", "administrator")


def user_change_role(*, actor, user, role: str, request) -> object:
    """Give ``user`` another role: an MFA-authenticated administrator, never on themselves.

    Taking a staff role away (back to participant) is done at once, audited with the old and the new
    role. Giving one (committee or administrator) only records a request: a different person approves
    it (``role_request_decide``), and until then the login keeps its old role. Returns the user, or the
    ``RoleRequest`` made."""
    from accounts.models import User

    _require_mfa_administrator(actor, request)
    if role not in User.Role.values:
        raise RoleChangeRefused("Choose one of the roles offered.")
    if user.pk == actor.pk:
        raise RoleChangeRefused("You cannot change your own role; another administrator must do it.")
    if role in STAFF_ROLES:
        return role_request(actor=actor, user=user, role=role, request=request)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        old = user.role
        if old == role:
            return user
        user.role = role
        user.save(update_fields=["role"])
        audit_record(
            event_type=AuditEventType.ACCOUNT_ROLE_CHANGED,
            summary=f"{user.email}: role {old} → {role}",
            actor=actor,
            request=request,
            user_id=user.pk,
            email=user.email,
            old=old,
            new=role,
        )
    return user


def _pending_for(email: str):
    from accounts.models import RoleRequest

    return RoleRequest.objects.filter(email__iexact=email, status=RoleRequest.Status.PENDING)


def role_request(*, actor, user, role: str, request) -> object:
    """Ask for ``user`` to hold a staff role; nothing changes until someone else approves."""
    from django.db import IntegrityError

    from accounts.models import RoleRequest, User

    _require_mfa_administrator(actor, request)
    if role not in STAFF_ROLES:
        raise RoleChangeRefused("Only the committee and administrator roles are requested for approval.")
    if user.pk == actor.pk:
        raise RoleChangeRefused("You cannot change your own role; another administrator must do it.")
    user = User.objects.get(pk=user.pk)
    if user.role == role:
        raise RoleChangeRefused(f"{user.email} already holds that role.")
    if hasattr(user, "participant"):
        raise RoleChangeRefused(
            f"{user.email} is linked to a participant record; plan staff cannot hold their own plan record."
        )
    if _pending_for(user.email).exists():
        raise RoleChangeRefused(f"A request for {user.email} is already waiting for approval.")
    try:
        with transaction.atomic():
            made = RoleRequest.objects.create(user=user, email=user.email, role=role, requested_by=actor)
            audit_record(
                event_type=AuditEventType.ROLE_REQUESTED,
                summary=f"{actor.email} asked for {user.email} to become {role}; waiting for approval",
                actor=actor,
                request=request,
                user_id=user.pk,
                email=user.email,
                request_id=made.pk,
                old=user.role,
                new=role,
            )
    except IntegrityError as exc:  # a concurrent request for the same address won
        raise RoleChangeRefused(f"A request for {user.email} is already waiting for approval.") from exc
    return made


def staff_login_request(*, actor, email: str, role: str, request) -> object:
    """Ask for a new staff login; it is created only when someone else approves the request."""
    from django.db import IntegrityError

    from accounts.models import RoleRequest, User

    _require_mfa_administrator(actor, request)
    if role not in STAFF_ROLES:
        raise RoleChangeRefused("Role: choose the committee or the administrator role.")
    email = User.objects.normalize_email(email).strip().lower()
    if User.objects.filter(email__iexact=email).exists():
        raise RoleChangeRefused(f"{email} already has a login: change its role in the table instead.")
    if _pending_for(email).exists():
        raise RoleChangeRefused(f"A request for {email} is already waiting for approval.")
    try:
        with transaction.atomic():
            made = RoleRequest.objects.create(user=None, email=email, role=role, requested_by=actor)
            audit_record(
                event_type=AuditEventType.STAFF_LOGIN_REQUESTED,
                summary=f"{actor.email} asked for a new {role} login for {email}; waiting for approval",
                actor=actor,
                request=request,
                email=email,
                request_id=made.pk,
                old="",
                new=role,
            )
    except IntegrityError as exc:
        raise RoleChangeRefused(f"A request for {email} is already waiting for approval.") from exc
    return made


def may_decide(actor, role_request) -> bool:
    """Who may approve or refuse: not the requester, not the person it is about; an administrator for
    any request, a sitting committee member for a committee request."""
    if not getattr(actor, "is_authenticated", False) or not actor.is_active:
        return False
    if actor.pk == role_request.requested_by_id or actor.pk == role_request.user_id:
        return False
    if actor.email.lower() == role_request.email.lower():
        return False
    if actor.is_administrator:
        return True
    return actor.is_committee and role_request.role == "committee"


def role_request_decide(*, actor, role_request, approve: bool, request) -> object:
    """Approve (the role is given, or the new login made) or refuse a pending request, audited. The
    requester may withdraw their own request; nobody approves their own request or one about them."""
    from allauth.account.models import EmailAddress
    from allauth.mfa.utils import is_mfa_enabled

    from accounts.models import RoleRequest, User

    if not getattr(actor, "is_authenticated", False) or not actor.is_active or not actor.is_plan_staff:
        raise PermissionDenied("Only plan staff decide role requests.")
    if not is_mfa_enabled(actor) or not mfa_authenticated(request):
        raise PermissionDenied("Deciding a role request needs a login with two-factor authentication.")
    with transaction.atomic():
        made = RoleRequest.objects.select_for_update().get(pk=role_request.pk)
        if made.status != RoleRequest.Status.PENDING:
            raise RoleChangeRefused("This request has already been decided.")
        withdrawing = not approve and actor.pk == made.requested_by_id
        if not withdrawing and not may_decide(actor, made):
            if actor.pk in (made.requested_by_id, made.user_id) or actor.email.lower() == made.email.lower():
                raise RoleChangeRefused(
                    "Another person must decide this request: you made it or it is about you."
                )
            raise PermissionDenied("Only an administrator decides a request for the administrator role.")
        details = {
            "actor": actor,
            "request": request,
            "email": made.email,
            "request_id": made.pk,
            "requested_by": made.requested_by.email,
        }
        made.decided_by, made.decided_at = actor, timezone.now()
        if not approve:
            made.status = RoleRequest.Status.WITHDRAWN if withdrawing else RoleRequest.Status.REFUSED
            made.save(update_fields=["status", "decided_by", "decided_at"])
            summary = f"the request for {made.email} to become {made.role}"
            if withdrawing:
                audit_record(
                    event_type=AuditEventType.ROLE_REQUEST_REFUSED,
                    summary=f"{actor.email} withdrew {summary}",
                    withdrawn=True,
                    **details,
                )
            else:
                audit_record(
                    event_type=AuditEventType.ROLE_REQUEST_REFUSED,
                    summary=f"{actor.email} refused {summary}",
                    **details,
                )
            return made
        if made.user_id is None:
            if User.objects.filter(email__iexact=made.email).exists():
                raise RoleChangeRefused(f"{made.email} has a login already; make a new request for it.")
            # No usable password: the new staff member sets one with "Forgot your password?".
            user = User.objects.create_user(
                email=made.email, password=None, role=made.role, is_staff=made.role == "administrator"
            )
            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
            old = ""
        else:
            user = User.objects.select_for_update().get(pk=made.user_id)
            if hasattr(user, "participant"):
                raise RoleChangeRefused(
                    f"{user.email} is linked to a participant record; plan staff cannot hold their own plan record."
                )
            old = user.role
            user.role = made.role
            user.save(update_fields=["role"])
        made.user = user
        made.status = RoleRequest.Status.APPROVED
        made.save(update_fields=["user", "status", "decided_by", "decided_at"])
        audit_record(
            event_type=AuditEventType.ROLE_REQUEST_APPROVED,
            summary=f"{actor.email} approved {made.requested_by.email}'s request: {user.email} role "
            f"{old or 'new login'} → {made.role}",
            user_id=user.pk,
            old=old,
            new=made.role,
            **details,
        )
    return made


def user_set_active(*, actor, user, active: bool, request) -> object:
    """Deactivate (or reactivate) a login. Users are never deleted once they have acted: their audit
    events keep pointing at them."""
    from accounts.models import User

    _require_mfa_administrator(actor, request)
    if user.pk == actor.pk:
        raise RoleChangeRefused("You cannot deactivate your own login.")
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.is_active == active:
            return user
        user.is_active = active
        user.save(update_fields=["is_active"])
        details = {"actor": actor, "request": request, "user_id": user.pk, "email": user.email}
        if active:
            audit_record(
                event_type=AuditEventType.ACCOUNT_ACTIVATED,
                summary=f"{user.email} reactivated",
                old=False,
                new=True,
                **details,
            )
        else:
            audit_record(
                event_type=AuditEventType.ACCOUNT_DEACTIVATED,
                summary=f"{user.email} deactivated",
                old=True,
                new=False,
                **details,
            )
    return user
