"""The invitation page: a player invited by e-mail creates his account (or links the one
he is logged in with).  The rules live in ``games.services.invitations``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.services.invitations import invitation_read, player_invitation_accept
from ops.forms import apply_service_errors
from ops.services import StateConflict, is_authenticated


class NewAccountForm(forms.Form):
    username = forms.CharField(max_length=150, label="User name")
    password = forms.CharField(widget=forms.PasswordInput, label="Password", strip=False)
    password_again = forms.CharField(
        widget=forms.PasswordInput, label="Password again", strip=False
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password") != data.get("password_again"):
            self.add_error("password_again", "The two passwords differ.")
        return data


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    try:
        invitation = invitation_read(token)
    except ValidationError as exc:
        return render(
            request, "registration/invitation.html", {"refused": exc.messages}, status=400
        )
    logged_in = is_authenticated(request.user)
    form = None if logged_in else NewAccountForm(request.POST or None)
    if request.method == "POST" and (form is None or form.is_valid()):
        try:
            if form is None:
                player_invitation_accept(token=token, user=request.user)
            else:
                user = player_invitation_accept(
                    token=token,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password"],
                )
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        except StateConflict as exc:
            return render(
                request, "registration/invitation.html", {"refused": [str(exc)]}, status=409
            )
        except ValidationError as exc:
            if form is None:
                return render(
                    request, "registration/invitation.html", {"refused": exc.messages}, status=400
                )
            apply_service_errors(form, exc)
        else:
            messages.success(request, f"Your account is now {invitation.player.full_name}'s.")
            return redirect("games:player", invitation.player.pk)
    return render(
        request,
        "registration/invitation.html",
        {"invitation": invitation, "form": form, "logged_in": logged_in},
    )
