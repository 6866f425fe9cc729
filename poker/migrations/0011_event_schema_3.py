"""New events are written as schema 3 (issue 13: hands commit to each card
position); rows of schema 2 read through ``poker.upcast.HAND_V2``."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("poker", "0010_command_digest")]

    operations = [
        migrations.AlterField(
            model_name="event",
            name="schema",
            field=models.PositiveSmallIntegerField(default=3),
        ),
    ]
