"""What every app's REST API shares: the error shape, service errors, input parsing, paging.

One error shape, ``{"message": ..., "extra": {"fields": ...}}``: a service's
``ValidationError`` is a 400 and ``StateConflict`` a 409, so services validate
once for forms and the API alike.  Status codes: docs/operations.md §3.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.serializers import BaseSerializer
from rest_framework.views import exception_handler as drf_exception_handler

from ops.conflicts import MESSAGE as RACE_MESSAGE
from ops.conflicts import lost_race
from ops.models import Job
from ops.services import UNSET, StateConflict

# --------------------------------------------------------------------------- the error shape


class ErrorSerializer(serializers.Serializer[Any]):
    """The one error shape of the API: a sentence, and for invalid input the fields."""

    message = serializers.CharField()
    extra = serializers.DictField(
        help_text='For invalid input: {"fields": {name: message}}; otherwise empty.'
    )


def _flatten(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {key: _flatten(value) for key, value in detail.items()}
    if isinstance(detail, list):
        flat = [_flatten(item) for item in detail]
        if all(isinstance(item, str) for item in flat):
            return " ".join(flat)
        return flat
    return str(detail)


def _first_message(fields: dict[str, Any]) -> str:
    for name, value in fields.items():
        text = value if isinstance(value, str) else str(value)
        if name in ("non_field_errors", "__all__"):
            return text
        return f"{name}: {text}"
    return "Invalid input."


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            exc = exceptions.ValidationError(exc.message_dict)
        else:
            exc = exceptions.ValidationError({"non_field_errors": exc.messages})
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, IntegrityError) and lost_race(exc):
        # A race lost on a unique constraint (ops.conflicts): the transaction rolled back.
        exc = Conflict(RACE_MESSAGE)

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    detail: Any = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
    if isinstance(exc, exceptions.ValidationError):
        fields = (
            _flatten(detail) if isinstance(detail, dict) else {"non_field_errors": _flatten(detail)}
        )
        response.data = {"message": _first_message(fields), "extra": {"fields": fields}}
        response.status_code = status.HTTP_400_BAD_REQUEST
    else:
        response.data = {"message": _flatten(detail), "extra": {}}
    return response


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The request conflicts with the current state of the game."
    default_code = "conflict"


@contextmanager
def service_errors(rename: dict[str, str] | None = None) -> Iterator[None]:
    """Translate a service's exceptions to API errors, field names to the API's."""
    try:
        yield
    except StateConflict as e:
        raise Conflict(" ".join(e.messages)) from None
    except DjangoValidationError as e:
        if hasattr(e, "error_dict"):
            fields = {(rename or {}).get(k, k): v for k, v in e.message_dict.items()}
            raise exceptions.ValidationError(fields) from None
        raise exceptions.ValidationError({"non_field_errors": e.messages}) from None
    except DjangoPermissionDenied as e:
        raise exceptions.PermissionDenied(str(e) or None) from None
    except IntegrityError as e:
        if not lost_race(e):
            raise
        raise Conflict(RACE_MESSAGE) from None


def valid(serializer_class: type[BaseSerializer[Any]], data: Any, **kwargs: Any) -> dict[str, Any]:
    if not isinstance(data, dict):  # a JSON list or scalar where an object belongs
        raise exceptions.ValidationError({"non_field_errors": ["Send a JSON object."]})
    ser = serializer_class(data=data, **kwargs)
    ser.is_valid(raise_exception=True)
    return dict(ser.validated_data)


def changes(data: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """Only the fields the client sent (PATCH): the rest stay ``UNSET`` in the service."""
    return {name: data.get(name, UNSET) for name in names}


ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input; extra.fields names them."),
    401: OpenApiResponse(ErrorSerializer, description="Not logged in."),
    403: OpenApiResponse(ErrorSerializer, description="Visible, but not yours to change."),
    404: OpenApiResponse(ErrorSerializer, description="Unknown id, or not visible to you."),
    429: OpenApiResponse(
        ErrorSerializer, description="Too many failed logins: locked out for now."
    ),
}
CONFLICT = {409: OpenApiResponse(ErrorSerializer, description="The object's state forbids it.")}
NOT_FOUND = {404: ERRORS[404]}


# --------------------------------------------------------------------------- paging

# DRF's ``LimitOffsetPagination`` has no ceiling by default and hands any
# offset to the database; a limit or offset of 25 digits overflowed SQLite's
# integers into a 500 (found by fuzzing).  The limit is capped at
# ``max_limit`` and the offset at ``MAX_OFFSET`` (past every real row count,
# so the page is simply empty).
MAX_OFFSET = 2**31 - 1


class Pagination(LimitOffsetPagination):
    max_limit = 1000

    def get_offset(self, request: Request) -> int:
        return min(super().get_offset(request), MAX_OFFSET)


# --------------------------------------------------------------------------- jobs


class JobRefSerializer(serializers.Serializer[Any]):
    """A 202's answer: the job just started, to follow at ``url``."""

    job = serializers.IntegerField()
    status = serializers.CharField(help_text="pending, running, done or failed.")
    url = serializers.CharField(help_text="Follow the job's progress here.")


class JobSerializer(serializers.ModelSerializer[Job]):
    url = serializers.SerializerMethodField()
    # Plain text, not an enum: the OpenAPI schema has several "state" choice sets.
    state = serializers.CharField(read_only=True, help_text="pending, running, done or failed.")
    result = serializers.JSONField(
        read_only=True,
        help_text="The job's answer once it has one: a pairing's is the request's own answer "
        'when done, {"message": the reason} when refused.',
    )

    class Meta:
        model = Job
        fields = [
            "id",
            "kind",
            "state",
            "done",
            "total",
            "failed",
            "result",
            "url",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_url(self, obj: Job) -> str:
        return str(reverse("api-job", kwargs={"pk": obj.pk}, request=self.context.get("request")))
