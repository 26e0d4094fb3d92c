# The audit trail moves from the referee app to ops: the model's state only.
# The table keeps its name (referee_auditentry) and its rows; the content
# type is renamed so permissions granted on it still apply.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def rename_content_type(apps, schema_editor, old="referee", new="ops"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label=new, model="auditentry").exists():
        ContentType.objects.filter(app_label=old, model="auditentry").update(app_label=new)


def restore_content_type(apps, schema_editor):
    rename_content_type(apps, schema_editor, old="ops", new="referee")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("ops", "0001_initial"),
        ("referee", "0003_ruling_acceptance"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("action", models.CharField(db_index=True, max_length=60)),
                        ("object_type", models.CharField(max_length=60)),
                        ("object_id", models.CharField(max_length=40)),
                        ("object_repr", models.CharField(blank=True, max_length=200)),
                        ("old_value", models.JSONField(blank=True, null=True)),
                        ("new_value", models.JSONField(blank=True, null=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        ("actor", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "verbose_name_plural": "audit entries",
                        "db_table": "referee_auditentry",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [models.Index(fields=["object_type", "object_id"], name="referee_aud_object__e803df_idx")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(rename_content_type, restore_content_type),
    ]
