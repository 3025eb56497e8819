"""Authentication events are audit events (OWASP ASVS V7.2): Django's and allauth's signals, each
recorded with the time, the account and the client's address.

A failed sign-in names the account only when one exists (``user_id`` and ``email``); an address with no
account is not copied into the log (a password typed into the e-mail box must not end up there).
Identity linking is audited by its service (``accounts.services.participant_link_identity``).
"""

from __future__ import annotations

from allauth.account import signals as account_signals
from allauth.mfa import signals as mfa_signals
from django.contrib.auth import signals as auth_signals
from django.db import transaction
from django.dispatch import receiver

from benefits.audit import AuditEventType, audit_record

MFA_TYPE_WORDS = {"totp": "authenticator app", "recovery_codes": "recovery codes", "webauthn": "security key"}


def _record(
    user, summary: str, request, *, event_type: AuditEventType = AuditEventType.AUTH_SIGNED_IN, **extra
) -> None:
    email = getattr(user, "email", "") if user is not None else ""
    with transaction.atomic():
        audit_record(
            event_type=event_type,
            summary=summary,
            actor=user,
            request=request,
            **({"user_id": user.pk, "email": email} if user is not None else {}),
            **extra,
        )


@receiver(auth_signals.user_logged_in, dispatch_uid="audit-signed-in")
def _signed_in(sender, request, user, **kwargs):
    _record(user, f"{user.email} signed in", request, event_type=AuditEventType.AUTH_SIGNED_IN)


@receiver(auth_signals.user_logged_out, dispatch_uid="audit-signed-out")
def _signed_out(sender, request, user, **kwargs):
    if user is not None:
        _record(user, f"{user.email} signed out", request, event_type=AuditEventType.AUTH_SIGNED_OUT)


@receiver(auth_signals.user_login_failed, dispatch_uid="audit-sign-in-failed")
def _sign_in_failed(sender, credentials, request=None, **kwargs):
    from accounts.models import User

    typed = str(credentials.get("email") or credentials.get("username") or "").strip()
    account = User.objects.filter(email__iexact=typed).first() if typed and len(typed) <= 254 else None
    with transaction.atomic():
        if account is None:
            audit_record(
                event_type=AuditEventType.AUTH_SIGN_IN_FAILED,
                summary="Sign-in failed for an address with no account",
                request=request,
                account_exists=False,
            )
        else:
            # Not ``actor``: whoever typed the password is not known to be the account's owner.
            audit_record(
                event_type=AuditEventType.AUTH_SIGN_IN_FAILED,
                summary=f"Sign-in failed for {account.email}",
                request=request,
                account_exists=True,
                user_id=account.pk,
                email=account.email,
            )


@receiver(account_signals.password_changed, dispatch_uid="audit-password-changed")
def _password_changed(sender, request, user, **kwargs):
    _record(
        user, f"{user.email} changed their password", request, event_type=AuditEventType.AUTH_PASSWORD_CHANGED
    )


@receiver(account_signals.password_set, dispatch_uid="audit-password-set")
def _password_set(sender, request, user, **kwargs):
    _record(user, f"{user.email} set a password", request, event_type=AuditEventType.AUTH_PASSWORD_CHANGED)


@receiver(account_signals.password_reset, dispatch_uid="audit-password-reset")
def _password_reset(sender, request, user, **kwargs):
    _record(
        user,
        f"{user.email} reset their password by e-mail",
        request,
        event_type=AuditEventType.AUTH_PASSWORD_RESET,
    )


@receiver(account_signals.email_changed, dispatch_uid="audit-email-changed")
def _email_changed(sender, request, user, from_email_address=None, to_email_address=None, **kwargs):
    old = getattr(from_email_address, "email", "") or ""
    new = getattr(to_email_address, "email", "") or ""
    _record(
        user,
        f"Sign-in e-mail changed from {old} to {new}",
        request,
        event_type=AuditEventType.AUTH_EMAIL_CHANGED,
        old=old,
        new=new,
    )


@receiver(account_signals.email_added, dispatch_uid="audit-email-added")
def _email_added(sender, request, user, email_address, **kwargs):
    _record(
        user,
        f"{user.email} added {email_address.email}",
        request,
        event_type=AuditEventType.AUTH_EMAIL_ADDRESSES,
        new=email_address.email,
    )


@receiver(account_signals.email_removed, dispatch_uid="audit-email-removed")
def _email_removed(sender, request, user, email_address, **kwargs):
    _record(
        user,
        f"{user.email} removed {email_address.email}",
        request,
        event_type=AuditEventType.AUTH_EMAIL_ADDRESSES,
        old=email_address.email,
    )


@receiver(account_signals.email_confirmed, dispatch_uid="audit-email-confirmed")
def _email_confirmed(sender, request, email_address, **kwargs):
    user = email_address.user
    _record(user, f"{email_address.email} confirmed", request, event_type=AuditEventType.AUTH_EMAIL_ADDRESSES)


@receiver(account_signals.user_signed_up, dispatch_uid="audit-signed-up")
def _signed_up(sender, request, user, **kwargs):
    _record(user, f"{user.email} signed up", request, event_type=AuditEventType.AUTH_SIGNED_UP)


def _mfa_words(authenticator) -> str:
    return MFA_TYPE_WORDS.get(authenticator.type, "two-factor method")


@receiver(mfa_signals.authenticator_added, dispatch_uid="audit-mfa-added")
def _mfa_added(sender, request, user, authenticator, **kwargs):
    _record(
        user,
        f"{user.email} set up {_mfa_words(authenticator)}",
        request,
        event_type=AuditEventType.AUTH_MFA_ENROLLED,
        method=authenticator.type,
    )


@receiver(mfa_signals.authenticator_removed, dispatch_uid="audit-mfa-removed")
def _mfa_removed(sender, request, user, authenticator, **kwargs):
    _record(
        user,
        f"{user.email} removed {_mfa_words(authenticator)}",
        request,
        event_type=AuditEventType.AUTH_MFA_REMOVED,
        method=authenticator.type,
    )


@receiver(mfa_signals.authenticator_reset, dispatch_uid="audit-mfa-reset")
def _mfa_reset(sender, request, user, authenticator, **kwargs):
    _record(
        user,
        f"{user.email} generated new recovery codes",
        request,
        event_type=AuditEventType.AUTH_MFA_RECOVERY_CODES_RESET,
        method=authenticator.type,
    )


@receiver(mfa_signals.authenticator_used, dispatch_uid="audit-mfa-used")
def _mfa_used(sender, request, user, authenticator, **kwargs):
    # A TOTP code at sign-in is part of the sign-in event; a recovery code is worth its own event.
    if authenticator.type == "recovery_codes":
        _record(
            user,
            f"{user.email} used a recovery code",
            request,
            event_type=AuditEventType.AUTH_RECOVERY_CODE_USED,
            method=authenticator.type,
        )


@receiver(mfa_signals.authentication_failed, dispatch_uid="audit-mfa-failed")
def _mfa_failed(sender, request, user, authenticator=None, **kwargs):
    # Recorded without ``actor`` for the same reason as a failed password.
    with transaction.atomic():
        audit_record(
            event_type=AuditEventType.AUTH_MFA_FAILED,
            summary=f"Two-factor code refused for {user.email}",
            request=request,
            user_id=user.pk,
            email=user.email,
        )
