"""Each entry keeps the name its event gives the player, family and given apart: the
event's exports write it (docs/tournaments.md, "Entries").  A player keeps the federation
ids a file gave him that another player holds (docs/games.md, "People").

An entry whose file spelt the player as goref did had no spelling stored: it takes the
player's name.  An older spelling was kept whole ("family given"); it is split where the
player's given or family name says, else at its first space.
"""

from django.db import migrations, models


def split(spelt: str, family: str, given: str) -> tuple[str, str]:
    low = spelt.casefold()
    if given and low.endswith(" " + given.casefold()):
        return spelt[: -len(given) - 1].strip(), spelt[-len(given) :]
    if family and low.startswith(family.casefold() + " "):
        return spelt[: len(family)], spelt[len(family) + 1 :].strip()
    head, _, tail = spelt.partition(" ")
    return head, tail


def fill_names(apps, schema_editor):
    Entry = apps.get_model("games", "TournamentEntry")
    batch = []
    rows = Entry.objects.select_related("player").only(
        "pk", "file_name", "player__family_name", "player__given_name"
    )
    for entry in rows.iterator(chunk_size=1000):
        p = entry.player
        if entry.file_name:
            family, given = split(entry.file_name, p.family_name, p.given_name)
        else:
            family, given = p.family_name, p.given_name
        entry.family_name, entry.given_name = family[:80], given[:80]
        batch.append(entry)
        if len(batch) >= 1000:
            Entry.objects.bulk_update(batch, ["family_name", "given_name"])
            batch = []
    Entry.objects.bulk_update(batch, ["family_name", "given_name"])


class Migration(migrations.Migration):
    dependencies = [("games", "0012_shapes_of_event")]

    operations = [
        migrations.AddField(
            model_name="tournamententry",
            name="family_name",
            field=models.CharField(blank=True, max_length=80),
        ),
        migrations.AddField(
            model_name="tournamententry",
            name="given_name",
            field=models.CharField(blank=True, max_length=80),
        ),
        migrations.RunPython(fill_names, migrations.RunPython.noop),
        migrations.RemoveField(model_name="tournamententry", name="file_name"),
        migrations.AddField(
            model_name="player",
            name="claimed_ids",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
    ]
