from django.db import migrations


class Migration(migrations.Migration):
    """Joins two changes made side by side: the append-only audit table and the unique imported rows."""

    dependencies = [
        ("benefits", "0012_audit_append_only"),
        ("benefits", "0012_transaction_unique_imported_key"),
    ]

    operations = []
