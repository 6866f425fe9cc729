"""Events carry the schema they were written in: every row stored so far
is schema 1 (class names as types); new rows are written as schema 2."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("poker", "0008_turn_started_at")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="schema",
            field=models.PositiveSmallIntegerField(default=1),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="event",
            name="schema",
            field=models.PositiveSmallIntegerField(default=2),
        ),
    ]
