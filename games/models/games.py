"""Games, their results and the submissions that led to them."""

from __future__ import annotations

import secrets
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Greatest, Least

from games.engine.result import Reason, Result
from games.engine.rules import jigo_possible
from games.engine.types import Color
from games.models.common import RULES_CHOICES, _half_points
from games.models.people import Player
from games.models.tournaments import Round, Tournament


class GameState(models.TextChoices):
    SCHEDULED = "scheduled", "scheduled"
    SUBMITTED = "submitted", "submitted"
    CONFIRMED = "confirmed", "confirmed"
    DISPUTED = "disputed", "disputed"
    FINAL = "final", "final"


# Confirmed by both players, or finalised by a director: the result can never change.
LOCKED_STATES = frozenset({GameState.CONFIRMED, GameState.FINAL})


def report_key_new() -> str:
    return secrets.token_hex(16)


class ResultReason(models.TextChoices):
    SCORE = "score", "score"
    RESIGNATION = "resignation", "resignation"
    TIME = "time", "time"
    FORFEIT = "forfeit", "forfeit"
    DRAW = "draw", "draw"
    VOID = "void", "void"
    # OpenGotha's RESULT_BOTHWIN: both players score the win (docs/tournaments.md, "Files").
    BOTH_WIN = "both_win", "both win"


RATED_REASONS = (ResultReason.SCORE, ResultReason.RESIGNATION, ResultReason.TIME, ResultReason.DRAW)


"""Results the ratings count: a forfeit or a void game says nothing about strength."""


class Winner(models.TextChoices):
    BLACK = "B", "Black"
    WHITE = "W", "White"


MAX_RATED_HANDICAP = 9


"""The most stones a rated game may have: the EGD rates no game past 9 (docs/ratings.md)."""


class Game(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    black = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="games_as_black")
    white = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="games_as_white")
    handicap = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(25)])
    # New Zealand Rules: under a 0.5-stone rating difference the players may choose
    # an even game instead of one stone; null when that choice did not arise.
    even_game_chosen = models.BooleanField(null=True, blank=True)
    komi = models.DecimalField(max_digits=4, decimal_places=1)
    rules = models.CharField(max_length=20, choices=RULES_CHOICES)
    # False when a tournament file did not record who had which colour (OpenGotha's
    # knownColor): the exports write it back (knownColor="false", "?" in an .h9 cell).
    known_color = models.BooleanField(default=True)
    # The SGF record as submitted (text), and what the engine said about it.
    sgf = models.TextField(blank=True)
    sgf_warnings = models.JSONField(default=list, blank=True)
    # Dead stones in letters-and-numbers form ("D4"), as agreed or marked.
    dead_stones = models.JSONField(default=list, blank=True)
    result_winner = models.CharField(max_length=1, choices=Winner.choices, blank=True)
    result_margin = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    result_reason = models.CharField(max_length=12, choices=ResultReason.choices, blank=True)
    # The player whose claim the current result is; null when a director entered
    # it (or there is no result yet).  Confirming and contesting are the other
    # player's moves, so the services need to know whose claim it is.
    result_submitted_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    state = models.CharField(
        max_length=10, choices=GameState.choices, default=GameState.SCHEDULED, db_index=True
    )
    locked_at = models.DateTimeField(null=True, blank=True)
    # The random key the slip's report codes are derived from (games.services.codes).
    report_key = models.CharField(max_length=32, default=report_key_new, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round__number", "table", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(black=F("white")),
                name="game_player_cannot_play_himself",
                violation_error_message="A player cannot play himself.",
            ),
            models.UniqueConstraint(
                Least("black", "white"),
                Greatest("black", "white"),
                "round",
                name="game_one_per_pairing_per_round",
                violation_error_message="These two players already have a game in this round.",
            ),
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=Q(table__isnull=False),
                name="game_one_per_table_per_round",
                violation_error_message="That table already has a game in this round.",
            ),
            _half_points("komi", "game_komi_half_points"),
            models.CheckConstraint(
                condition=Q(result_margin__isnull=True) | Q(result_margin__gt=0),
                name="game_margin_positive",
            ),
            # A locked game always says when it was locked, and only a locked game does.
            models.CheckConstraint(
                condition=(
                    Q(state__in=[GameState.CONFIRMED, GameState.FINAL], locked_at__isnull=False)
                    | (
                        ~Q(state__in=[GameState.CONFIRMED, GameState.FINAL])
                        & Q(locked_at__isnull=True)
                    )
                ),
                name="game_locked_at_iff_locked",
                violation_error_message="A game has a lock time exactly when its result is locked.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.black} (B) – {self.white} (W), round {self.round.number}"

    @property
    def is_locked(self) -> bool:
        return self.state in LOCKED_STATES

    @property
    def jigo_possible(self) -> bool:
        """Whether the komi allows a level count (a whole number): where a jigo is offered."""
        return jigo_possible(Decimal(self.komi))

    @property
    def result(self) -> Result | None:
        """The recorded result as an engine value, or ``None`` if none is recorded."""
        if not self.result_reason or self.result_reason == ResultReason.BOTH_WIN:
            return None
        winner = Color.from_letter(self.result_winner) if self.result_winner else None
        return Result(winner, Reason(self.result_reason), self.result_margin)

    @property
    def result_display(self) -> str:
        if self.result_reason == ResultReason.BOTH_WIN:
            return "both win"
        result = self.result
        return result.to_sgf() if result is not None else ""

    @property
    def not_rated_reason(self) -> str:
        """Why this game's result cannot reach the ratings, or "" if it can."""
        if not self.tournament.rated:
            return "the tournament is not rated"
        if self.black.is_pair or self.white.is_pair:
            return "a pair go or rengo game is not rated"
        if self.handicap > MAX_RATED_HANDICAP:
            return (
                f"{self.handicap} handicap stones: no game with more than "
                f"{MAX_RATED_HANDICAP} is rated"
            )
        if self.result_reason and self.result_reason not in RATED_REASONS:
            return f"a result by {self.get_result_reason_display().lower()} is not rated"
        return ""


class SubmissionKind(models.TextChoices):
    SUBMIT = "submit", "submitted by a player"
    CONFIRM = "confirm", "confirmed by the opponent"
    CONTEST = "contest", "contested by the opponent"
    DIRECTOR = "director", "entered by a director"
    FINALISE = "finalise", "finalised by a director"


class ResultSubmission(models.Model):
    """Every claim made about a game's result, in order: who, when, what."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="submissions")
    kind = models.CharField(max_length=10, choices=SubmissionKind.choices)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The player on whose behalf it was made; null for a director's entry.
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    result = models.CharField(max_length=20, blank=True, help_text="SGF RE string")
    sgf = models.TextField(blank=True)
    dead_stones = models.JSONField(default=list, blank=True)
    comment = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["game", "kind"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.result} ({self.game_id})"
