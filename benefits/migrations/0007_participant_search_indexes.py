import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models

# Name searches are case-insensitive substring matches (Django's ``icontains``: UPPER(col::text) LIKE
# UPPER('%q%')), which a B-tree cannot serve; a trigram GIN index on the same expression can. PostgreSQL
# only (the embedded SQLite demo database is small and scans).
TRIGRAM_INDEXES = (
    ("participant_last_name_trgm", "last_name"),
    ("participant_first_name_trgm", "first_name"),
)


def create_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, column in TRIGRAM_INDEXES:
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS {name} ON benefits_participant USING gin (UPPER("{column}"::text) gin_trgm_ops)'
        )


def drop_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _column in TRIGRAM_INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("benefits", "0006_imports"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(create_trigram_indexes, drop_trigram_indexes),
        migrations.AddIndex(
            model_name="participant",
            index=models.Index(fields=["last_name", "first_name", "id"], name="participant_name_order"),
        ),
        migrations.AddIndex(
            model_name="participant",
            index=models.Index(
                django.db.models.functions.text.Upper("participant_number"), name="participant_number_upper"
            ),
        ),
    ]
