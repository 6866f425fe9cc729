"""Every user gets a screen name and its TR39 skeleton, uniquely indexed
(``accounts.names``).

Existing names are kept when they pass today's checks and are not
confusable with an earlier user's (by id); any other user gets one derived
from his username, as a new user would.
"""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from accounts import names
from accounts.errors import BadScreenName, ScreenNameReserved


def name_everyone(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    User = apps.get_model("accounts", "User")
    db = schema_editor.connection.alias
    used: set[str] = set()
    for user in User.objects.using(db).order_by("id").only("id", "username", "screen_name"):
        try:
            name, key = names.screen_name_check(user.screen_name) if user.screen_name else ("", "")
        except (BadScreenName, ScreenNameReserved):
            name, key = "", ""
        if not name or key in used:
            name = names.screen_name_free(user.username, taken=used.__contains__)
            key = names.skeleton(name)
        used.add(key)
        User.objects.using(db).filter(pk=user.pk).update(screen_name=name, screen_name_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_ticket_refund"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="user", name="user_screen_name_unique"),
        migrations.AddField(
            model_name="user",
            name="screen_name_key",
            field=models.CharField(editable=False, max_length=200, null=True),
        ),
        migrations.RunPython(name_everyone, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="screen_name_key",
            field=models.CharField(editable=False, max_length=200, unique=True),
        ),
        migrations.AlterField(
            model_name="user",
            name="screen_name",
            field=models.CharField(max_length=30),
        ),
    ]
