"""Joins the regulatory table versions (issue 24), written beside the loan offset and the plan
identification migrations."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("benefits", "0014_regulatory_table_versions"),
        ("benefits", "0015_merge_loan_offset_and_plan_contact"),
    ]

    operations = []
