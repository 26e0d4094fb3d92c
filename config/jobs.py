"""``GET /api/v1/jobs/{id}/``: a background job's progress, for whoever may see it.

In the root because it reads two apps: the job (ops) and, for a job that
works on a tournament, that tournament's directors (games).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Tournament
from ops.api import NOT_FOUND, JobSerializer
from ops.models import Job
from ops.users import is_authenticated


def can_see_job(user: Any, job: Job) -> bool:
    """Its creator, superusers, and the directors of the tournament it works on (a
    re-score's or a pairing's ``tournament``, a recompute's ``from_tournament``).  Staff
    status alone (every director in the admin has it) shows no other tournament's jobs."""
    if not is_authenticated(user):
        return False
    if user.is_superuser or job.created_by_id == user.pk:
        return True
    params = job.params or {}
    tournament_id = params.get("tournament", params.get("from_tournament"))
    if not isinstance(tournament_id, int) or isinstance(tournament_id, bool):
        return False
    return Tournament.objects.filter(pk=tournament_id, directors=user).exists()


class JobView(APIView):
    """A background job (a re-score, a recompute, a congress-size pairing): its state,
    progress and, once done, its result."""

    @extend_schema(responses={200: JobSerializer, **NOT_FOUND})
    def get(self, request: Request, pk: int) -> Response:
        job = get_object_or_404(Job, pk=pk)
        if not can_see_job(request.user, job):
            raise exceptions.NotFound()
        return Response(JobSerializer(job, context={"request": request}).data)
