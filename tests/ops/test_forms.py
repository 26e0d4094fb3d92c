"""The one helper that shows a service's ``ValidationError`` on a web form."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from ops.forms import apply_service_errors


class _Form(forms.Form):
    name = forms.CharField(required=False)
    upload = forms.CharField(required=False)


def _form() -> _Form:
    form = _Form({})
    assert form.is_valid()
    return form


def test_each_message_goes_on_its_field_and_unknown_keys_on_the_form_with_the_key():
    form = _form()
    exc = ValidationError({"name": ["Too short."], "white": ["Taken."], "__all__": ["No."]})
    apply_service_errors(form, exc)
    assert form.errors["name"] == ["Too short."]
    assert form.non_field_errors() == ["white: Taken.", "No."]


def test_fields_send_a_key_to_another_field_or_to_the_form_unprefixed():
    form = _form()
    exc = ValidationError({"sgf": ["Bad record."], "committee": ["Three members."]})
    apply_service_errors(form, exc, fields={"sgf": "upload", "committee": None})
    assert form.errors["upload"] == ["Bad record."]
    assert form.non_field_errors() == ["Three members."]


def test_a_list_error_goes_on_the_form():
    form = _form()
    apply_service_errors(form, ValidationError(["One.", "Two."]))
    assert form.non_field_errors() == ["One.", "Two."]
