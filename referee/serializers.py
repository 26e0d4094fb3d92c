"""API shapes for disputes and rulings.  Input serializers check types only; the
services judge.  Kept free of ``games.api`` imports: the game serializer
imports ``PublicDisputeSerializer`` from here."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from referee.models import CommitteeVote, Decision, Dispute, DisputeKind, DisputeState, Ruling


class KindField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=DisputeKind.choices, **kwargs)


class StateField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=DisputeState.choices, **kwargs)


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


class RulingSerializer(serializers.ModelSerializer[Ruling]):
    decided_by = serializers.SerializerMethodField()
    level_name = serializers.CharField(source="get_level_display", read_only=True)

    class Meta:
        model = Ruling
        fields = ["id", "level", "level_name", "decided_by", "decision", "reasons", "result",
                  "moves", "effect", "votes", "created_at"]  # fmt: skip
        read_only_fields = fields

    def get_decided_by(self, obj: Ruling) -> str | None:
        return _username(obj.decided_by)


class PublicRulingSerializer(RulingSerializer):
    """With the game: what was decided and why; the records stay on the game."""

    class Meta(RulingSerializer.Meta):
        fields = ["id", "level", "level_name", "decided_by", "decision", "reasons", "result",
                  "moves", "votes", "created_at"]  # fmt: skip
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
        fields = ["id", "game", "tournament", "kind", "state", "level", "move_number", "claim",
                  "raised_by", "assigned_referee", "created_at", "closed_at"]  # fmt: skip
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
    move_number = serializers.IntegerField(min_value=1, max_value=100_000, required=False,
                                           allow_null=True)  # fmt: skip
    claim = serializers.CharField(max_length=4000, required=False, allow_blank=True)
    sgf = serializers.CharField(
        required=False, allow_blank=True, allow_null=True, trim_whitespace=False,
        max_length=settings.GOREF_SGF_MAX_BYTES,
        help_text="The record so far, when the game has none stored (a claim at the board).",
    )  # fmt: skip
    stones = serializers.ListField(
        child=serializers.CharField(max_length=4), required=False, max_length=625,
        help_text="dead-stones: the stones in dispute (default: the submitted dead stones).",
    )  # fmt: skip


class RulingCreateSerializer(serializers.Serializer[Any]):
    decision = serializers.ChoiceField(choices=Decision.choices)
    reasons = serializers.CharField(max_length=4000)
    result = serializers.CharField(
        max_length=20, required=False, allow_blank=True, allow_null=True,
        help_text="SGF RE string (result, time, resignation, conduct, other; forfeit).",
    )  # fmt: skip
    moves = serializers.ListField(
        child=serializers.CharField(max_length=4), required=False, max_length=1000,
        help_text='dead-stones: the continuation, e.g. ["C5", "B4", "pass"], the owner first.',
    )  # fmt: skip


class AppealSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=4000, required=False, allow_blank=True)


class DisputeFilterSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(min_value=1, required=False)
    tournament = serializers.IntegerField(min_value=1, required=False)
    state = StateField(required=False)
