"""Each command id is stored with the digest of what the command asked, to
tell a retry from another command sent under the same id (none for older
rows: they keep the old behaviour)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("poker", "0009_event_schema"),
    ]

    operations = [
        migrations.AddField(
            model_name="command",
            name="digest",
            field=models.CharField(blank=True, max_length=64, null=True),
        ),
    ]
