"""The hands of a period by their end: the reports' rake paid (``reports.rake``)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("poker", "0014_table_rake"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="hand",
            index=models.Index(fields=["ended_at"], name="hand_ended"),
        ),
    ]
