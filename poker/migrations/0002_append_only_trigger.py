"""On PostgreSQL, the database itself refuses to change or remove an event.

The model and queryset refuse too, but only this stops raw SQL and other
clients.  TRUNCATE is not a row operation and stays possible for test
teardown.  SQLite gets no trigger: its test teardown deletes rows.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

CREATE = """
CREATE OR REPLACE FUNCTION poker_event_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'poker_event is append-only: %% refused', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER poker_event_append_only
    BEFORE UPDATE OR DELETE ON poker_event
    FOR EACH ROW EXECUTE FUNCTION poker_event_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS poker_event_append_only ON poker_event;
DROP FUNCTION IF EXISTS poker_event_append_only();
"""


def create(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("poker", "0001_initial")]

    operations = [migrations.RunPython(create, drop)]
