"""API shapes for disputes and rulings.  Input serializers check types only; the
services judge.  Kept free of ``games.api`` imports: the game serializer
imports ``PublicDisputeSerializer`` from here."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.fields import points_field, sgf_field
from ops.fields import IdField
from referee.models import (
    CommitteeVote,
    Decision,
    Dispute,
    DisputeKind,
    DisputeState,
    Ruling,
    RulingAcceptance,
    TournamentOfficials,
)


class KindField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=DisputeKind.choices, **kwargs)


class StateField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=DisputeState.choices, **kwargs)


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


class AcceptanceSerializer(serializers.ModelSerializer[RulingAcceptance]):
    class Meta:
        model = RulingAcceptance
        fields = ["player", "created_at"]
        read_only_fields = fields


class RulingSerializer(serializers.ModelSerializer[Ruling]):
    decided_by = serializers.SerializerMethodField()
    level_name = serializers.CharField(source="get_level_display", read_only=True)
    acceptances = AcceptanceSerializer(
        many=True, read_only=True, help_text="The parties (player ids) who accepted this ruling."
    )

    class Meta:
        model = Ruling
        fields = [
            "id",
            "level",
            "level_name",
            "decided_by",
            "decision",
            "reasons",
            "result",
            "moves",
            "effect",
            "votes",
            "acceptances",
            "created_at",
        ]
        read_only_fields = fields

    def get_decided_by(self, obj: Ruling) -> str | None:
        return _username(obj.decided_by)


class PublicRulingSerializer(RulingSerializer):
    """With the game: what was decided and why; the records stay on the game."""

    class Meta(RulingSerializer.Meta):
        fields = [f for f in RulingSerializer.Meta.fields if f not in ("effect", "acceptances")]
        read_only_fields = fields


class VoteSerializer(serializers.ModelSerializer[CommitteeVote]):
    member = serializers.SerializerMethodField()

    class Meta:
        model = CommitteeVote
        fields = ["member", "decision", "result", "moves", "reasons", "created_at"]
        read_only_fields = fields

    def get_member(self, obj: CommitteeVote) -> str:
        return obj.member.get_username()


class DisputeListSerializer(serializers.ModelSerializer[Dispute]):
    tournament = serializers.IntegerField(source="game.tournament_id", read_only=True)
    kind = KindField(read_only=True)
    state = StateField(read_only=True)
    raised_by = serializers.SerializerMethodField()
    assigned_referee = serializers.SerializerMethodField()

    class Meta:
        model = Dispute
        fields = [
            "id",
            "game",
            "tournament",
            "kind",
            "state",
            "level",
            "move_number",
            "claim",
            "raised_by",
            "assigned_referee",
            "created_at",
            "closed_at",
        ]
        read_only_fields = fields

    def get_raised_by(self, obj: Dispute) -> str | None:
        return _username(obj.raised_by)

    def get_assigned_referee(self, obj: Dispute) -> str | None:
        return _username(obj.assigned_referee)


class DisputeSerializer(DisputeListSerializer):
    rulings = RulingSerializer(many=True, read_only=True)
    votes = VoteSerializer(many=True, read_only=True)
    evidence = serializers.JSONField(
        read_only=True,
        help_text="The game when the dispute opened, the record (SGF), the record up to the "
        "move, the engine's legality report and count.",
    )

    class Meta(DisputeListSerializer.Meta):
        fields = [*DisputeListSerializer.Meta.fields, "evidence", "rulings", "votes"]
        read_only_fields = fields


class PublicDisputeSerializer(serializers.ModelSerializer[Dispute]):
    kind = KindField(read_only=True)
    rulings = PublicRulingSerializer(many=True, read_only=True)

    class Meta:
        model = Dispute
        fields = ["id", "kind", "move_number", "claim", "created_at", "closed_at", "rulings"]
        read_only_fields = fields


class DisputeCreateSerializer(serializers.Serializer[Any]):
    kind = KindField()
    move_number = serializers.IntegerField(
        min_value=1, max_value=100_000, required=False, allow_null=True
    )
    claim = serializers.CharField(max_length=4000, required=False, allow_blank=True)
    sgf = sgf_field("The record so far, when the game has none stored (a claim at the board).")
    stones = points_field(
        "dead-stones: the stones in dispute (default: the submitted dead stones)."
    )


class RulingCreateSerializer(serializers.Serializer[Any]):
    decision = serializers.ChoiceField(choices=Decision.choices)
    reasons = serializers.CharField(max_length=4000)
    result = serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        allow_null=True,
        help_text="SGF RE string (result, time, resignation, conduct, other; forfeit).",
    )
    moves = points_field(
        'dead-stones: the continuation, e.g. ["C5", "B4", "pass"], the owner first; left '
        "out when both players marked the same stones, the ruling is their marking's count.",
        max_length=1000,
    )


class AppealSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=4000, required=False, allow_blank=True)


class DisputeFilterSerializer(serializers.Serializer[Any]):
    game = IdField(required=False)
    tournament = IdField(required=False)
    state = StateField(required=False)


# --------------------------------------------------------------------------- officials, assigning


@extend_schema_field({"oneOf": [{"type": "integer"}, {"type": "string"}]})
class UserRefField(serializers.Field[Any, Any, Any, Any]):
    """A user named by id (a JSON number) or by username (a JSON string)."""

    default_error_messages = {"invalid": "A user id (number) or a username (string)."}

    def to_internal_value(self, data: Any) -> int | str:
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("invalid")
        if isinstance(data, str):
            data = data.strip()
            if not data or len(data) > 150:
                self.fail("invalid")
        value: int | str = data
        return value

    def to_representation(self, value: Any) -> Any:
        return value


def resolve_users(refs: dict[str, list[int | str]]) -> dict[str, list[Any]]:
    """Users for each field's references, in order, in one query; a ``ValidationError``
    naming the field of the first unknown one."""
    wanted = [r for field in refs.values() for r in field]
    if not wanted:
        return {name: [] for name in refs}
    ids = [r for r in wanted if isinstance(r, int)]
    names = [r for r in wanted if isinstance(r, str)]
    found = list(get_user_model().objects.filter(Q(pk__in=ids) | Q(username__in=names)))
    by_id = {u.pk: u for u in found}
    by_name = {u.get_username(): u for u in found}
    out: dict[str, list[Any]] = {}
    for name, field in refs.items():
        users = []
        for ref in field:
            user = by_id.get(ref) if isinstance(ref, int) else by_name.get(ref)
            if user is None:
                raise serializers.ValidationError({name: f"No user {ref!r}."})
            users.append(user)
        out[name] = users
    return out


class OfficialsSerializer(serializers.ModelSerializer[TournamentOfficials]):
    """A tournament's officials, by username (public: a referee's name is known at a tournament)."""

    chief_referee = serializers.SerializerMethodField()
    committee = serializers.SerializerMethodField()
    referees = serializers.SerializerMethodField(
        help_text="The tournament's referees (named by its directors with the tournament)."
    )

    class Meta:
        model = TournamentOfficials
        fields = ["tournament", "chief_referee", "committee", "referees"]
        read_only_fields = fields

    def get_chief_referee(self, obj: TournamentOfficials) -> str | None:
        return _username(obj.chief_referee)

    def get_committee(self, obj: TournamentOfficials) -> list[str]:
        return [m.get_username() for m in obj.committee]

    def get_referees(self, obj: TournamentOfficials) -> list[str]:
        return sorted(u.get_username() for u in obj.tournament.referees.all())


class OfficialsWriteSerializer(serializers.Serializer[Any]):
    chief_referee = UserRefField(
        allow_null=True, help_text="User id or username; null for no chief referee."
    )
    committee = serializers.ListField(
        child=UserRefField(),
        max_length=10,
        help_text="Three different users (ids or usernames), not the chief referee; "
        "[] for no committee.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        chief = attrs.get("chief_referee")
        users = resolve_users(
            {"chief_referee": [chief] if chief is not None else [], "committee": attrs["committee"]}
        )
        return {
            "chief_referee": (users["chief_referee"] or [None])[0],
            "committee": users["committee"],
        }


class AssignSerializer(serializers.Serializer[Any]):
    referee = UserRefField(
        required=False,
        help_text="User id or username of a referee of the tournament "
        "(default: yourself, a referee taking the dispute).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "referee" not in attrs:
            return {}
        return {"referee": resolve_users({"referee": [attrs["referee"]]})["referee"][0]}
