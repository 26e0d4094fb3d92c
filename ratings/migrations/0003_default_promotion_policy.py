"""A fresh install's promotion policy: one active federation-wide default (``DEFAULT_POLICY``).

Its parameters are copied as they were when this was written, so the migration
never changes with the code (docs/promotions.md §3).  A database that already
has an active default gets nothing.
"""

from django.db import migrations

DEFAULT_PARAMS = {
    "version": 1,
    "bands": {
        band: {
            "combine": "any",
            "criteria": [{"type": "rating_threshold", "margin": 0, "events": 1, "games": None}],
        }
        for band in ("kyu", "low_dan", "high_dan")
    },
    "high_dan_from": "5d",
    "max_grades_per_event": 2,
    "revoke_dan": False,
    "kyu_demotion": None,
}


def create_default(apps, schema_editor):  # type: ignore[no-untyped-def]
    Policy = apps.get_model("ratings", "PromotionPolicy")
    if Policy.objects.filter(tournament__isnull=True, active=True).exists():
        return
    Policy.objects.create(name="Federation default", params=DEFAULT_PARAMS, active=True)


def remove_default(apps, schema_editor):  # type: ignore[no-untyped-def]
    Policy = apps.get_model("ratings", "PromotionPolicy")
    Policy.objects.filter(tournament__isnull=True, name="Federation default").delete()


class Migration(migrations.Migration):
    dependencies = [("ratings", "0002_promotions")]

    operations = [migrations.RunPython(create_default, remove_default)]
