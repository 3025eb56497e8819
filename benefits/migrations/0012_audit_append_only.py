"""The audit table is append-only in PostgreSQL itself (issue 26): a trigger refuses every UPDATE and
DELETE, whatever the door (the application, the Django admin, a shell, raw SQL). Nothing in the code
updates an audit row: its foreign keys are PROTECT, so deleting a user or a participant who appears in
the log is refused rather than rewriting the log. TRUNCATE (the test runner's flush) is not a row
operation and stays possible for the database owner."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION benefits_auditevent_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'audit events are append-only: % refused on benefits_auditevent', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER benefits_auditevent_append_only
    BEFORE UPDATE OR DELETE ON benefits_auditevent
    FOR EACH ROW EXECUTE FUNCTION benefits_auditevent_refuse_change();
"""

# The embedded demo database (SQLite) gets the same rule with SQLite's own triggers.
SQLITE_FORWARD = [
    """CREATE TRIGGER benefits_auditevent_no_update BEFORE UPDATE ON benefits_auditevent
    BEGIN SELECT RAISE(ABORT, 'audit events are append-only: UPDATE refused on benefits_auditevent'); END""",
    """CREATE TRIGGER benefits_auditevent_no_delete BEFORE DELETE ON benefits_auditevent
    BEGIN SELECT RAISE(ABORT, 'audit events are append-only: DELETE refused on benefits_auditevent'); END""",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS benefits_auditevent_no_update",
    "DROP TRIGGER IF EXISTS benefits_auditevent_no_delete",
]

BACKWARD = """
DROP TRIGGER IF EXISTS benefits_auditevent_append_only ON benefits_auditevent;
DROP FUNCTION IF EXISTS benefits_auditevent_refuse_change();
"""


def _run(schema_editor, postgresql: str, sqlite: list[str]) -> None:
    vendor = schema_editor.connection.vendor
    for statement in [postgresql] if vendor == "postgresql" else sqlite if vendor == "sqlite" else []:
        schema_editor.execute(
            statement, params=None
        )  # params=None: the "%" in the function body is not a parameter


def forward(apps, schema_editor):
    _run(schema_editor, FORWARD, SQLITE_FORWARD)


def backward(apps, schema_editor):
    _run(schema_editor, BACKWARD, SQLITE_BACKWARD)


class Migration(migrations.Migration):
    dependencies = [
        ("benefits", "0011_job_heartbeat"),
    ]

    operations = [migrations.RunPython(forward, backward)]
