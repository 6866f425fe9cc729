# The casino's models, held by the poker app until poker's
# 0023_casino_to_its_own_app: state only.  Their tables were made by
# poker's migrations and keep their names (db_table), so nothing is copied;
# a database made from scratch gets them from those migrations too.  The
# content types (and so the permissions and admin log entries) of the
# poker app's casino models become the casino app's.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

MODELS = ("casinotable", "casinobox", "casinoround", "casinomath")


def content_types_to_casino(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    rows = content_type.objects.db_manager(schema_editor.connection.alias)
    if not rows.filter(app_label="casino", model__in=MODELS).exists():
        rows.filter(app_label="poker", model__in=MODELS).update(app_label="casino")


def content_types_to_poker(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    rows = content_type.objects.db_manager(schema_editor.connection.alias)
    if not rows.filter(app_label="poker", model__in=MODELS).exists():
        rows.filter(app_label="casino", model__in=MODELS).update(app_label="poker")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('poker', '0021_casino_names_translated'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='CasinoTable',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=64)),
                        ('jokers', models.PositiveSmallIntegerField()),
                        ('pay_table', models.JSONField()),
                        ('min_bet', models.PositiveBigIntegerField()),
                        ('max_bet', models.PositiveBigIntegerField()),
                        ('boxes', models.PositiveSmallIntegerField()),
                        ('bet_seconds', models.PositiveSmallIntegerField()),
                        ('decision_seconds', models.PositiveSmallIntegerField()),
                        ('status', models.CharField(choices=[('open', 'Open'), ('closing', 'Closing'), ('closed', 'Closed')], default='open', max_length=8)),
                        ('version', models.PositiveIntegerField(default=0)),
                        ('position', models.PositiveBigIntegerField(default=0)),
                        ('round_number', models.PositiveIntegerField(default=0)),
                        ('round_running', models.BooleanField(default=False)),
                        ('bet_until', models.DateTimeField(blank=True, null=True)),
                        ('exposure', models.PositiveBigIntegerField(default=0)),
                        ('players_seated', models.PositiveSmallIntegerField(default=0)),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                    ],
                    options={
                        'verbose_name': 'casino table',
                        'verbose_name_plural': 'casino tables',
                        'db_table': 'poker_casinotable',
                        'ordering': ['id'],
                    },
                ),
                migrations.CreateModel(
                    name='CasinoRound',
                    fields=[
                        ('id', models.CharField(max_length=24, primary_key=True, serialize=False)),
                        ('number', models.PositiveIntegerField()),
                        ('boxes', models.JSONField()),
                        ('players', models.JSONField(default=list)),
                        ('version', models.PositiveIntegerField(default=0)),
                        ('phase', models.CharField(max_length=16)),
                        ('to_act', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('started_at', models.DateTimeField()),
                        ('turn_started_at', models.DateTimeField(blank=True, null=True)),
                        ('ended_at', models.DateTimeField(blank=True, null=True)),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rounds', to='casino.casinotable')),
                    ],
                    options={
                        'verbose_name': 'casino round',
                        'verbose_name_plural': 'casino rounds',
                        'db_table': 'poker_casinoround',
                        'ordering': ['table', 'number'],
                        'constraints': [models.UniqueConstraint(fields=('table', 'number'), name='casino_round_table_number')],
                    },
                ),
                migrations.CreateModel(
                    name='CasinoBox',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField()),
                        ('bet', models.PositiveBigIntegerField(default=0)),
                        ('held', models.PositiveBigIntegerField(default=0)),
                        ('sitting_out', models.BooleanField(default=False)),
                        ('leaving', models.BooleanField(default=False)),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, to=settings.AUTH_USER_MODEL)),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='box_set', to='casino.casinotable')),
                    ],
                    options={
                        'verbose_name': 'casino box',
                        'verbose_name_plural': 'casino boxes',
                        'db_table': 'poker_casinobox',
                        'ordering': ['table', 'number'],
                        'constraints': [models.UniqueConstraint(fields=('table', 'number'), name='casino_box_table_number'), models.UniqueConstraint(fields=('table', 'player'), name='casino_box_table_player')],
                    },
                ),
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
                        'verbose_name': 'casino math',
                        'verbose_name_plural': 'casino math',
                        'db_table': 'poker_casinomath',
                        'ordering': ['id'],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_to_casino, content_types_to_poker),
    ]
