"""The hand's clock starts when its turn does, not at any event."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("poker", "0007_tournament_tables"),
    ]

    operations = [
        migrations.RenameField(
            model_name="hand",
            old_name="last_event_at",
            new_name="turn_started_at",
        ),
    ]
