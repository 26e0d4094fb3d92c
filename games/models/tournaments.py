"""Tournaments, their entries and rounds."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q

from games.models.common import RULES_CHOICES, _half_points
from games.models.people import Player
from ratings.ranks import RANK_CHOICES

SYSTEM_CHOICES = [
    ("mcmahon", "McMahon"),
    ("swiss", "Swiss"),
    ("swiss_cat", "Swiss with categories"),
    ("round_robin", "round robin"),
    ("cup", "cup (knock-out)"),
]


# X: a class the EGD does not rate (OpenGotha's name for an event below class D).
EGF_CLASS_CHOICES = [(c, c) for c in "ABCDX"]


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
    # McMahon policy (OpenGotha's, docs/tournaments.md "Settings"): the rank (or McMahon
    # score) difference less ``handicap_correction``, capped, none above the threshold.
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
    short_name = models.CharField(max_length=100, blank=True)
    director_name = models.CharField(max_length=200, blank=True)  # as the file names him
    # OpenGotha's time attributes, a setting (docs/tournaments.md, "Time system").
    time_system = models.JSONField(default=dict, blank=True)
    # The file's display and publishing options (OpenGotha's DPParameterSet, ...), written back.
    file_options = models.JSONField(default=dict, blank=True)
    # A cup's seeding and options, and who went through an undecided game (services/cups.py).
    cup = models.JSONField(default=dict, blank=True)
    # A team event's team size and six placement criteria (OpenGotha's
    # TeamTournamentParameterSet); empty: the event has no team parameters.
    team_params = models.JSONField(default=dict, blank=True)
    # Started: round 1 has games, or the director started it (entries: corrections).
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
    """A player's registration in one tournament: what stands for the whole event, copied
    from the player when he is entered, then a director's to correct (docs/tournaments.md)."""

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
    # The name this event gives him, which its exports write (docs/tournaments.md).
    family_name = models.CharField(max_length=80, blank=True)
    given_name = models.CharField(max_length=80, blank=True)
    # Where the rating came from, as OpenGotha writes it ("EGF", "FFG : -520", ...), whole.
    rating_origin = models.CharField(max_length=100, blank=True)
    # What the file gave that goref does not use (licence status, grade, ...), written back.
    file_values = models.JSONField(default=dict, blank=True)
    # A director's fixed table for him in every round; null: the pairing numbers it.
    table_pin = models.PositiveSmallIntegerField(null=True, blank=True)
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
