"""The lobby's average pot: running totals of the finished hands on each
table row, filled in here from the hand rows already stored."""

from typing import Any

from django.db import migrations, models
from django.db.models import Count, Sum


def backfill(apps: Any, schema_editor: Any) -> None:
    """Each table's finished hands and their pots, as ``rebuild`` counts
    them, in the database being migrated (not always ``default``)."""
    using = schema_editor.connection.alias
    Table = apps.get_model("poker", "Table")
    Hand = apps.get_model("poker", "Hand")
    ended = Hand.objects.using(using).filter(ended_at__isnull=False).values("table")
    for row in ended.annotate(count=Count("pk"), pots=Sum("pot")):
        Table.objects.using(using).filter(pk=row["table"]).update(
            hands_ended=row["count"], pots_total=row["pots"] or 0
        )


class Migration(migrations.Migration):
    dependencies = [
        ("poker", "0016_casino_live"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="hands_ended",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="table",
            name="pots_total",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
