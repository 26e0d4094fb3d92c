"""API representations (output) and input shapes.

Input serializers only check types and presence; every rule lives in
``games.services``, which the views call.  Output serializers read models.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.fields import points_field, sgf_field
from games.choices import RULES_CHOICES
from games.models import Game as GameModel
from games.models import GameState, Player, ResultSubmission, ScoringRun, Tournament
from games.services import outbound
from games.services.results import current_claim
from games.services.scoring import WAITING_MESSAGE, latest_run
from ops.fields import IdField

# --------------------------------------------------------------------------- auth


class TokenRequestSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")
    expiry = serializers.DateTimeField(
        allow_null=True, help_text="When the token stops working (log in again for a new one)."
    )


# --------------------------------------------------------------------------- players


class PlayerSerializer(serializers.ModelSerializer[Player]):
    rank = serializers.SerializerMethodField()
    club = serializers.SerializerMethodField()
    name = serializers.CharField(source="full_name", read_only=True)
    # Ratings (ratings app): null rating and rating_rank until the first rated tournament.
    rating = serializers.SerializerMethodField()
    rating_rank = serializers.SerializerMethodField()
    provisional = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = [
            "id",
            "family_name",
            "given_name",
            "name",
            "rank",
            "club",
            "country",
            "egd_pin",
            "aga_id",
            "nzgs_id",
            "rating",
            "rating_rank",
            "provisional",
        ]
        read_only_fields = fields

    def to_representation(self, instance: Player) -> Any:
        # One strength per player for the three rating fields (a list reuses this serializer).
        self._strength = outbound.player_strength(instance)
        return super().to_representation(instance)

    def get_rating(self, obj: Player) -> float | None:
        rating = self._strength.rating
        return None if rating is None else round(rating, 3)

    def get_rating_rank(self, obj: Player) -> str | None:
        """The rating's grade band (\"9p+\" for an honorary title); null when unrated."""
        s = self._strength
        return str(s.rank) if s.rating is not None or s.rank.is_honorary else None

    def get_provisional(self, obj: Player) -> bool:
        return self._strength.provisional

    def get_rank(self, obj: Player) -> str:
        return str(obj.rank)

    def get_club(self, obj: Player) -> str | None:
        return obj.club.name if obj.club is not None else None


class PlayerWriteSerializer(serializers.Serializer[Any]):
    family_name = serializers.CharField(max_length=80)
    given_name = serializers.CharField(max_length=80, required=False, allow_blank=True)
    rank = serializers.CharField(max_length=10, help_text='Such as "3k", "2d" or "9p+".')
    club = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        allow_null=True,
        help_text="The club's name; a new club is created if there is none by that name.",
    )
    country = serializers.CharField(max_length=2, required=False, allow_blank=True)
    egd_pin = serializers.CharField(max_length=8, required=False, allow_blank=True, allow_null=True)
    aga_id = serializers.CharField(max_length=10, required=False, allow_blank=True, allow_null=True)
    nzgs_id = serializers.CharField(
        max_length=10, required=False, allow_blank=True, allow_null=True
    )
    email = serializers.CharField(
        max_length=254,
        required=False,
        allow_blank=True,
        write_only=True,
        help_text="The address on file, where invitations go (never shown): a federation "
        "official or the player's own directors write it.",
    )


AWAITING = {
    "confirm": gettext_lazy(
        "The count matches the submitted result only with the unsure stones marked "
        "dead or alive as shown: it awaits the players' confirmation."
    ),
    "removal": gettext_lazy(
        "The engine could not tell which stones are dead: it awaits the players' "
        "marking of the dead stones."
    ),
}


