"""One error shape for the whole API: ``{"message": ..., "extra": {...}}``.

``message`` is a sentence a person can act on; ``extra.fields`` maps field
names to their messages for validation errors.  Django's ValidationError
raised by a service becomes a 400 in the same shape, so services can
validate once for forms and the API alike.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


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
