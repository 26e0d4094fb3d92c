"""Every player of an existing game becomes an entry of its tournament; a tournament
with games is started, and one whose games are all locked is closed (until now such a
tournament counted as complete for the ratings)."""

from django.db import migrations
from django.db.models import Max
from django.utils import timezone

LOCKED = ("confirmed", "final")


def forwards(apps, schema_editor):
    Tournament = apps.get_model("games", "Tournament")
    Game = apps.get_model("games", "Game")
    Player = apps.get_model("games", "Player")
    TournamentEntry = apps.get_model("games", "TournamentEntry")
    now = timezone.now()
    for tournament in Tournament.objects.all().iterator():
        games = Game.objects.filter(tournament=tournament)
        ids = set(games.values_list("black_id", flat=True)) | set(
            games.values_list("white_id", flat=True)
        )
        if not ids:
            continue
        players = Player.objects.filter(pk__in=ids).select_related("club")
        TournamentEntry.objects.bulk_create(
            [
                TournamentEntry(
                    tournament=tournament,
                    player=p,
                    rank=p.declared_rank,
                    club=p.club.name if p.club is not None else "",
                    country=p.country,
                )
                for p in players
            ],
            ignore_conflicts=True,
        )
        last = tournament.rounds.aggregate(n=Max("number"))["n"] or 0
        fields = {"started_at": tournament.created_at or now}
        if last > tournament.number_of_rounds:
            fields["number_of_rounds"] = last
        if not games.exclude(state__in=LOCKED).exists():
            fields["closed_at"] = now
        Tournament.objects.filter(pk=tournament.pk).update(**fields)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_tournament_entries_settings")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
