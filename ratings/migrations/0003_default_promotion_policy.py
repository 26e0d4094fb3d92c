"""A fresh install's promotion policy: one active federation-wide default.

The parameters are ``ratings.promotion.DEFAULT_POLICY.to_dict()`` as it was
when this migration was written, copied here so the migration stays the same
whatever the code does later: the grade the GoR reaches at the end of one
rated event, no margin, at most two grades per event, dan never revoked, no
automatic demotion.  A director changes it in the admin.  If a database
already has an active default (or any policy), nothing is added.
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
