from django.db import migrations


class Migration(migrations.Migration):
    """Joins three changes made side by side: one commencement per benefit, the payment-scheduled claim
    state and the explanation read before signing."""

    dependencies = [
        ("elections", "0008_one_commencement_per_benefit"),
        ("elections", "0008_payment_scheduled_state"),
        ("elections", "0008_election_explanation_read_at"),
    ]

    operations = []
