"""The event store's rows (``Event``, ``Command``) leave poker's state for
the kernel's (``kernel`` 0003): state only, their tables and triggers stay."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("poker", "0021_casino_names_translated"),
        ("kernel", "0003_event_store"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Event"),
                migrations.DeleteModel(name="Command"),
            ],
            database_operations=[],
        )
    ]