class VerificationSerializer(serializers.ModelSerializer[ScoringRun]):
    """The latest scoring run of a game: what the engine made of its record."""

    first_illegal = serializers.JSONField(
        read_only=True,
        allow_null=True,
        help_text='The first illegal move: {"number", "color", "point", "reason", "text"}.',
    )
    breakdown = serializers.JSONField(
        read_only=True,
        allow_null=True,
        help_text="The count: areas, territory, prisoners, komi (and fill_in under wmsg); "
        'under territory rules "seki" {"points", "stones": {"B", "W"}, "eyes"} and "teire" '
        '[{"point", "color", "chain"}] say why points count nothing.',
    )
    # Plain text, not an enum: the OpenAPI schema has several "state" choice sets.
    state = serializers.CharField(read_only=True, help_text="pending, running, done or failed.")
    dead_source = serializers.CharField(
        read_only=True,
        help_text="How the dead stones counted were found: submitted, markup, estimated, "
        "flipped (awaiting the players' confirmation) or none (every stone counts).",
    )
    step = serializers.CharField(
        read_only=True,
        help_text="verified, mismatch, unchecked, confirm (the opponent's confirmation agrees "
        "to the flipped stones) or removal (the players mark the dead stones).",
    )
    dead_stones = serializers.JSONField(
        read_only=True, allow_null=True, help_text="Points counted dead."
    )
    unsure = serializers.JSONField(
        read_only=True, allow_null=True, help_text="The estimate's unsure chains, as point lists."
    )
    flipped = serializers.JSONField(
        read_only=True, allow_null=True, help_text="The unsure chains flipped to match the claim."
    )
    queued = serializers.SerializerMethodField()
    message = serializers.SerializerMethodField()

    class Meta:
        model = ScoringRun
        fields = [
            "state",
            "rules",
            "engine_version",
            "submitted_result",
            "computed_result",
            "matches",
            "first_illegal",
            "breakdown",
            "error",
            "dead_source",
            "step",
            "dead_stones",
            "unsure",
            "flipped",
            "queued",
            "message",
            "requested_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_queued(self, obj: ScoringRun) -> bool:
        """False while the job queue was unreachable: the sweep queues it when it is back."""
        return not obj.waiting_for_queue

    def get_message(self, obj: ScoringRun) -> str | None:
        if obj.waiting_for_queue:
            return str(WAITING_MESSAGE)
        awaiting = AWAITING.get(obj.step)
        return None if awaiting is None else str(awaiting)


def verification_of(game: Any) -> dict[str, Any] | None:
    run = latest_run(game)
    return None if run is None else dict(VerificationSerializer(run).data)


# --------------------------------------------------------------------------- games


class PlayerRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField(source="full_name")


class GameListSerializer(serializers.ModelSerializer[GameModel]):
    round = serializers.IntegerField(source="round.number", read_only=True)
    black = PlayerRefSerializer(read_only=True)
    white = PlayerRefSerializer(read_only=True)
    result = serializers.SerializerMethodField()
    winner = serializers.SerializerMethodField()
    margin = serializers.DecimalField(
        source="result_margin", max_digits=5, decimal_places=1, read_only=True, allow_null=True
    )
    reason = serializers.SerializerMethodField()

    class Meta:
        model = GameModel
        fields = [
            "id",
            "tournament",
            "round",
            "table",
            "black",
            "white",
            "handicap",
            "komi",
            "rules",
            "state",
            "result",
            "winner",
            "margin",
            "reason",
            "locked_at",
        ]
        read_only_fields = fields

    def get_result(self, obj: GameModel) -> str | None:
        return obj.result_display or None

    def get_winner(self, obj: GameModel) -> str | None:
        return obj.result_winner or None

    def get_reason(self, obj: GameModel) -> str | None:
        return obj.result_reason or None


class GameSerializer(GameListSerializer):
    sgf = serializers.CharField(read_only=True, help_text="The SGF record as submitted, or ''.")
    sgf_warnings = serializers.ListField(child=serializers.CharField(), read_only=True)
    dead_stones = serializers.ListField(child=serializers.CharField(), read_only=True)
    verification = serializers.SerializerMethodField(
        help_text="The latest re-scoring of the record by the engine (null without a record)."
    )
    disputes = serializers.SerializerMethodField(
        help_text="Closed disputes and their rulings (public with the game; referee app)."
    )
    claim = serializers.SerializerMethodField(
        help_text="The id of the claim awaiting the opponent's answer (send it to confirm or "
        "contest); null when none is."
    )
    rated = serializers.SerializerMethodField(
        help_text="Whether the result can reach the ratings once locked and its event closed."
    )
    not_rated_reason = serializers.SerializerMethodField(
        help_text="Why the game is not rated (null when it is)."
    )

    class Meta(GameListSerializer.Meta):
        fields = [
            *GameListSerializer.Meta.fields,
            "claim",
            "rated",
            "not_rated_reason",
            "sgf",
            "sgf_warnings",
            "dead_stones",
            "disputes",
            "verification",
        ]
        read_only_fields = fields

    def get_claim(self, obj: GameModel) -> int | None:
        return current_claim(obj)

    def get_rated(self, obj: GameModel) -> bool:
        return not obj.not_rated_reason

    def get_not_rated_reason(self, obj: GameModel) -> str | None:
        return obj.not_rated_reason or None

    @extend_schema_field(VerificationSerializer(allow_null=True))
    def get_verification(self, obj: GameModel) -> Any:
        return verification_of(obj)

    @extend_schema_field(outbound.closed_disputes_schema())
    def get_disputes(self, obj: GameModel) -> Any:
        return outbound.closed_disputes(obj)


class GameCreateSerializer(serializers.Serializer[Any]):
    tournament = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all())
    round = serializers.IntegerField(min_value=1, max_value=32767)
    black = IdField(help_text="Player id.")
    white = IdField(help_text="Player id.")
    handicap = serializers.IntegerField(
        min_value=0,
        max_value=25,
        required=False,
        help_text="Omitted: the tournament's handicap policy advises one from the players' "
        "ratings and the weaker player takes Black.",
    )
    komi = serializers.DecimalField(
        max_digits=4,
        decimal_places=1,
        required=False,
        allow_null=True,
        help_text="Defaults to the preset's komi for the handicap.",
    )
    table = serializers.IntegerField(min_value=1, max_value=32767, required=False, allow_null=True)


