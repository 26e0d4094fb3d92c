"""The Directors group and the federation officials' group, on every install (not only
the demo's): the Directors group gets the permissions the apps declare
(``AppConfig.director_permissions``, games.people.services.grants).  Later changes
reach it at the next ``migrate`` (games.people.services.grants.sync_groups, on ``post_migrate``)."""

from django.apps.registry import Apps
from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def make_groups(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from games.people.services.grants import build_groups

    # The permissions are made after migrate (post_migrate); a fresh database has none yet.
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, verbosity=0, apps=apps)
        config.models_module = None
    build_groups(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_tournament_handicap_komi"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("ops", "0004_job_one_pending_per_scope"),
        ("ratings", "0008_history_reset_from"),
        ("referee", "0004_auditentry_to_ops"),
    ]

    operations = [migrations.RunPython(make_groups, migrations.RunPython.noop)]
