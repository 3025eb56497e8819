"""Joins two migrations written side by side: the loan offset transaction kind (issue 27) and the plan's
identification for documents (issue 25)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("benefits", "0014_loan_offset_transaction"),
        ("benefits", "0014_plan_contact"),
    ]

    operations = []
