"""Re-scoring runs: what the engine made of a game's submitted record.

One run per (game, rules preset, engine version); a new record, result or dead-stone
list resets it (README, "Re-scoring").  Imported at the bottom of ``games.models`` so
Django registers it; written only by ``games.services.scoring`` and ``scoring_worker``.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class ScoringState(models.TextChoices):
    PENDING = "pending", "pending"
    RUNNING = "running", "running"
    DONE = "done", "done"
    FAILED = "failed", "failed"


FINISHED_STATES = (ScoringState.DONE, ScoringState.FAILED)


class ScoringRun(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="scoring_runs")
    rules = models.CharField(max_length=20)
    engine_version = models.CharField(max_length=20)
    state = models.CharField(
        max_length=10, choices=ScoringState.choices, default=ScoringState.PENDING
    )
    # sha256 of the record, the claimed result, the dead stones, komi and handicap.
    input_hash = models.CharField(max_length=64)
    # The batch job that counts this run in its progress (null: a single submission).
    job = models.ForeignKey(
        "ops.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    computed_result = models.CharField(max_length=20, blank=True, help_text="SGF RE string")
    submitted_result = models.CharField(max_length=20, blank=True, help_text="SGF RE string")
    breakdown = models.JSONField(null=True, blank=True)
    first_illegal = models.JSONField(null=True, blank=True)
    # True: the count agrees with the submitted result; False: it does not;
    # None: nothing to compare (a resignation, a win on time, or not scored yet).
    matches = models.BooleanField(null=True, blank=True)
    dispute_id = models.PositiveBigIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)

    # Claims (games.services.scoring_worker.claim): who holds the run, since when.
    attempts = models.PositiveIntegerField(default=0)
    claimed_by = models.CharField(max_length=200, blank=True)
    claim_token = models.CharField(max_length=32, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)

    requested_at = models.DateTimeField()
    # Set once the task message was handed to the broker; null while the broker
    # was unreachable (the sweep publishes it later).
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "rules", "engine_version"],
                name="scoringrun_one_per_game_rules_engine",
            ),
            models.CheckConstraint(
                condition=~Q(state="running") | Q(claimed_at__isnull=False),
                name="scoringrun_running_is_claimed",
            ),
        ]
        indexes = [models.Index(fields=["state", "requested_at"], name="scoringrun_state_req")]

    def __str__(self) -> str:
        return f"scoring of game {self.game_id} ({self.rules}, engine {self.engine_version})"

    @property
    def waiting_for_queue(self) -> bool:
        """Pending and never handed to the broker: it was down when the result came in."""
        return self.state == ScoringState.PENDING and self.queued_at is None
