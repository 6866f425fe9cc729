"""On PostgreSQL, a clock written (set or moved) to come due before every
other clock still to come sends NOTIFY on ``kernel_clock`` in the writing
transaction, so the wakers listening (``kernel.waker``) hear it when that
transaction commits.  A clock due after another one still to come sends
nothing: the wakers wake for that one first and read the index again.
SQLite has no NOTIFY: its wakers poll."""

from typing import Any

from django.db import migrations

CREATE_FUNCTION = """
CREATE FUNCTION kernel_clock_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM kernel_clock
        WHERE due > clock_timestamp() AND due <= NEW.due AND id <> NEW.id
    ) THEN
        PERFORM pg_notify('kernel_clock', '');
    END IF;
    RETURN NULL;
END
$$
"""
CREATE_TRIGGER = (
    "CREATE TRIGGER kernel_clock_wake AFTER INSERT OR UPDATE OF due ON kernel_clock "
    "FOR EACH ROW EXECUTE FUNCTION kernel_clock_wake()"
)
DROP = [
    "DROP TRIGGER IF EXISTS kernel_clock_wake ON kernel_clock",
    "DROP FUNCTION IF EXISTS kernel_clock_wake()",
]


def create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE_FUNCTION)
        schema_editor.execute(CREATE_TRIGGER)


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for statement in DROP:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("kernel", "0001_initial")]

    operations = [migrations.RunPython(create, drop)]
