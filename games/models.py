"""Tournaments, players, rounds, games and result submissions.

Invariants the database can hold are constraints here; the services in
``games.services`` enforce the rest and are the only code that writes these rows.
A locked result is never changed again (docs/games.md, "The life of a game").
"""

from __future__ import annotations

import secrets
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Greatest, Least
from django.db.models.functions import Round as RoundFn  # the model Round shadows the name
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

from games.choices import EGF_CLASS_CHOICES, LANGUAGE_CHOICES, RULES_CHOICES, SYSTEM_CHOICES
from games.engine.result import Reason, Result
from games.engine.rules import jigo_possible
from games.engine.types import Color
from games.people.engine.federation_ids import AGA_ID, EGD_PIN, FFG_LICENCE, NZGS_ID
from games.people.engine.names import display_name, name_key
from ratings.ranks import RANK_CHOICES, Rank


def _half_points(field: str, name: str) -> models.CheckConstraint:
    """``field`` is a whole number of half points (6.5 yes, 6.3 no)."""
    return models.CheckConstraint(
        condition=Exact(F(field) * 2, RoundFn(F(field) * 2)),
        name=name,
        violation_error_message="Komi must be a whole number of half points, such as 6.5 or 7.",
    )


class Club(models.Model):
    name = models.CharField(max_length=100)
    # EGD club codes are up to four characters (as in the EGD rating list).
    code = models.CharField(max_length=4, blank=True)
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166 alpha-2 code")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["name", "country"], name="club_unique_name_country")
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    family_name = models.CharField(max_length=80)
    given_name = models.CharField(max_length=80, blank=True)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL)
    country = models.CharField(
        max_length=2,
        blank=True,
        validators=[RegexValidator(r"^[A-Z]{2}$", "Use a two-letter country code such as NZ.")],
    )
    egd_pin = models.CharField(
        EGD_PIN.label,
        max_length=EGD_PIN.max_length,
        null=True,
        blank=True,
        unique=True,
        validators=[RegexValidator(r"^\d{8}$", "An EGD PIN has exactly 8 digits.")],
    )
    aga_id = models.CharField(
        AGA_ID.label, max_length=AGA_ID.max_length, null=True, blank=True, unique=True
    )
    ffg_licence = models.CharField(
        FFG_LICENCE.label, max_length=FFG_LICENCE.max_length, null=True, blank=True, unique=True
    )
    nzgs_id = models.CharField(
        NZGS_ID.label, max_length=NZGS_ID.max_length, null=True, blank=True, unique=True
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    # The only address an invitation to an account goes to; written by a federation
    # official or the player's own directors (games.permissions.can_invite_player).
    email = models.EmailField(blank=True, help_text="Invitations to an account go here only.")
    # The nonce of the one invitation link that works (cleared when it is accepted).
    invitation_nonce = models.CharField(max_length=32, blank=True, editable=False)
    # Signed ladder index (ratings.ranks): 30k = -30 … 1k = -1, 1d = 0 … 9d = 8, 9p+ = 9.
    declared_rank = models.SmallIntegerField(choices=RANK_CHOICES)
    # The name as imports compare it (games.people.engine.names.name_key): kept in step by save().
    name_key = models.CharField(max_length=170, blank=True, db_index=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["family_name", "given_name", "id"]
        indexes = [models.Index(fields=["family_name", "given_name"])]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.family_name, self.given_name)
        fields = kwargs.get("update_fields")
        if fields is not None and {"family_name", "given_name"} & set(fields):
            kwargs["update_fields"] = {*fields, "name_key"}
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return display_name(self.family_name, self.given_name)

    @property
    def rank(self) -> Rank:
        return Rank(self.declared_rank)


class Tournament(models.Model):
    name = models.CharField(max_length=200)
    start_date = models.DateField()
    end_date = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    rules = models.CharField(max_length=20, choices=RULES_CHOICES, default="japanese")
    board_size = models.PositiveSmallIntegerField(
        default=19, validators=[MinValueValidator(2), MaxValueValidator(25)]
    )
    komi = models.DecimalField(max_digits=4, decimal_places=1, default=Decimal("6.5"))
    time_control = models.CharField(max_length=100, blank=True)
    rated = models.BooleanField(default=True)
    # Handicap policy (ratings.handicap): nz = rating difference rounded up (New
    # Zealand Rules), egf = grade difference minus a reduction, none = even games.
    handicap_policy = models.CharField(
        max_length=8,
        choices=[
            ("nz", "New Zealand"),
            ("egf", "European"),
            ("mcmahon", "McMahon (OpenGotha)"),
            ("none", "none (even games)"),
        ],
        default="nz",
    )
    handicap_cap = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MaxValueValidator(25)],
        help_text="Largest handicap; empty for the default (9, or 5 on 9x9 and smaller).",
    )
    handicap_reduction = models.PositiveSmallIntegerField(
        default=0, help_text="European policy: stones taken off the grade difference."
    )
    # McMahon policy (OpenGotha's handicap parameters, docs/tournaments.md "Settings"):
    # the rank (or McMahon score) difference less ``handicap_correction``, up to the cap,
    # and none above ``handicap_threshold``.
    handicap_correction = models.SmallIntegerField(
        default=1, validators=[MinValueValidator(-3), MaxValueValidator(9)]
    )
    handicap_threshold = models.SmallIntegerField(
        choices=RANK_CHOICES, default=0, help_text="No handicap above this rank."
    )
    handicap_based_on_mms = models.BooleanField(
        default=True, help_text="McMahon policy: from the McMahon scores, not the ranks."
    )
    # Empty: the policy's convention (docs/tournaments.md, "Komi in handicap games").
    handicap_komi = models.DecimalField(
        "komi in handicap games",
        max_digits=4,
        decimal_places=1,
        null=True,
        blank=True,
        help_text="Empty for the handicap policy's convention: 0.5 under the McMahon and "
        "European policies (handicap 1 included); New Zealand: 0 with one stone, the "
        "rules' handicap komi from two.",
    )

    # ----- the event (docs/tournaments.md, "Settings"); OpenGotha's defaults per system.
    system = models.CharField(max_length=12, choices=SYSTEM_CHOICES, default="mcmahon")
    number_of_rounds = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(64)]
    )
    mm_bar = models.SmallIntegerField("McMahon bar", choices=RANK_CHOICES, default=3)
    mm_floor = models.SmallIntegerField("McMahon floor", choices=RANK_CHOICES, default=-20)
    # Points for a round without a game, doubled so halves stay whole numbers.
    nbw2_absent = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(2)])
    nbw2_bye = models.PositiveSmallIntegerField(default=2, validators=[MaxValueValidator(2)])
    mms2_absent = models.PositiveSmallIntegerField(default=1, validators=[MaxValueValidator(2)])
    mms2_bye = models.PositiveSmallIntegerField(default=2, validators=[MaxValueValidator(2)])
    round_down = models.BooleanField(
        default=True, help_text="Round the accumulated absent and bye points down."
    )
    count_not_played_as_half = models.BooleanField(
        default=False, help_text="A round without a game counts half a point in SOS."
    )
    criteria = models.JSONField(default=list, blank=True, help_text="Placement criteria, in order.")
    category_limits = models.JSONField(
        default=list, blank=True, help_text="Rank indexes where a lower category starts."
    )
    egf_class = models.CharField(
        "EGF tournament class", max_length=1, choices=EGF_CLASS_CHOICES, default="A"
    )
    pairing_params = models.JSONField(default=dict, blank=True)
    language = models.CharField(max_length=8, choices=LANGUAGE_CHOICES, default="en")
    short_name = models.CharField(max_length=100, blank=True)
    director_name = models.CharField(
        max_length=100, blank=True, help_text="The director named in the tournament file."
    )
    # The file's time system (OpenGotha's GeneralParameterSet attributes basicTime,
    # complementaryTimeSystem, ...): kept verbatim for the exports (docs/tournaments.md).
    time_system = models.JSONField(default=dict, blank=True)
    # Started: round 1 has games, or the director started it; entry ranks are frozen.
    started_at = models.DateTimeField(null=True, blank=True)
    # Closed by a director: its games reach the ratings (docs/tournaments.md, "Lifecycle").
    closed_at = models.DateTimeField(null=True, blank=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="directed_tournaments"
    )
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="refereed_tournaments"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")),
                name="tournament_ends_after_it_starts",
                violation_error_message="The end date cannot be before the start date.",
            ),
            models.CheckConstraint(
                condition=Q(board_size__gte=2, board_size__lte=25),
                name="tournament_board_size_2_to_25",
            ),
            _half_points("komi", "tournament_komi_half_points"),
            _half_points("handicap_komi", "tournament_handicap_komi_half_points"),
            models.CheckConstraint(
                condition=~Q(egf_class="X") | Q(rated=False),
                name="tournament_class_x_not_rated",
                violation_error_message="A class X tournament is not rated: unset rated first.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def is_started(self) -> bool:
        return self.started_at is not None


class Presence(models.TextChoices):
    """A player's part in one round (one letter per round in ``participation``)."""

    PLAY = "p", "playing"
    ABSENT = "a", "absent"
    BYE = "b", "bye"


class TournamentEntry(models.Model):
    """A player's registration in one tournament: what stands for the whole event.

    Rank, rating, club and country are copied from the player when he is entered and
    frozen once the tournament starts (docs/tournaments.md, "Entries").
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    rank = models.SmallIntegerField(choices=RANK_CHOICES)
    # The rating at entry (whole points of the rating system's scale); null: unrated.
    rating = models.IntegerField(null=True, blank=True)
    club = models.CharField(max_length=100, blank=True)
    country = models.CharField(max_length=2, blank=True)
    final = models.BooleanField(default=True, help_text="False: a preliminary registration.")
    smms_correction = models.SmallIntegerField(
        "McMahon start-score correction",
        default=0,
        validators=[MinValueValidator(-9), MaxValueValidator(9)],
    )
    # The name as the tournament file spelt it, when that differs from the player's.
    file_name = models.CharField(max_length=170, blank=True)
    # Where the rating came from, as OpenGotha writes it (EGF, FFG, AGA, INI, ...).
    rating_origin = models.CharField(max_length=8, blank=True)
    # One letter per round from round 1 (Presence); a round past the end is "playing".
    participation = models.CharField(
        max_length=64,
        blank=True,
        default="",
        validators=[RegexValidator(r"^[pab]*$", "Participation is a string of p, a and b.")],
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "player__family_name", "player__given_name", "player_id"]
        verbose_name_plural = "tournament entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="entry_one_per_player",
                violation_error_message="This player is already entered in this tournament.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    def presence(self, round_number: int) -> str:
        """The player's part in round ``round_number`` (a ``Presence`` value)."""
        k = round_number - 1
        return self.participation[k] if k < len(self.participation) else Presence.PLAY


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    date = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — round {self.number}"


class GameState(models.TextChoices):
    SCHEDULED = "scheduled", _("scheduled")
    SUBMITTED = "submitted", _("submitted")
    CONFIRMED = "confirmed", _("confirmed")
    DISPUTED = "disputed", _("disputed")
    FINAL = "final", _("final")


# Confirmed by both players, or finalised by a director: the result can never change.
LOCKED_STATES = frozenset({GameState.CONFIRMED, GameState.FINAL})


def report_key_new() -> str:
    return secrets.token_hex(16)


class ResultReason(models.TextChoices):
    SCORE = "score", _("score")
    RESIGNATION = "resignation", _("resignation")
    TIME = "time", _("time")
    FORFEIT = "forfeit", _("forfeit")
    DRAW = "draw", _("draw")
    VOID = "void", _("void")
    # OpenGotha's RESULT_BOTHWIN: both players score the win (docs/tournaments.md, "Files").
    BOTH_WIN = "both_win", _("both win")


RATED_REASONS = (ResultReason.SCORE, ResultReason.RESIGNATION, ResultReason.TIME, ResultReason.DRAW)
"""Results the ratings count: a forfeit or a void game says nothing about strength."""


class Winner(models.TextChoices):
    BLACK = "B", _("Black")
    WHITE = "W", _("White")


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
        if self.handicap > MAX_RATED_HANDICAP:
            return (
                f"{self.handicap} handicap stones: no game with more than "
                f"{MAX_RATED_HANDICAP} is rated"
            )
        if self.result_reason and self.result_reason not in RATED_REASONS:
            return f"a result by {self.get_result_reason_display().lower()} is not rated"
        return ""


class DuplicateState(models.TextChoices):
    OPEN = "open", "to review"
    APART = "apart", "kept apart"
    MERGED = "merged", "merged"


class PossibleDuplicate(models.Model):
    """Two players an import could not tell apart: a person decides (docs/tournaments.md,
    "One person across events"); ``player`` is the newer record."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=300)
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    state = models.CharField(
        max_length=8, choices=DuplicateState.choices, default=DuplicateState.OPEN, db_index=True
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["state", "-created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "other"], name="duplicate_one_per_pair"),
            models.CheckConstraint(condition=~Q(player=F("other")), name="duplicate_two_players"),
        ]

    def __str__(self) -> str:
        return f"{self.player} / {self.other}"


class SubmissionKind(models.TextChoices):
    SUBMIT = "submit", _("submitted by a player")
    CONFIRM = "confirm", _("confirmed by the opponent")
    CONTEST = "contest", _("contested by the opponent")
    DIRECTOR = "director", _("entered by a director")
    FINALISE = "finalise", _("finalised by a director")


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


# --------------------------------------------------------------------------- re-scoring
# What the engine made of a game's submitted record: one run per (game, rules
# preset, engine version); a new record, result or dead-stone list resets it
# (docs/operations.md, re-scoring runs).  Written only by games.services.scoring
# and scoring_worker.


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
