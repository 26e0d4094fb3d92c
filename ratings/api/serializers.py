"""API shapes for ratings and handicaps: inputs check types only; the rules live in services."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ops.fields import IdField

WINNERS = ["black", "white", "jigo"]


class HandicapQuerySerializer(serializers.Serializer[Any]):
    black = IdField(help_text="Player id.")
    white = IdField(help_text="Player id.")
    tournament = IdField(
        required=False, help_text="Its policy, rules and board; default NZ, 19x19."
    )


class HandicapSerializer(serializers.Serializer[Any]):
    handicap = serializers.IntegerField()
    komi = serializers.DecimalField(max_digits=4, decimal_places=1)
    compensation = serializers.IntegerField(help_text="Extra points to White at the count.")
    even_game_allowed = serializers.BooleanField()
    nigiri = serializers.BooleanField(help_text="An even game: colours by nigiri.")
    placement = serializers.ListField(
        child=serializers.CharField(), help_text='Fixed points in placing order, or ["free"].'
    )
    white_passes = serializers.IntegerField()
    black = serializers.IntegerField(help_text="Player id of Black (the weaker player).")
    white = serializers.IntegerField()
    rating_difference = serializers.FloatField(help_text="In stones: the number the rule used.")
    strengths = serializers.DictField(
        child=serializers.FloatField(), help_text="Each player's strength in stones, by id."
    )
    policy = serializers.CharField()
    rules = serializers.CharField()
    board_size = serializers.IntegerField()
    explanation = serializers.CharField()


class WhatIfRequestSerializer(serializers.Serializer[Any]):
    black = IdField(help_text="Player id.")
    white = IdField(help_text="Player id.")
    winner = serializers.ChoiceField(choices=WINNERS)
    handicap = serializers.IntegerField(min_value=0, max_value=9, required=False, default=0)


class WhatIfSideSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.full_name")
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    change = serializers.FloatField()


class WhatIfSerializer(serializers.Serializer[Any]):
    algorithm = serializers.CharField()
    score_black = serializers.FloatField()
    handicap = serializers.IntegerField()
    black = WhatIfSideSerializer()
    white = WhatIfSideSerializer()


class HistoryRowSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField(source="tournament_id")
    tournament_name = serializers.CharField(source="tournament.name")
    date = serializers.DateField(source="event_date")
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    change = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.FloatField(help_text="Jigo counts ½.")
    algorithm = serializers.CharField()
    version = serializers.CharField()


class RecomputeRequestSerializer(serializers.Serializer[Any]):
    from_tournament = serializers.IntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        help_text="Re-rate from this tournament onward; omitted: a full recompute.",
    )


class HonoraryRequestSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=2000)


class HonorarySerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id")
    rank = serializers.CharField(default="9p+")
    reason = serializers.CharField()
    awarded_at = serializers.DateTimeField()


class RatingListSearchQuerySerializer(serializers.Serializer[Any]):
    q = serializers.CharField(
        min_length=2,
        max_length=100,
        help_text="A few letters of the name (any order, accents ignored) or a federation id.",
    )


class FoundPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.CharField()
    club = serializers.CharField()
    country = serializers.CharField()
    egd_pin = serializers.CharField(allow_null=True)
    ffg_licence = serializers.CharField(allow_null=True)
    aga_id = serializers.CharField(allow_null=True)


class FoundListEntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="For entering him: POST .../entries/from-list/.")
    federation = serializers.CharField(help_text="The list: egd, ffg or aga.")
    published = serializers.DateField()
    federation_id = serializers.CharField()
    family_name = serializers.CharField()
    given_name = serializers.CharField()
    rank = serializers.CharField(allow_null=True)
    rating = serializers.IntegerField(allow_null=True, help_text="GoR scale (EGD, FFG).")
    list_rating = serializers.CharField()
    club = serializers.CharField()
    country = serializers.CharField()


class RatingListSearchSerializer(serializers.Serializer[Any]):
    players = FoundPlayerSerializer(many=True, help_text="goref's players (at most 20).")
    lists = FoundListEntrySerializer(many=True, help_text="Entries of the lists (at most 20).")


class RatingHoldSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField(source="tournament_id")
    tournament_name = serializers.CharField(source="tournament.name")
    player = serializers.IntegerField(
        source="player_id", allow_null=True, help_text="null: every player of the event."
    )
    player_name = serializers.SerializerMethodField()
    reason = serializers.CharField(
        help_text="not_own (entered by a director who is not the player's) or past (a past event a director imported)."
    )
    held_by = serializers.SerializerMethodField()
    held_at = serializers.DateTimeField(source="created_at")
    released_by = serializers.SerializerMethodField()
    released_at = serializers.DateTimeField(allow_null=True)

    def get_player_name(self, hold: Any) -> str:
        return "" if hold.player is None else str(hold.player.full_name)

    def get_held_by(self, hold: Any) -> str:
        return "" if hold.created_by is None else str(hold.created_by.username)

    def get_released_by(self, hold: Any) -> str:
        return "" if hold.released_by is None else str(hold.released_by.username)
