"""Each game's random key for the result slips' report codes (games.services.codes).

Added empty, filled row by row (a callable default in AddField would give every
existing game the same key), then given its default for new games.
"""

import secrets

from django.db import migrations, models

import games.models


def fill_keys(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    batch = []
    for game in Game.objects.filter(report_key="").only("pk").iterator(chunk_size=1000):
        game.report_key = secrets.token_hex(16)
        batch.append(game)
        if len(batch) >= 1000:
            Game.objects.bulk_update(batch, ["report_key"])
            batch = []
    if batch:
        Game.objects.bulk_update(batch, ["report_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_people_across_events"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="report_key",
            field=models.CharField(default="", editable=False, max_length=32),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="report_key",
            field=models.CharField(
                default=games.models.report_key_new, editable=False, max_length=32
            ),
        ),
    ]
