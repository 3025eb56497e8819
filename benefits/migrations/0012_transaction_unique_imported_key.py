"""One imported account movement per natural key (membership, source, date, kind) — issue 30.

Before the constraint, rows an import wrote twice at once (identical amount, shares and memo) are
removed, keeping the first; two rows with the same key but different figures are not guessed at: the
migration stops and names them, for an administrator to resolve."""

from django.db import migrations, models

IMPORTED = ("deferral", "match", "employer", "rollover", "loan_issued", "loan_repayment")


def drop_doubled_imports(apps, schema_editor):
    from django.db.models import Count, Min

    AccountTransaction = apps.get_model("benefits", "AccountTransaction")
    key = ("membership_id", "source", "date", "kind")
    doubled = (
        AccountTransaction.objects.filter(kind__in=IMPORTED)
        .values(*key)
        .annotate(n=Count("pk"), first=Min("pk"))
        .filter(n__gt=1)
    )
    conflicts = []
    for group in doubled:
        rows = AccountTransaction.objects.filter(**{k: group[k] for k in key})
        if len(set(rows.values_list("amount", "shares", "memo"))) > 1:
            conflicts.append(group)
            continue
        rows.exclude(pk=group["first"]).delete()
    if conflicts:
        listed = "; ".join(
            f"membership {g['membership_id']} {g['source']} {g['date']} {g['kind']} ({g['n']} rows)"
            for g in conflicts[:20]
        )
        raise RuntimeError(
            "Account movements with the same membership, source, date and kind but different figures: "
            f"keep one of each and migrate again: {listed}"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("benefits", "0011_job_heartbeat"),
    ]

    operations = [
        migrations.RunPython(drop_doubled_imports, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="accounttransaction",
            constraint=models.UniqueConstraint(
                condition=models.Q(("kind__in", IMPORTED)),
                fields=("membership", "source", "date", "kind"),
                name="transaction_unique_imported_key",
            ),
        ),
    ]
