"""API shapes for re-scoring: a game's verification and a batch job."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.scoring_models import ScoringRun
from games.services.scoring import WAITING_MESSAGE, latest_run


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
        help_text="The count: areas, territory, prisoners, komi (and fill_in under wmsg).",
    )
    # Plain text, not an enum: the OpenAPI schema has several "state" choice sets.
    state = serializers.CharField(read_only=True, help_text="pending, running, done or failed.")
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
        return WAITING_MESSAGE if obj.waiting_for_queue else None


def verification_of(game: Any) -> dict[str, Any] | None:
    run = latest_run(game)
    return None if run is None else dict(VerificationSerializer(run).data)
