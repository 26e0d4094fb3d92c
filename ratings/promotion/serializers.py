"""API shapes for promotions: ranks are written as text ("3k", "2d", "9p+")."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ops.fields import IdField
from ratings.models import (
    CandidateState,
    PromotionCandidate,
    PromotionPolicy,
    RankChange,
    RankChangeKind,
)
from ratings.ranks import Rank


@extend_schema_field(OpenApiTypes.STR)
class RankField(serializers.Field[Any, Any, Any, Any]):
    """A signed ladder index out as its text ("3k", "2d", "9p+")."""

    def to_representation(self, value: int) -> str:
        return str(Rank(value))


class RankChangeSerializer(serializers.ModelSerializer[RankChange]):
    player_name = serializers.CharField(source="player.full_name", read_only=True)
    old_rank = RankField(read_only=True)
    new_rank = RankField(read_only=True)
    tournament_name = serializers.CharField(
        source="tournament.name", read_only=True, allow_null=True, default=None
    )
    changed_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True
    )
    certificate = serializers.SerializerMethodField()

    class Meta:
        model = RankChange
        fields = [
            "id",
            "player",
            "player_name",
            "old_rank",
            "new_rank",
            "kind",
            "since",
            "changed_at",
            "changed_by",
            "tournament",
            "tournament_name",
            "reason",
            "evidence",
            "certificate",
        ]

    def get_certificate(self, obj: RankChange) -> str | None:
        """The printable certificate's path (promotions and the honorary title)."""
        if obj.kind not in (RankChangeKind.PROMOTION, RankChangeKind.HONORARY):
            return None
        return reverse("ratings:certificate", args=[obj.pk])


class CandidateSerializer(serializers.ModelSerializer[PromotionCandidate]):
    player_name = serializers.CharField(source="player.full_name", read_only=True)
    old_rank = RankField(read_only=True)
    new_rank = RankField(read_only=True)
    tournament_name = serializers.CharField(source="trigger_tournament.name", read_only=True)
    policy_name = serializers.SerializerMethodField()
    decided_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True
    )
    rank_change = serializers.SerializerMethodField()

    class Meta:
        model = PromotionCandidate
        fields = [
            "id",
            "player",
            "player_name",
            "old_rank",
            "new_rank",
            "direction",
            "criterion",
            "evidence",
            "trigger_tournament",
            "tournament_name",
            "policy",
            "policy_name",
            "state",
            "created_at",
            "decided_by",
            "decided_at",
            "reason",
            "rank_change",
        ]

    def get_policy_name(self, obj: PromotionCandidate) -> str:
        return obj.policy.name if obj.policy is not None else "built-in default"

    def get_rank_change(self, obj: PromotionCandidate) -> int | None:
        """The rank history entry an approval wrote."""
        change = getattr(obj, "rank_change", None)
        return change.pk if change is not None else None


class CandidateFilterSerializer(serializers.Serializer[Any]):
    state = serializers.ChoiceField(choices=CandidateState.choices, required=False)
    tournament = IdField(required=False)


class PromotionFilterSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(
        choices=[RankChangeKind.PROMOTION, RankChangeKind.DEMOTION, RankChangeKind.HONORARY],
        required=False,
    )


class RejectSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(allow_blank=True, max_length=2000)


class PolicySerializer(serializers.ModelSerializer[PromotionPolicy]):
    params = serializers.JSONField(help_text="ratings.promotion.engine.PromotionPolicy.to_dict()")

    class Meta:
        model = PromotionPolicy
        fields = ["id", "name", "tournament", "params", "active", "created_at", "updated_at"]
        read_only_fields = fields


class PolicyWriteSerializer(serializers.Serializer[Any]):
    """Types only; the parameters are checked by the engine (``from_dict``) in the service."""

    name = serializers.CharField(max_length=100)
    tournament = IdField(
        required=False, allow_null=True, help_text="Empty: the federation default."
    )
    params = serializers.JSONField()
    active = serializers.BooleanField(default=False, help_text="Put it in force at once.")


class PolicyUpdateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=100, required=False)
    params = serializers.JSONField(required=False)
