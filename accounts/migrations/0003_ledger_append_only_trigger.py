"""On PostgreSQL, the database itself refuses to change or remove a
transfer or an entry of the ledger.

The models and querysets refuse too, but only this stops raw SQL and other
clients.  TRUNCATE is not a row operation and stays possible for test
teardown.  SQLite gets no trigger: its test teardown deletes rows.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

TABLES = ("accounts_transfer", "accounts_entry")

FUNCTION = """
CREATE OR REPLACE FUNCTION accounts_ledger_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '%% is append-only: %% refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
"""

TRIGGER = """
CREATE TRIGGER {table}_append_only
    BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION accounts_ledger_append_only();
"""


def create(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION)
        for table in TABLES:
            schema_editor.execute(TRIGGER.format(table=table))


def drop(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for table in TABLES:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};")
        schema_editor.execute("DROP FUNCTION IF EXISTS accounts_ledger_append_only();")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_ledger")]

    operations = [migrations.RunPython(create, drop)]
