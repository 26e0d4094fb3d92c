"""Admin behaviour every app's admin shares; mix these in before ``admin.ModelAdmin``.

``ReadOnlyAdminMixin``: rows only services write.  ``ServiceRefusalAdminMixin``:
a service's refusal shown as messages on the same page, not a 500 (``refusals``
names what counts).  ``changed_values`` and ``saved_nothing``: what a form changed,
for the service, and read-only inlines that save nothing.  docs/operations.md §4.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponseRedirect

if TYPE_CHECKING:
    _ModelAdmin = admin.ModelAdmin[Any]
else:
    _ModelAdmin = object


class ReadOnlyAdminMixin(_ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ServiceRefusalAdminMixin(_ModelAdmin):
    refusals: tuple[type[Exception], ...] = (ValidationError,)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> Any:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except self.refusals as exc:
            reasons = exc.messages if isinstance(exc, ValidationError) else [str(exc)]
            for message in reasons:
                self.message_user(request, message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())


def changed_values(form: forms.ModelForm[Any], names: tuple[str, ...]) -> dict[str, Any]:
    """The cleaned values of ``names`` the user changed on ``form``: a service's keywords."""
    return {n: form.cleaned_data[n] for n in names if n in form.changed_data}


def saved_nothing(formsets: Any) -> None:
    """Read-only inlines: tell the admin's change message that nothing changed."""
    for formset in formsets:
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
