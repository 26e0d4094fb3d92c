"""What the tournament API reads and answers: tournaments with their settings, entries,
standings and files."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import RULES_CHOICES, Player, Presence, Tournament, TournamentEntry
from games.tournament import selectors as day_selectors
from games.tournament.api.fields import (
    SETTINGS_OUT_FIELDS,
    SettingsOutMixin,
    SettingsWriteSerializer,
)
from games.tournament.services.tournaments import TOURNAMENT_FIELDS
from ratings.ranks import Rank


class TournamentSerializer(SettingsOutMixin, serializers.ModelSerializer[Tournament]):
    class Meta:
        model = Tournament
        # short_name and director_name: as an imported file gave them.
        fields = [
            "id",
            *TOURNAMENT_FIELDS,
            "short_name",
            "director_name",
            *SETTINGS_OUT_FIELDS,
        ]
        read_only_fields = fields


class TournamentWriteSerializer(SettingsWriteSerializer):
    """The tournament's fields and its event settings (docs/tournaments.md, "Settings")."""

    name = serializers.CharField(max_length=200)
    start_date = serializers.DateField()
    end_date = serializers.DateField()
    rules = serializers.ChoiceField(choices=RULES_CHOICES)
    board_size = serializers.IntegerField(min_value=2, max_value=25, required=False)
    komi = serializers.DecimalField(
        max_digits=4,
        decimal_places=1,
        required=False,
        allow_null=True,
        help_text="Defaults to the rules preset's komi for even games.",
    )
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    time_control = serializers.CharField(max_length=100, required=False, allow_blank=True)
    rated = serializers.BooleanField(required=False)


# --------------------------------------------------------------------------- re-scoring


PRESENCE_NAMES = {Presence.PLAY: "play", Presence.ABSENT: "absent", Presence.BYE: "bye"}
PRESENCE_CODES = {name: code for code, name in PRESENCE_NAMES.items()}
ENTRY_FIELDS = ("rank", "rating", "club", "country", "final", "smms_correction")

# --------------------------------------------------------------------------- serializers


class EntryPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    family_name = serializers.CharField()
    given_name = serializers.CharField()
    egd_pin = serializers.CharField(allow_null=True)


class EntrySerializer(serializers.ModelSerializer[TournamentEntry]):
    player = EntryPlayerSerializer(read_only=True)
    rank = serializers.SerializerMethodField()
    participation = serializers.SerializerMethodField()

    class Meta:
        model = TournamentEntry
        fields = [
            "id",
            "player",
            "rank",
            "rating",
            "club",
            "country",
            "final",
            "smms_correction",
            "participation",
        ]
        read_only_fields = fields

    def get_rank(self, obj: TournamentEntry) -> str:
        """The rank at entry (a director's correction included)."""
        return str(Rank(obj.rank))

    def get_participation(self, obj: TournamentEntry) -> list[str]:
        """play, absent or bye for each round from round 1."""
        rounds = obj.tournament.number_of_rounds
        return [PRESENCE_NAMES[Presence(obj.presence(n))] for n in range(1, rounds + 1)]


class EntryWriteSerializer(serializers.Serializer[Any]):
    rank = serializers.CharField(
        max_length=10, required=False, help_text='The rank at entry, such as "3k"; default his.'
    )
    rating = serializers.IntegerField(required=False, allow_null=True)
    club = serializers.CharField(max_length=100, required=False, allow_blank=True)
    country = serializers.CharField(max_length=2, required=False, allow_blank=True)
    final = serializers.BooleanField(required=False)
    smms_correction = serializers.IntegerField(min_value=-9, max_value=9, required=False)


