"""Less index and page work for each action on PostgreSQL (issue 12).

Every index of a table is written again by each insert and by each update
that is not HOT (heap-only: no indexed column changed and the new row
version fits in its page).  An action appends one or two events and
rewrites its hand and table rows; a deal appends a dozen events and
inserts a hand.  Dropped here, because no query reads them (each is
either never searched or led by the column of a unique index kept):

- ``poker_event.command_id``: nothing looks events up by their command
  (commands are never deleted, so the foreign key's own check on a delete
  never runs either);
- ``poker_hand.table_id`` and ``poker_seat.table_id``: ``hand_table_number``
  and ``seat_table_number`` (table, number) lead with the table and serve
  every lookup and join by table;
- ``*_like`` (``varchar_pattern_ops``) indexes PostgreSQL's backend makes
  beside any indexed ``varchar`` column, for ``LIKE 'x%'``: on the hand id
  and on the table's current hand, which no query matches by prefix.

And the read-model rows updated at every action (table, hand, seat) keep
free room in their pages (``fillfactor``), so that an update finds room for
its new row version in the same page and stays HOT: no index is touched.
A storage parameter applies to pages written from now on.  SQLite: the
``AlterField``s only (it has no like indexes nor fillfactor).
"""

from typing import Any

from django.db import migrations, models

LIKE = [("poker_hand", "id"), ("poker_table", "current_hand_id")]
"""The like indexes dropped: (table, column)."""
FILLFACTOR = {"poker_table": 50, "poker_hand": 70, "poker_seat": 70}
"""Percent of each page filled by inserts; the rest is kept for updates."""


def _like_indexes(schema_editor: Any, table: str, column: str) -> list[str]:
    """The like indexes on ``table``'s ``column``, by name, as PostgreSQL's
    catalog lists them (whatever names Django's backend gave them)."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname FROM pg_indexes"
            " WHERE schemaname = current_schema() AND tablename = %s AND indexdef LIKE %s",
            [table, f"%({column} varchar_pattern_ops)"],
        )
        return [name for (name,) in cursor.fetchall()]


def forwards(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    quote = schema_editor.quote_name
    for table, column in LIKE:
        for name in _like_indexes(schema_editor, table, column):
            schema_editor.execute(f"DROP INDEX IF EXISTS {quote(name)}")
    for table, percent in FILLFACTOR.items():
        schema_editor.execute(f"ALTER TABLE {quote(table)} SET (fillfactor = {percent})")


def backwards(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    quote = schema_editor.quote_name
    for table, column in LIKE:
        name = quote(f"{table}_{column}_like")
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON {quote(table)} ({quote(column)} varchar_pattern_ops)"
        )
    for table in FILLFACTOR:
        schema_editor.execute(f"ALTER TABLE {quote(table)} RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("poker", "0017_table_average_pot"),
    ]

    operations = [
        migrations.AlterField(
            model_name="event",
            name="command",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=models.deletion.PROTECT,
                related_name="events",
                to="poker.command",
            ),
        ),
        migrations.AlterField(
            model_name="hand",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                on_delete=models.deletion.PROTECT,
                related_name="hands",
                to="poker.table",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                on_delete=models.deletion.CASCADE,
                related_name="seat_set",
                to="poker.table",
            ),
        ),
        migrations.RunPython(forwards, backwards),
    ]
