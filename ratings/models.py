"""Ratings as rows: the current rating, the per-tournament history, the runs that wrote them.

Every row but ``HonoraryTitle`` is computed, and a recompute may rewrite it.
The honorary 9p+ is a director's decision (docs/ratings.md §1), kept apart so
no recompute touches it.  The promotion rows below are decisions too.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from games.models import Player, Tournament
from ratings.promotion.engine import PolicyError
from ratings.promotion.engine import PromotionPolicy as PolicyValue
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
    # The promotion evaluation that follows a done run (``ratings.promotion.evaluation``):
    # when it was last published, and when it completed.  ``ratings.sweep`` queues it
    # again for a done run not evaluated yet (its on-commit publish may have failed).
    promotions_queued_at = models.DateTimeField(null=True, blank=True)
    promotions_evaluated_at = models.DateTimeField(null=True, blank=True)
    events = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    players = models.PositiveIntegerField(default=0)
    history_rows = models.PositiveIntegerField(default=0)
    note = models.TextField(blank=True)
    error = models.TextField(blank=True)
    # Locked games of rated events the run left out, each {"game": id, "reason": ...}:
    # more than 9 stones, or a handicap past the formula's pole.
    not_rated = models.JSONField(default=list, blank=True)

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
    # The rating before an EGD entry-grade reset lifted it to ``rating_before``; null: no reset.
    reset_from = models.FloatField(null=True, blank=True)
    algorithm = models.CharField(max_length=20)
    version = models.CharField(max_length=20)
    run = models.ForeignKey(
        RatingRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["event_date", "tournament_id", "player_id"]
        verbose_name_plural = "rating histories"
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
    """The honorary 9p+ (WGA 9x9 rules): awarded by a director with a reason, never by a rating."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="honorary_title")
    reason = models.TextField()
    awarded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    awarded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"9p+ {self.player_id}"


# --------------------------------------------------------------------------- promotions
#
# Unlike the rows above, these are decisions and their record: a recompute
# never deletes them.  The criteria themselves are the pure ``ratings.promotion.engine``.


class PromotionPolicy(models.Model):
    """A promotion policy: ``params`` is ``ratings.promotion.engine.PromotionPolicy.to_dict()``.

    ``tournament`` empty: the federation-wide default; set: that tournament's own
    policy, which applies to the players whose latest rated event it was.  At most
    one active default and one active policy per tournament (constraints); the
    service ``promotion_policy_activate`` swaps them in one transaction.
    """

    name = models.CharField(max_length=100)
    tournament = models.ForeignKey(
        Tournament,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="promotion_policies",
        help_text="Empty: the federation-wide default.",
    )
    # blank: ``{}`` is a whole policy (every parameter at its default).
    params = models.JSONField(blank=True, help_text="The policy as JSON (see README, Promotions).")
    active = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament_id", "-active", "name", "id"]
        verbose_name_plural = "promotion policies"
        constraints = [
            models.UniqueConstraint(
                fields=["active"],
                condition=models.Q(active=True, tournament__isnull=True),
                name="promotionpolicy_one_active_default",
                violation_error_message="Another federation-wide default policy is active.",
            ),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=models.Q(active=True),
                name="promotionpolicy_one_active_per_tournament",
                violation_error_message="This tournament already has an active policy.",
            ),
        ]

    def __str__(self) -> str:
        scope = (
            "federation default"
            if self.tournament_id is None
            else f"tournament {self.tournament_id}"
        )
        return f"{self.name} ({scope}{', active' if self.active else ''})"

    def clean(self) -> None:
        """A parameter the engine cannot use is refused with the engine's own message."""
        if self.params is None:  # unreadable JSON: the field's own error says so
            return
        try:
            PolicyValue.from_dict(self.params)
        except PolicyError as exc:
            raise ValidationError({"params": str(exc)}) from None

    @property
    def is_default(self) -> bool:
        return self.tournament_id is None


class RankMove:
    """``old_rank`` → ``new_rank`` read as ``Rank`` values (a candidate, a rank change)."""

    old_rank: int
    new_rank: int

    @property
    def old_rank_value(self) -> Rank:
        return Rank(self.old_rank)

    @property
    def new_rank_value(self) -> Rank:
        return Rank(self.new_rank)


class Direction(models.TextChoices):
    PROMOTE = "promote", "promotion"
    DEMOTE = "demote", "demotion"


class CandidateState(models.TextChoices):
    PENDING = "pending", "pending"
    APPROVED = "approved", "approved"
    REJECTED = "rejected", "rejected"


class PromotionCandidate(RankMove, models.Model):
    """A rank change a policy proposes after a rated event; a director approves or rejects it.

    ``idempotency_key`` (``Decision.idempotency_key``: player, new rank, trigger
    event) is unique, so evaluating the same history again adds nothing.
    """

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="promotion_candidates"
    )
    old_rank = models.SmallIntegerField(choices=RANK_CHOICES)
    new_rank = models.SmallIntegerField(choices=RANK_CHOICES)
    direction = models.CharField(max_length=8, choices=Direction.choices)
    criterion = models.CharField(max_length=200)
    evidence = models.JSONField(default=dict, help_text="events, games, detail")
    trigger_tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    policy = models.ForeignKey(
        PromotionPolicy,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Empty: the built-in default (no policy row was active).",
    )
    state = models.CharField(
        max_length=8, choices=CandidateState.choices, default=CandidateState.PENDING
    )
    idempotency_key = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True, help_text="Why it was rejected.")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["state", "trigger_tournament"], name="candidate_state")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.old_rank_value} → {self.new_rank_value} ({self.state})"


