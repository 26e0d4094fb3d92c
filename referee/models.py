"""Disputes, rulings, appeals and a tournament's officials."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# --------------------------------------------------------------------------- disputes
#
# Disputes, rulings and appeals (docs/referee.md): the New Zealand Rules say what
# a ruling does, the WMSG 2008 rules who rules (the referee, then the chief
# referee, then the arbitration committee).  The games app's tables are not
# touched: the officials above the referees live here, keyed by tournament.


class TournamentOfficials(models.Model):
    """A tournament's chief referee and its arbitration committee of three."""

    tournament = models.OneToOneField(
        "games.Tournament", on_delete=models.CASCADE, related_name="officials"
    )
    chief_referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    committee_1 = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    committee_2 = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    committee_3 = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name_plural = "tournament officials"

    def __str__(self) -> str:
        return f"Officials of {self.tournament}"

    COMMITTEE_FIELDS = ("committee_1", "committee_2", "committee_3")

    @property
    def committee(self) -> list[Any]:
        """The members named, in seat order (each seat a query unless joined)."""
        members = (getattr(self, name) for name in self.COMMITTEE_FIELDS)
        return [m for m in members if m is not None]

    @property
    def committee_ids(self) -> list[int]:
        ids = (getattr(self, f"{name}_id") for name in self.COMMITTEE_FIELDS)
        return [i for i in ids if i is not None]

    @property
    def has_committee(self) -> bool:
        return len(set(self.committee_ids)) == 3


class DisputeKind(models.TextChoices):
    REPETITION = "repetition", _("repetition (superko)")
    ILLEGAL_MOVE = "illegal-move", _("illegal move")
    DEAD_STONES = "dead-stones", _("dead stones not agreed")
    RESULT = "result", _("result or count")
    TIME = "time", _("time")
    RESIGNATION = "resignation", _("resignation")
    CONDUCT = "conduct", _("conduct")
    OTHER = "other", _("other")


class DisputeState(models.TextChoices):
    OPEN = "open", _("open")
    ASSIGNED = "assigned", _("assigned to a referee")
    RULED = "ruled", _("ruled")
    APPEALED = "appealed", _("appealed")
    CLOSED = "closed", _("closed")


class Level(models.IntegerChoices):
    REFEREE = 1, _("referee")
    CHIEF = 2, _("chief referee")
    COMMITTEE = 3, _("arbitration committee")


class Decision(models.TextChoices):
    UPHELD = "upheld", _("upheld")
    DISMISSED = "dismissed", _("dismissed")


class Dispute(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="disputes")
    kind = models.CharField(max_length=16, choices=DisputeKind.choices)
    # Null when the system raised it (a re-score that does not match the result).
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    move_number = models.PositiveIntegerField(null=True, blank=True)
    claim = models.TextField(blank=True)
    # What the officials see: the record up to the move (SGF), the engine's
    # legality report and count, the game as it was when the dispute opened.
    evidence = models.JSONField(default=dict, blank=True)
    state = models.CharField(
        max_length=10, choices=DisputeState.choices, default=DisputeState.OPEN, db_index=True
    )
    # The level the next ruling is made at (1 referee, 2 chief, 3 committee).
    level = models.PositiveSmallIntegerField(choices=Level.choices, default=Level.REFEREE)
    assigned_referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One dispute at a time per game: what makes the automatic opening idempotent.
            models.UniqueConstraint(
                fields=["game"],
                condition=~models.Q(state="closed"),
                name="dispute_one_open_per_game",
                violation_error_message="This game already has an open dispute.",
            ),
            models.CheckConstraint(
                condition=models.Q(level__gte=1, level__lte=3), name="dispute_level_1_to_3"
            ),
        ]

    def __str__(self) -> str:
        return f"Dispute {self.pk} ({self.kind}) on game {self.game_id}"

    @property
    def is_closed(self) -> bool:
        return self.state == DisputeState.CLOSED


class Ruling(models.Model):
    """One level's decision; each is kept, the last one stands."""

    dispute = models.ForeignKey(Dispute, on_delete=models.CASCADE, related_name="rulings")
    level = models.PositiveSmallIntegerField(choices=Level.choices)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    decision = models.CharField(max_length=10, choices=Decision.choices)
    reasons = models.TextField()
    result = models.CharField(max_length=20, blank=True, help_text="SGF RE string, if set")
    moves = models.JSONField(default=list, blank=True, help_text="dead stones: the continuation")
    # {"base": game before the first ruling, "before": game before this one,
    #  "after": game after it, "changed": bool}; each {"result", "sgf", "dead_stones"}.
    effect = models.JSONField(default=dict, blank=True)
    # Committee rulings: every member's vote when the majority was reached.
    votes = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["level", "id"]
        constraints = [
            models.UniqueConstraint(fields=["dispute", "level"], name="ruling_one_per_level")
        ]

    def __str__(self) -> str:
        return f"{self.get_level_display()} ruling on dispute {self.dispute_id}: {self.decision}"


class CommitteeVote(models.Model):
    dispute = models.ForeignKey(Dispute, on_delete=models.CASCADE, related_name="votes")
    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decision = models.CharField(max_length=10, choices=Decision.choices)
    result = models.CharField(max_length=20, blank=True)
    moves = models.JSONField(default=list, blank=True)
    reasons = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["dispute", "member"], name="vote_one_per_member")
        ]

    def __str__(self) -> str:
        return f"vote of {self.member_id} on dispute {self.dispute_id}: {self.decision}"


class RulingAcceptance(models.Model):
    """A party accepts a ruling: he will not appeal it (``dispute_accept``)."""

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="acceptances")
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["ruling", "player"], name="acceptance_one_per_party")
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} accepts ruling {self.ruling_id}"