class EntryCreateSerializer(EntryWriteSerializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


class PresenceSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(min_value=1, max_value=64)
    presence = serializers.ChoiceField(choices=list(PRESENCE_CODES))


class EntryUpdateSerializer(EntryWriteSerializer):
    participation = PresenceSerializer(
        many=True, required=False, help_text="Rounds to change: play, absent or bye."
    )
    withdraw_from = serializers.IntegerField(
        min_value=1, max_value=64, required=False, help_text="Absent from this round on."
    )


class StandingPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    family_name = serializers.CharField()
    given_name = serializers.CharField()
    rank = serializers.CharField(help_text="The rank at entry.")
    club = serializers.CharField()
    country = serializers.CharField()


class StandingRowSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(
        allow_null=True, help_text="Shared by equal players; null: no game or bye yet."
    )
    player = StandingPlayerSerializer()
    values = serializers.DictField(child=serializers.FloatField())


class StandingsSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    criteria = serializers.ListField(child=serializers.CharField())
    rows = StandingRowSerializer(many=True)


class TeamRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class TeamStandingRowSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(help_text="Shared by teams equal on every criterion.")
    team = TeamRefSerializer()
    values = serializers.DictField(child=serializers.FloatField())


class TeamStandingsSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    criteria = serializers.ListField(child=serializers.CharField())
    rows = TeamStandingRowSerializer(many=True)


class StandingsQuerySerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(min_value=0, max_value=64, required=False)
    criteria = serializers.CharField(max_length=200, required=False)


class ExportQuerySerializer(serializers.Serializer[Any]):
    format = serializers.ChoiceField(choices=list(day_selectors.EXPORTS))
    round = serializers.IntegerField(min_value=0, max_value=64, required=False)


class ImportSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(help_text="OpenGotha XML or EGF results (.h9).")
    name = serializers.CharField(max_length=200, required=False, allow_blank=True)


class ImportResultSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    players = serializers.IntegerField()
    games = serializers.IntegerField()
    linked = serializers.IntegerField(help_text="Players matched to one goref already had.")
    created = serializers.IntegerField(help_text="New goref players.")
    review = serializers.IntegerField(
        help_text="Pairs put on the review list as possible duplicates."
    )
    review_url = serializers.CharField(
        help_text="The review page of this tournament's possible duplicates."
    )
    held = serializers.BooleanField(
        help_text="A past rated event a director imported: its games wait for a federation "
        "official's release (GET /api/v1/ratings/holds/)."
    )


class CorrectionSerializer(serializers.Serializer[Any]):
    paired_rounds = serializers.ListField(
        child=serializers.IntegerField(), help_text="Rounds already paired (kept as paired)."
    )
    changes = serializers.ListField(
        child=serializers.ChoiceField(["handicaps", "mcmahon_start", "pairing_order"]),
        help_text="What the later rounds read differently.",
    )
    warning = serializers.CharField(help_text="The same, in words.")


class EntryUpdateResultSerializer(EntrySerializer):
    correction = CorrectionSerializer(
        read_only=True,
        allow_null=True,
        help_text="After the start, a change of rank, rating or McMahon correction: what it "
        "changes (null otherwise).",
    )

    class Meta(EntrySerializer.Meta):
        fields = [*EntrySerializer.Meta.fields, "correction"]
        read_only_fields = fields


BULK_ACTIONS = (
    "ratings_from_list",
    "ranks_from_ratings",
    "raise",
    "lower",
    "final",
    "preliminary",
)


class EntriesBulkSerializer(serializers.Serializer[Any]):
    action = serializers.ChoiceField(
        BULK_ACTIONS,
        help_text="ratings_from_list: each rating from the federations' current list; "
        "ranks_from_ratings: each rank from its rating; raise/lower: the rank by `by`; "
        "final/preliminary: the registration.",
    )
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=5000,
        help_text="The entries' ids (default: every entry; raise, lower, final and "
        "preliminary need a selection).",
    )
    by = serializers.IntegerField(min_value=1, max_value=39, default=1)


class EntriesBulkResultSerializer(serializers.Serializer[Any]):
    changed = serializers.IntegerField()
    unchanged = serializers.IntegerField(help_text="Already so, or nothing to take it from.")
    correction = CorrectionSerializer(allow_null=True)


class EntryFromListSerializer(serializers.Serializer[Any]):
    list_entry = serializers.IntegerField(
        min_value=1, help_text="The id of a list entry (the search's lists[].id)."
    )


class EntryFromListResultSerializer(serializers.Serializer[Any]):
    entry = serializers.DictField(help_text="The entry, as the entries API shows it.")
    linked = serializers.BooleanField(help_text="An existing goref player (else a new one).")
    review = serializers.IntegerField(help_text="Pairs put on the review list.")


class EvenGameSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(source="pk")
    handicap = serializers.IntegerField()
    komi = serializers.DecimalField(max_digits=4, decimal_places=1)
    even_game_chosen = serializers.BooleanField(allow_null=True)
