"""Every user's username gets its TR39 skeleton, uniquely indexed
(``accounts.names``), so a username confusable with another's (case,
full-width forms, look-alike letters) cannot register.

A user whose username is already confusable with an earlier user's (by id)
keeps it, with no skeleton (null: the index ignores it).
"""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from accounts import names


def key_everyone(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    User = apps.get_model("accounts", "User")
    db = schema_editor.connection.alias
    used: set[str] = set()
    for user in User.objects.using(db).order_by("id").only("id", "username"):
        key = names.skeleton(user.username)
        if key in used:
            continue
        used.add(key)
        User.objects.using(db).filter(pk=user.pk).update(username_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0009_rake_account"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=600, null=True),
        ),
        migrations.RunPython(key_everyone, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=600, null=True, unique=True),
        ),
    ]
