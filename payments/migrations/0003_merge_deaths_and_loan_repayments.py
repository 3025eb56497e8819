"""Joins two migrations written side by side: deaths of payees in pay (issue 22, item 6) and loan
repayments with the ESOP diversification transfers (issue 22, items 3 and 5)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("payments", "0002_loan_repayments_and_diversification_transfers"),
        ("payments", "0002_payee_deaths"),
    ]

    operations = []
