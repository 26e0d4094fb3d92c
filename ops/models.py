"""Rows that describe goref's own running state, not Go data."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from django.conf import settings
from django.db import models
from knox.models import AuthToken, AuthTokenManager


class WorkerHeartbeat(models.Model):
    """A Celery worker's last sign of life, written by ``ops.worker`` every few seconds.

    In the database, not asked of the broker: the file-system transport has no
    broadcast for ``celery inspect ping``, and ``/healthz`` must work with either.
    """

    hostname = models.CharField(max_length=200, unique=True)
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    last_seen = models.DateTimeField(db_index=True)
    # ``ops.worker.process_identity`` of each process that may hold a claim.
    children = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return self.hostname


class JobState(models.TextChoices):
    PENDING = "pending", "pending"
    RUNNING = "running", "running"
    DONE = "done", "done"
    FAILED = "failed", "failed"


class Job(models.Model):
    """A long background job (a tournament re-score, a rating recompute, a congress-size
    pairing) and its progress."""

    kind = models.CharField(max_length=40)
    state = models.CharField(max_length=10, choices=JobState.choices, default=JobState.PENDING)
    params = models.JSONField(default=dict, blank=True)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    # What a job answers once done, for whoever may see the job (a pairing's games).
    result = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # What a coalescing job covers ("all" for a rating recompute): the database keeps at
    # most one pending job per (kind, scope), so a burst of requests cannot queue two.
    scope = models.CharField(max_length=60, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "scope"],
                condition=models.Q(state="pending") & ~models.Q(scope=""),
                name="job_one_pending_per_scope",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.state})"

    @property
    def percent(self) -> int:
        return 100 if not self.total else round(100 * (self.done + self.failed) / self.total)


class TurnKey(models.Model):
    """One row per name two writers must take turns on (``ops.conflicts.take_turns_on``):
    a writer upserts the row, so a second one waits on its row lock until the first
    commits.  Rows, not advisory locks: an import of thousands of players would fill
    PostgreSQL's shared lock table."""

    key = models.CharField(max_length=200, primary_key=True)

    def __str__(self) -> str:
        return self.key


