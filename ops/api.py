"""``/api/v1/jobs/{id}/``: a background job's progress."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from games.api.serializers import ErrorSerializer
from ops.models import Job


class JobSerializer(serializers.ModelSerializer[Job]):
    url = serializers.SerializerMethodField()
    # Plain text, not an enum: the OpenAPI schema has several "state" choice sets.
    state = serializers.CharField(read_only=True, help_text="pending, running, done or failed.")

    class Meta:
        model = Job
        fields = ["id", "kind", "state", "done", "total", "failed", "url", "created_at",
                  "finished_at"]  # fmt: skip
        read_only_fields = fields

    def get_url(self, obj: Job) -> str:
        return str(reverse("api-job", kwargs={"pk": obj.pk}, request=self.context.get("request")))


def can_see_job(user: Any, job: Job) -> bool:
    """Its creator, staff, and the directors of the tournament it works on."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or user.is_superuser or job.created_by_id == user.pk:
        return True
    tournament_id = (job.params or {}).get("tournament")
    if not isinstance(tournament_id, int):
        return False
    from games.models import Tournament

    return Tournament.objects.filter(pk=tournament_id, directors=user).exists()


class JobView(APIView):
    """A background job (a tournament re-score): its state and progress."""

    @extend_schema(
        responses={
            200: JobSerializer,
            404: OpenApiResponse(ErrorSerializer, description="Unknown id, or not visible to you."),
        }
    )
    def get(self, request: Request, pk: int) -> Response:
        job = get_object_or_404(Job, pk=pk)
        if not can_see_job(request.user, job):
            raise exceptions.NotFound()
        return Response(JobSerializer(job, context={"request": request}).data)
