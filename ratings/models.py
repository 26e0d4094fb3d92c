"""Ratings as rows: the current rating, the per-tournament history, the runs that wrote them.

Every row here except ``HonoraryTitle`` is *computed*: a recompute
(``ratings.recompute``) may delete and rewrite them, so nothing a person
decided lives in them.  The honorary 9p+ is a director's decision (seed 000,
ratings.md §6: "a title, never computed from a rating"), kept apart so a
recompute can never touch it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Player, Tournament
from ratings.ranks import RANK_CHOICES, Rank


class PlayerRating(models.Model):
    """A player's current rating: the state after his last rated tournament."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    rating = models.FloatField(help_text="GoR under EGF; the Glicko rating under Glicko-2/OGS.")
    deviation = models.FloatField(default=0.0, help_text="Glicko RD (0 under EGF).")
    volatility = models.FloatField(default=0.0, help_text="Glicko σ (0 under EGF).")
    games = models.PositiveIntegerField(default=0, help_text="Rated games played.")
    tournaments = models.PositiveIntegerField(default=0, help_text="Rated tournaments played.")
    provisional = models.BooleanField(default=True)
    # Signed ladder index of the rating's grade band (derived, stored for the top lists).
    rank = models.SmallIntegerField(choices=RANK_CHOICES)
    last_tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    algorithm = models.CharField(max_length=20)
    version = models.CharField(max_length=20)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-rating", "player_id"]
        indexes = [models.Index(fields=["rank", "rating"], name="playerrating_rank_rating")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating:.0f}"

    @property
    def rank_value(self) -> Rank:
        return Rank(self.rank)


class RatingRun(models.Model):
    """One recompute: which algorithm, from which event, what it wrote."""

    class Mode(models.TextChoices):
        FULL = "full", "full"
        INCREMENTAL = "incremental", "incremental"

    class State(models.TextChoices):
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    algorithm = models.CharField(max_length=20)
    version = models.CharField(max_length=20)
    mode = models.CharField(max_length=12, choices=Mode.choices)
    state = models.CharField(max_length=8, choices=State.choices, default=State.RUNNING)
    # The earliest event re-rated (null: from the first one).
    from_tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    job = models.ForeignKey(
        "ops.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    events = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    players = models.PositiveIntegerField(default=0)
    history_rows = models.PositiveIntegerField(default=0)
    note = models.TextField(blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"{self.algorithm} {self.mode} run #{self.pk} ({self.state})"


class RatingHistory(models.Model):
    """A player's rating before and after one rated tournament."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    # The tournament's end date, copied: events are rated in (end date, id) order.
    event_date = models.DateField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    change = models.FloatField()
    deviation_after = models.FloatField(default=0.0)
    volatility_after = models.FloatField(default=0.0)
    games = models.PositiveSmallIntegerField()
    wins = models.FloatField(help_text="Jigo counts ½.")
    total_games = models.PositiveIntegerField(help_text="Rated games up to and including this one.")
    algorithm = models.CharField(max_length=20)
    version = models.CharField(max_length=20)
    run = models.ForeignKey(
        RatingRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["event_date", "tournament_id", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "tournament"], name="history_one_per_event")
        ]
        indexes = [
            models.Index(fields=["event_date", "tournament"], name="history_event_order"),
            models.Index(fields=["player", "event_date", "tournament"], name="history_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.tournament_id}: {self.rating_before:.0f} → {self.rating_after:.0f}"


class HonoraryTitle(models.Model):
    """The honorary 9p+: awarded by a director with a reason, never by a rating (seed 000)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="honorary_title")
    reason = models.TextField()
    awarded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    awarded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"9p+ {self.player_id}"
