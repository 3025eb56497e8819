"""What plan staff read or change in the Django admin is audited like the in-app pages."""

from __future__ import annotations

from django.db import transaction

from benefits.audit import AuditEventType, audit_record


def _participant_of(obj):
    from benefits.models import Participant

    if isinstance(obj, Participant):
        return obj
    return getattr(obj, "participant", None)


class ReadOnlyAdminMixin:
    """Shown, never written: no add, change or delete (so no bulk delete action either). Logins change
    on the audited in-app pages; plan data arrives through the data import (old values kept, audited,
    reversible); plan readings on the readings page (issue 26)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class AuditedAdminMixin:
    """Opening a record's page records ``admin.viewed``; saving one records ``admin.changed`` with the
    fields changed (old and new values), in the same transaction as the save."""

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method == "GET":
            obj = self.get_object(request, object_id)
            if obj is not None:
                with transaction.atomic():
                    audit_record(
                        event_type=AuditEventType.ADMIN_VIEWED,
                        summary=f"{request.user.email} opened {obj._meta.verbose_name} {obj.pk} in the Django admin",
                        actor=request.user,
                        participant=_participant_of(obj),
                        request=request,
                        model=obj._meta.label,
                        object_id=str(obj.pk),
                    )
        return super().change_view(request, object_id, form_url, extra_context)

    def save_model(self, request, obj, form, change):
        changes = {}
        if form is not None:  # an added record: every value given, "old" empty
            for name in form.changed_data:
                changes[name] = {
                    "old": str(form.initial.get(name, "")),
                    "new": str(form.cleaned_data.get(name, "")),
                }
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            details = {
                "summary": f"{request.user.email} {'changed' if change else 'added'} {obj._meta.verbose_name} "
                f"{obj.pk} in the Django admin",
                "actor": request.user,
                "participant": _participant_of(obj),
                "request": request,
                "model": obj._meta.label,
                "object_id": str(obj.pk),
                "changes": changes,
            }
            if change:
                audit_record(event_type=AuditEventType.ADMIN_CHANGED, **details)
            else:
                audit_record(event_type=AuditEventType.ADMIN_ADDED, **details)

    def delete_model(self, request, obj):
        raise PermissionError("Records are not deleted in the Django admin.")

    def delete_queryset(self, request, queryset):
        raise PermissionError("Records are not deleted in the Django admin.")

    def save_formset(self, request, form, formset, change):
        with transaction.atomic():
            super().save_formset(request, form, formset, change)
            touched = {
                "added": [str(o.pk) for o in formset.new_objects],
                "changed": [str(o.pk) for o, _fields in formset.changed_objects],
                "deleted": [str(o.pk) for o in formset.deleted_objects],
            }
            if any(touched.values()):
                audit_record(
                    event_type=AuditEventType.ADMIN_CHANGED,
                    summary=f"{request.user.email} changed {formset.model._meta.verbose_name_plural} of "
                    f"{form.instance._meta.verbose_name} {form.instance.pk} in the Django admin",
                    actor=request.user,
                    participant=_participant_of(form.instance),
                    request=request,
                    model=formset.model._meta.label,
                    **touched,
                )
