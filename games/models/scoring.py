"""Re-scoring runs and dead-stone reviews of submitted records."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from games.models.games import Game


class ScoringState(models.TextChoices):
    PENDING = "pending", "pending"
    RUNNING = "running", "running"
    DONE = "done", "done"
    FAILED = "failed", "failed"


FINISHED_STATES = (ScoringState.DONE, ScoringState.FAILED)


class ScoringRun(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scoring_runs")
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
    # How the dead stones counted were found (games.engine.verdict.DeadSource) and what
    # follows (Step): "confirm" and "removal" wait for the players, docs/rules.md,
    # "How dead stones are found".
    dead_source = models.CharField(max_length=10, blank=True)
    step = models.CharField(max_length=10, blank=True)
    dead_stones = models.JSONField(null=True, blank=True, help_text="points counted dead")
    unsure = models.JSONField(null=True, blank=True, help_text="the estimate's unsure chains")
    flipped = models.JSONField(null=True, blank=True, help_text="chains flipped to match")

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


class ReviewState(models.TextChoices):
    OPEN = "open", "open"
    AGREED = "agreed", "agreed"
    DISPUTED = "disputed", "disputed"


class DeadStoneReview(models.Model):
    """The stone-removal step: the estimate did not bear out the claimed result, so both
    players mark the dead stones (starting from the estimate) and agree on them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="dead_stone_reviews")
    run = models.ForeignKey(ScoringRun, null=True, on_delete=models.SET_NULL, related_name="+")
    state = models.CharField(max_length=10, choices=ReviewState.choices, default=ReviewState.OPEN)
    # Letters-and-numbers points ("D4"): the engine's estimate and its unsure chains.
    estimate = models.JSONField(default=list, blank=True)
    unsure = models.JSONField(default=list, blank=True)
    # Each player's marking (null: not changed from the estimate yet) and agreement.
    black_marking = models.JSONField(null=True, blank=True)
    white_marking = models.JSONField(null=True, blank=True)
    black_agreed_at = models.DateTimeField(null=True, blank=True)
    white_agreed_at = models.DateTimeField(null=True, blank=True)
    dispute_id = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(state="open"),
                name="deadstonereview_one_open_per_game",
            )
        ]

    def __str__(self) -> str:
        return f"stone removal for game {self.game_id} ({self.state})"

    def marking(self, color: str) -> list[str]:
        """A player's marking (``"B"`` or ``"W"``): the estimate until he changes it."""
        mine = self.black_marking if color == "B" else self.white_marking
        return list(self.estimate if mine is None else mine)
