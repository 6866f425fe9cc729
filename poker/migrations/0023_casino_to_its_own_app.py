# The casino's models belong to the casino app (casino 0001_initial): gone
# from the poker app's state only; their tables stay as they are.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('poker', '0022_event_store_to_kernel'),
        ('casino', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='CasinoBox'),
                migrations.DeleteModel(name='CasinoRound'),
                migrations.DeleteModel(name='CasinoMath'),
                migrations.DeleteModel(name='CasinoTable'),
            ],
            database_operations=[],
        ),
    ]