class GameUpdateSerializer(serializers.Serializer[Any]):
    black = IdField(required=False)
    white = IdField(required=False)
    handicap = serializers.IntegerField(min_value=0, max_value=25, required=False)
    komi = serializers.DecimalField(max_digits=4, decimal_places=1, required=False)
    table = serializers.IntegerField(min_value=1, max_value=32767, required=False, allow_null=True)
    rules = serializers.ChoiceField(choices=RULES_CHOICES, required=False)


class GameFilterSerializer(serializers.Serializer[Any]):
    tournament = IdField(required=False)
    round = serializers.IntegerField(min_value=1, max_value=32767, required=False)
    player = IdField(required=False)
    state = serializers.ChoiceField(choices=GameState.choices, required=False)


class PlayerFilterSerializer(serializers.Serializer[Any]):
    search = serializers.CharField(max_length=100, required=False, allow_blank=True)
    club = serializers.CharField(max_length=100, required=False, allow_blank=True)
    country = serializers.CharField(max_length=2, required=False, allow_blank=True)


class ResultRequestSerializer(serializers.Serializer[Any]):
    result = serializers.CharField(max_length=20, help_text='An SGF RE string: "B+5.5", "W+R".')
    sgf = sgf_field("The SGF record as text (optional).")
    dead_stones = points_field(
        'Points such as "D4" or "dd"; default: the record\'s TB/TW.', allow_null=True
    )
    comment = serializers.CharField(max_length=2000, required=False, allow_blank=True)


CLAIM_HELP = (
    "The id of the claim being answered (the game's `claim`): if the submitter has "
    "changed it since, the answer is refused with 409 and nothing changes."
)


class ConfirmRequestSerializer(serializers.Serializer[Any]):
    # Required: a missing claim is a 400, once the caller may answer at all (403/409 first).
    claim = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, required=False, help_text=f"Required. {CLAIM_HELP}"
    )


class ContestRequestSerializer(serializers.Serializer[Any]):
    claim = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, required=False, help_text=f"Required. {CLAIM_HELP}"
    )
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class SubmissionSerializer(serializers.ModelSerializer[ResultSubmission]):
    player: serializers.PrimaryKeyRelatedField[Player] = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True
    )
    submitted_by = serializers.SerializerMethodField()

    class Meta:
        model = ResultSubmission
        fields = [
            "id",
            "kind",
            "player",
            "submitted_by",
            "result",
            "dead_stones",
            "comment",
            "created_at",
        ]
        read_only_fields = fields

    def get_submitted_by(self, obj: ResultSubmission) -> str | None:
        return obj.submitted_by.get_username() if obj.submitted_by is not None else None
