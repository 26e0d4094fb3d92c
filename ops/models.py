"""Rows that describe goref's own running state, not Go data."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class WorkerHeartbeat(models.Model):
    """A Celery worker's last sign of life, written by ``ops.worker`` every few seconds.

    Kept in the database rather than asked of the broker, so ``/healthz`` can
    tell whether a worker is up with either broker (the file-system transport
    has no broadcast for ``celery inspect ping``).
    """

    hostname = models.CharField(max_length=200, unique=True)
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    last_seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.hostname


class JobState(models.TextChoices):
    PENDING = "pending", "pending"
    RUNNING = "running", "running"
    DONE = "done", "done"
    FAILED = "failed", "failed"


class Job(models.Model):
    """A long background job (a tournament re-score, a rating recompute) and its progress."""

    kind = models.CharField(max_length=40)
    state = models.CharField(max_length=10, choices=JobState.choices, default=JobState.PENDING)
    params = models.JSONField(default=dict, blank=True)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.state})"

    @property
    def percent(self) -> int:
        return 100 if not self.total else round(100 * (self.done + self.failed) / self.total)
