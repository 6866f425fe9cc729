"""The event store's rows (``Event``, ``Command``) as the kernel's models.

State only: their tables stay as poker's migrations made them
(``poker_event``, ``poker_command``, with poker 0002's append-only
trigger); poker's ``0022_event_store_to_kernel`` drops them from poker's
state.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models



class Migration(migrations.Migration):

    dependencies = [
        ("kernel", "0002_clock_wake_trigger"),
        ("poker", "0018_fewer_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    state_operations = [
        migrations.CreateModel(
            name="Command",
            fields=[
                ("id", models.UUIDField(primary_key=True, serialize=False)),
                ("stream", models.CharField(max_length=40)),
                ("answer", models.JSONField()),
                ("digest", models.CharField(blank=True, max_length=64, null=True)),
                ("recorded_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"db_table": "poker_command"},
        ),
        migrations.CreateModel(
            name="Event",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("stream", models.CharField(max_length=40)),
                ("version", models.PositiveIntegerField()),
                ("type", models.CharField(max_length=40)),
                ("data", models.JSONField()),
                ("schema", models.PositiveSmallIntegerField(default=3)),
                ("recorded_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("feed", models.BigIntegerField(blank=True, null=True)),
                ("position", models.PositiveBigIntegerField(blank=True, null=True)),
                (
                    "command",
                    models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="events",
                        to="kernel.command",
                    ),
                ),
            ],
            options={
                "db_table": "poker_event",
                "ordering": ["stream", "version"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("stream", "version"), name="event_stream_version"
                    ),
                    models.UniqueConstraint(
                        fields=("feed", "position"), name="event_feed_position"
                    ),
                ],
            },
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations, database_operations=[])
    ]
