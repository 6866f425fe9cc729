# The casino tables' feed position (their live stream's order).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('poker', '0015_hand_ended_index'),
    ]

    operations = [
        migrations.AddField(
            model_name='casinoround',
            name='players',
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name='casinotable',
            name='position',
            field=models.PositiveBigIntegerField(default=0),
        ),
    ]
