"""Joins two migrations written side by side: the notice batch's ``selected_at`` (issue 31) and the
provisional explanations and their final re-explanation (issue 25)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("elections", "0010_notice_batch_selected_at"),
        ("elections", "0010_notice_provisional_and_final_explanation"),
    ]

    operations = []
