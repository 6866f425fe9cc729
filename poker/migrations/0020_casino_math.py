# A configuration's house-edge figures against the best response, read by the
# guard that opens casino tables.

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('poker', '0019_casino_boxes_plural'),
    ]

    operations = [
        migrations.CreateModel(
            name='CasinoMath',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(max_length=64, unique=True)),
                ('jokers', models.PositiveSmallIntegerField()),
                ('pay_table', models.JSONField()),
                ('qualifier', models.PositiveIntegerField()),
                ('not_qualified', models.CharField(max_length=16)),
                ('model_edge', models.FloatField()),
                ('simulated_edge', models.FloatField()),
                ('simulated_low', models.FloatField()),
                ('simulated_high', models.FloatField()),
                ('rounds', models.PositiveBigIntegerField()),
                ('dealer_samples', models.PositiveIntegerField()),
                ('seed', models.BigIntegerField()),
                ('largest_payout', models.PositiveIntegerField()),
                ('strategy_card', models.JSONField()),
                ('computed_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                'verbose_name_plural': 'casino math',
                'ordering': ['id'],
            },
        ),
    ]
