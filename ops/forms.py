"""What every app's web forms share: a service's ``ValidationError`` shown on the form or
as one sentence, and a row id read from a posted form."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django import forms
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponseRedirect

from ops.commands import error_text
from ops.text import small_number

_FORM_KEYS = ("__all__", "non_field_errors")


def apply_service_errors(
    form: forms.Form, exc: ValidationError, *, fields: Mapping[str, str | None] | None = None
) -> None:
    """Put a service's ``ValidationError`` on the form, each message on its field.

    ``fields`` sends a service's key to another form field, or to ``None`` for
    the form itself.  Other keys the form does not have (``__all__``, model
    fields) become non-field errors, prefixed with the key so nothing is lost.
    """
    if not hasattr(exc, "error_dict"):
        for message in exc.messages:
            form.add_error(None, message)
        return
    fields = fields or {}
    for key, messages in exc.message_dict.items():
        if key in fields:
            target = fields[key]
            prefix = ""
        elif key in form.fields:
            target, prefix = key, ""
        else:
            target, prefix = None, "" if key in _FORM_KEYS else f"{key}: "
        for message in messages:
            form.add_error(target, f"{prefix}{message}")


def refusal_text(e: ValidationError | PermissionDenied) -> str:
    """A service's refusal as one sentence for a page's message."""
    if isinstance(e, PermissionDenied):
        return str(e) or "Not allowed."
    return error_text(e)


def posted_id(request: HttpRequest, name: str, message: str) -> int:
    """A row id posted by the page's form: a ``ValidationError`` saying ``message`` when it
    is not one (a hand-made request), never a 500."""
    number = small_number(request.POST.get(name))
    if number is None:
        raise ValidationError({name: message})
    return number


def answer_post(request: HttpRequest, act: Callable[[], str], back: str) -> HttpResponseRedirect:
    """A page's form posted: ``act()`` runs the write and says what it did (a message), a
    service's refusal becomes an error message instead; either way back to ``back``."""
    from django.contrib import messages

    from ops.services import StateConflict

    try:
        messages.success(request, act())
    except (ValidationError, PermissionDenied, StateConflict) as e:
        messages.error(request, refusal_text(e))
    return HttpResponseRedirect(back)
