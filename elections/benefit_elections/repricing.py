"""Unsigned explanations priced again after a regulatory table is loaded (issue 24).

A §417(a)(3) explanation states the engine's figures for a start date. When an administrator loads
the table those figures rest on (the 2027 §417(e)(3) table, where the 2026 one stood in), every
explanation for a start date the table applies to that no election has been signed on is priced
again; where any figure changed, a new version is issued (its PDF, its delivery, an audit event) and
the participant's unsigned draft moves to it. Elections already signed keep the explanation they
were signed on. ``benefits.imports.tables.table_loaded`` calls ``reprice_after_table_load``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date

from django.db import IntegrityError, transaction
from django.utils import timezone

from benefits.audit import AuditEventType, audit_record
from benefits.delivery.services import delivery_arrange
from benefits.services.documents import document_request
from elections.benefit_elections import explanation
from elections.benefit_elections.models import ElectionDraft, Notice, NoticeKind

logger = logging.getLogger(__name__)

# What an explanation states that a table can change: each form's amounts and relative values, and
# the words on the basis.
_COMPARED = ("forms", "relative_value_basis")


def _figures(content: dict) -> dict:
    return {k: content.get(k) for k in _COMPARED}


def reprice_after_table_load(sender=None, *, applies: Callable[[date], bool], **_kwargs) -> int:
    return reprice_unsigned_explanations(applies)


def reprice_unsigned_explanations(applies: Callable[[date], bool], *, on: date | None = None) -> int:
    """Price again the latest unsigned explanation of each start date ``applies`` to; returns how
    many were issued again (a figure changed)."""
    on = on or timezone.localdate()
    latest: dict[tuple[int, date], Notice] = {}
    notices = (
        Notice.objects.filter(kind=NoticeKind.QJSA_EXPLANATION, asd__gte=on)
        .select_related("membership__participant", "membership__plan", "participant", "plan")
        .order_by("membership_id", "asd", "version")
    )
    for n in notices:
        latest[(n.membership_id, n.asd)] = n
    issued = 0
    for notice in latest.values():
        if not applies(notice.asd) or notice.elections.exists():
            continue
        try:
            if reprice_one(notice, on=on) is not None:
                issued += 1
        except explanation.ExplanationUnavailable as exc:
            logger.warning("explanation %s not priced again: %s", notice.pk, exc)
    return issued


def reprice_one(notice: Notice, *, on: date) -> Notice | None:
    """A new version of ``notice`` if its figures changed; None when they did not."""
    from elections.benefit_elections.presenters import present_content
    from elections.benefit_elections.services import NOTICE_TEMPLATES, _d

    membership = notice.membership
    content = explanation.build(notice.kind, membership, asd=notice.asd, explained_on=on)
    if _figures(content) == _figures(notice.content):
        return None
    participant = membership.participant
    try:
        with transaction.atomic():
            new = Notice.objects.create(
                participant=participant,
                plan=membership.plan,
                membership=membership,
                kind=notice.kind,
                asd=notice.asd,
                version=notice.version + 1,
                content=content,
                engine_version=content.get("engine_version", ""),
                engine_fingerprint=content.get("fingerprint", ""),
                issued_on=on,
                issued_by=None,
            )
            document = document_request(
                kind=notice.kind,
                participant=participant,
                title=f"{NoticeKind(notice.kind).label} — payments from {_d(notice.asd)} (revised)",
                template_name=NOTICE_TEMPLATES[notice.kind],
                payload=present_content(content),
                requested_by=None,
            )
            new.document = document
            delivery = delivery_arrange(document=document, actor=None)
            new.delivery = "portal+email" if delivery.channel == delivery.Channel.EMAIL else "portal+paper"
            new.save(update_fields=["document", "delivery"])
            moved = ElectionDraft.objects.filter(notice=notice).update(notice=new)
            audit_record(
                event_type=AuditEventType.NOTICE_REPRICED,
                summary=(
                    f"Explanation for {participant.participant_number} ({notice.asd}) issued again as version "
                    f"{new.version}: a newly loaded table changed its figures"
                ),
                participant=participant,
                notice_id=new.pk,
                replaces_notice_id=notice.pk,
                asd=notice.asd.isoformat(),
                drafts_moved=moved,
                engine_fingerprint=new.engine_fingerprint,
            )
    except IntegrityError:  # another run issued this version first: nothing more to do
        return None
    return new
