"""People: clubs, players, and the pairs of records that may be one person."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import F, Q

from games.people.engine.federation_ids import AGA_ID, EGD_PIN, FFG_LICENCE, NZGS_ID
from games.people.engine.names import name_key
from ratings.ranks import RANK_CHOICES, Rank


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
    # A pair go pair or rengo team plays as one player; its members are ``PairMember``
    # rows, and its games are never rated (docs/tournaments.md, "Pair go and rengo").
    is_pair = models.BooleanField(default=False, db_index=True)
    # Signed ladder index (ratings.ranks): 30k = -30 … 1k = -1, 1d = 0 … 9d = 8, 9p+ = 9.
    declared_rank = models.SmallIntegerField(choices=RANK_CHOICES)
    # Ids a file gave him that another player holds (docs/tournaments.md, "One person").
    claimed_ids = models.JSONField(default=dict, blank=True, editable=False)
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
        return f"{self.family_name} {self.given_name}".strip()

    @property
    def rank(self) -> Rank:
        return Rank(self.declared_rank)


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
        "games.Tournament", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
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


class PairMember(models.Model):
    """One member of a pair go pair or rengo team (``Player.is_pair``), in playing order."""

    pair = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="pair_members")
    member = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="pairs")
    order = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["pair", "order"]
        constraints = [
            models.UniqueConstraint(fields=["pair", "member"], name="pair_member_once"),
            models.UniqueConstraint(fields=["pair", "order"], name="pair_member_one_per_place"),
        ]

    def __str__(self) -> str:
        return f"{self.member} in {self.pair}"