class RankChangeKind(models.TextChoices):
    PROMOTION = "promotion", "promotion"
    DEMOTION = "demotion", "demotion"
    HONORARY = "honorary", "honorary 9p+"
    CORRECTION = "correction", "declared rank corrected"


class RankChange(RankMove, models.Model):
    """One change of a player's official rank (``Player.declared_rank``): the rank history.

    ``since`` is what the promotion engine calls ``rank_since``: the end date of
    the event that earned the rank (a promotion), or the day a director set it.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rank_changes")
    old_rank = models.SmallIntegerField(choices=RANK_CHOICES)
    new_rank = models.SmallIntegerField(choices=RANK_CHOICES)
    kind = models.CharField(max_length=10, choices=RankChangeKind.choices)
    since = models.DateField()
    changed_at = models.DateTimeField(auto_now_add=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    evidence = models.JSONField(default=dict, blank=True)
    candidate = models.OneToOneField(
        PromotionCandidate,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rank_change",
    )
    tournament = models.ForeignKey(
        Tournament,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The event that earned it (promotions and demotions).",
    )
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-changed_at", "-id"]
        indexes = [
            models.Index(fields=["player", "since", "id"], name="rankchange_player"),
            models.Index(fields=["kind", "changed_at"], name="rankchange_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.old_rank_value} → {self.new_rank_value} ({self.kind})"


class RatingList(models.Model):
    """A federation's published rating list as last imported (docs/ratings.md, "Rating
    lists"): one per source; a newer list replaces its entries and records what changed."""

    source = models.CharField(
        max_length=3, unique=True, choices=[("egd", "EGD"), ("ffg", "FFG"), ("aga", "AGA")]
    )
    published = models.DateField()
    imported_at = models.DateTimeField(auto_now=True)
    entries_count = models.PositiveIntegerField(default=0)
    # What the last import changed: {"added": n, "removed": n, "rating_changed": n}.
    changes = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["source"]

    def __str__(self) -> str:
        return f"{self.get_source_display()} list of {self.published}"


class RatingListEntry(models.Model):
    """One player of a published list, as the list prints him."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="entries")
    federation_id = models.CharField(max_length=10, blank=True, db_index=True)
    family_name = models.CharField(max_length=80)
    given_name = models.CharField(max_length=80, blank=True)
    name_key = models.CharField(max_length=170, db_index=True)
    rank = models.SmallIntegerField(choices=RANK_CHOICES, null=True, blank=True)
    rating = models.IntegerField(null=True, blank=True, help_text="GoR scale (EGD, FFG).")
    list_rating = models.CharField(max_length=12, blank=True, help_text="As the list prints it.")
    club = models.CharField(max_length=10, blank=True)
    country = models.CharField(max_length=2, blank=True)
    # The list's line as read: what goref made of it (names, club) can be checked against it.
    raw_line = models.TextField(blank=True)

    class Meta:
        ordering = ["name_key", "id"]
        verbose_name_plural = "rating list entries"

    def __str__(self) -> str:
        return f"{self.family_name} {self.given_name}".strip()


class RatingListToken(models.Model):
    """One word of a list entry's name as ``name_key`` folds it: search-as-you-type finds
    the entries with a word starting with each word typed by a range on this indexed
    column, on PostgreSQL without extensions and on SQLite (docs/ratings.md, "Rating
    lists").  Written and deleted with the list's entries (``ratings.lists``)."""

    # Derived rows, written and deleted only with their list's entries: no database
    # constraint to check 200,000 times at the import's commit.  The words go with their
    # list (one DELETE by list); DO_NOTHING on the entry, so that the entries go in one
    # DELETE too rather than being fetched to cascade.
    rating_list = models.ForeignKey(
        RatingList, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    entry = models.ForeignKey(
        RatingListEntry,
        on_delete=models.DO_NOTHING,
        related_name="+",
        db_constraint=False,
        db_index=False,  # the second index below starts with it
    )
    token = models.CharField(max_length=170)

    class Meta:
        # By word prefix (the search walks one word's range), and by entry then word (each
        # further word typed is one probe of that entry's words, not a walk of its range).
        indexes = [
            models.Index(fields=["token", "entry"], name="ratinglist_token_prefix"),
            models.Index(fields=["entry", "token"], name="ratinglist_token_entry"),
        ]

    def __str__(self) -> str:
        return self.token


class HoldReason(models.TextChoices):
    NOT_OWN = "not_own", "entered only by a director who is not the player's"
    PAST = "past", "a past rated event imported by a director"


class RatingHold(models.Model):
    """A rated tournament's games kept from the ratings until someone with the right
    releases them (docs/ratings.md, "Held from the ratings"): one player's games
    (``player``) or the whole event's (``player`` null)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    reason = models.CharField(max_length=8, choices=HoldReason.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    released_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    released_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "id"]
        verbose_name = "held rated game"
        verbose_name_plural = "held rated games"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=models.Q(player__isnull=False),
                name="rating_hold_one_per_player",
            ),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=models.Q(player__isnull=True),
                name="rating_hold_one_per_event",
            ),
        ]

    def __str__(self) -> str:
        who = "every player" if self.player_id is None else str(self.player)
        return f"{self.tournament}: {who} held"