class AuditAction(StrEnum):
    """Every action name the audit trail holds, declared once: services write them and
    the trails match them by these names (a test refuses one written inline)."""

    CLUB_CREATED = "club.created"
    CLUB_UPDATED = "club.updated"

    DEAD_STONES_DISPUTED = "dead_stones.disputed"
    DEAD_STONES_MARKING_CHANGED = "dead_stones.marking_changed"
    DEAD_STONES_REVIEW_CLOSED = "dead_stones.review_closed"
    DEAD_STONES_REVIEW_OPENED = "dead_stones.review_opened"

    DISPUTE_ACCEPTED = "dispute.accepted"
    DISPUTE_APPEALED = "dispute.appealed"
    DISPUTE_ASSIGNED = "dispute.assigned"
    DISPUTE_CLOSED = "dispute.closed"
    DISPUTE_KIND_CHANGED = "dispute.kind_changed"
    DISPUTE_NOT_OPENED_LOCKED = "dispute.not_opened_locked"
    DISPUTE_OPENED = "dispute.opened"
    DISPUTE_RULED = "dispute.ruled"
    DISPUTE_VOTE = "dispute.vote"

    ENTRY_ADDED = "entry.added"
    ENTRY_CHANGED = "entry.changed"
    ENTRY_PAIR_ADDED = "entry.pair_added"
    ENTRY_PARTICIPATION = "entry.participation"
    ENTRY_REMOVED = "entry.removed"
    ENTRY_TABLE_PINNED = "entry.table_pinned"
    ENTRY_WITHDRAWN = "entry.withdrawn"

    GAME_CODES_GUESSED = "game.codes_guessed"
    GAME_DEAD_STONES_AGREED = "game.dead_stones_agreed"
    GAME_DISPUTE_SETTLED = "game.dispute_settled"
    GAME_COUNTER_CLAIMED = "game.counter_claimed"
    GAME_EVEN_GAME_CHOSEN = "game.even_game_chosen"
    GAME_FINALISED = "game.finalised"
    GAME_RECORD_REPLACED = "game.record_replaced"
    GAME_RESULT_CORRECTED = "game.result_corrected"
    GAME_RESULT_ENTERED = "game.result_entered"
    GAME_RESULT_BY_CODE = "game.result_by_code"
    GAME_RESULT_RULED = "game.result_ruled"
    GAME_UNPAIRED = "game.unpaired"

    PLAYER_ACCOUNT_LINKED = "player.account_linked"
    PLAYER_CREATED = "player.created"
    PLAYER_DUPLICATE_FLAGGED = "player.duplicate_flagged"
    PLAYER_DUPLICATE_KEPT_APART = "player.duplicate_kept_apart"
    PLAYER_MERGED = "player.merged"
    PLAYER_HONORARY_AWARDED = "player.honorary_awarded"
    PLAYER_INVITED = "player.invited"
    PLAYER_RANK_CORRECTED = "player.rank_corrected"
    PLAYER_UPDATED = "player.updated"
    PLAYER_PROMOTED = "player.promoted"
    PLAYER_DEMOTED = "player.demoted"

    PROMOTION_REJECTED = "promotion.rejected"

    PROMOTION_POLICY_ACTIVATED = "promotion_policy.activated"
    PROMOTION_POLICY_CHANGED = "promotion_policy.changed"
    PROMOTION_POLICY_CREATED = "promotion_policy.created"
    PROMOTION_POLICY_DEACTIVATED = "promotion_policy.deactivated"

    RATING_ENTRY_GRADE_RESET = "rating.entry_grade_reset"
    RATING_LIST_IMPORTED = "rating.list_imported"

    RATINGS_HELD = "ratings.held"
    RATINGS_HOLD_RELEASED = "ratings.hold_released"
    RATINGS_RECOMPUTE_REQUESTED = "ratings.recompute_requested"

    ROUND_PAIRED = "round.paired"
    ROUND_TABLES_MOVED = "round.tables_moved"

    TEAM_CREATED = "team.created"
    TEAM_LINEUP_SET = "team.lineup_set"

    TOURNAMENT_CLOSED = "tournament.closed"
    TOURNAMENT_CREATED = "tournament.created"
    TOURNAMENT_CUP_SET = "tournament.cup_set"
    TOURNAMENT_CUP_THROUGH = "tournament.cup_through"
    TOURNAMENT_IMPORTED = "tournament.imported"
    TOURNAMENT_OFFICIALS_CHANGED = "tournament.officials_changed"
    TOURNAMENT_OFFICIALS_SET = "tournament.officials_set"
    TOURNAMENT_PAIRING_PARAMS = "tournament.pairing_params"
    TOURNAMENT_REFEREES_SET = "tournament.referees_set"
    TOURNAMENT_SETTINGS_CHANGED = "tournament.settings_changed"
    TOURNAMENT_STARTED = "tournament.started"
    TOURNAMENT_TEAMS_SET = "tournament.teams_set"
    TOURNAMENT_UPDATED = "tournament.updated"

    USER_PASSWORD_CHANGED = "user.password_changed"
    USER_FEDERATION_OFFICIAL_GRANTED = "user.federation_official_granted"
    USER_FEDERATION_OFFICIAL_REVOKED = "user.federation_official_revoked"
    USER_DIRECTOR_GRANTED = "user.director_granted"


class AuditEntry(models.Model):
    """One judgement or setting change, with who made it and the values before and after.

    Written by every app's services through ``ops.audit.audit_record``; only ever added.
    """

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=60, db_index=True)
    # The object concerned, by label and primary key ("games.game", 17), so the
    # trail outlives the rows it describes.
    object_type = models.CharField(max_length=60)
    object_id = models.CharField(max_length=40)
    object_repr = models.CharField(max_length=200, blank=True)
    old_value = models.JSONField(null=True, blank=True)
    new_value = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        # The table and index keep the names they had when the trail lived in
        # the referee app: the model moved, the rows did not.
        db_table = "referee_auditentry"
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["object_type", "object_id"], name="referee_aud_object__e803df_idx")
        ]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.object_repr}"


class ApiTokenManager(AuthTokenManager):  # type: ignore[misc]  # knox ships no type hints
    def get_queryset(self) -> models.QuerySet[Any]:
        return super().get_queryset().select_related("user")  # type: ignore[no-any-return]


class ApiToken(AuthToken):  # type: ignore[misc]  # knox ships no type hints
    """knox's token (same table), read with its user.  knox reads tokens through
    ``REST_KNOX["TOKEN_MODEL"]``, which names this proxy: its own check then finds a token
    and its user in one query (``ops.auth``).  Not ``KNOX_TOKEN_MODEL``, which would swap
    knox's table out."""

    objects = ApiTokenManager()

    class Meta:
        proxy = True
