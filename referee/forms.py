"""Web forms of the referee desk.  They read input; the services judge it.

The ruling form carries only what the dispute's kind can use: a result for the kinds
that set one, the continuation for dead stones, neither for a repetition (its remedy
is fixed by the New Zealand Rules; a result may still be named once play has finished).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from ops.forms import apply_service_errors
from referee.models import Decision, DisputeKind, TournamentOfficials
from referee.selectors import AgreedMarking
from referee.services import RESULT_KINDS, officials_check

_SEPARATORS = re.compile(r"[\s,;]+")


def _items(text: str) -> list[str]:
    return [item for item in _SEPARATORS.split(text or "") if item]


class DisputeForm(forms.Form):
    kind = forms.ChoiceField(choices=DisputeKind.choices)
    move_number = forms.IntegerField(
        required=False, min_value=1, help_text="The move the claim is about, where one applies."
    )
    claim = forms.CharField(max_length=4000, widget=forms.Textarea(attrs={"rows": 4, "cols": 60}))
    sgf = forms.CharField(
        label="Record so far (SGF)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 60, "spellcheck": "false"}),
        help_text="Only when the game has no record stored yet.",
    )
    stones = forms.CharField(
        required=False,
        max_length=2000,
        help_text="Dead stones in dispute, such as C5 B5 (default: those submitted as dead).",
    )

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "kind": data["kind"],
            "move_number": data.get("move_number"),
            "claim": data.get("claim", ""),
            "sgf": data.get("sgf") or None,
            "stones": _items(data.get("stones", "")) or None,
        }


class KindForm(forms.Form):
    """What the dispute is about, as the referee sees it (before the first ruling)."""

    kind = forms.ChoiceField(choices=DisputeKind.choices, label="What the dispute is about")


class RulingForm(forms.Form):
    decision = forms.ChoiceField(choices=Decision.choices, widget=forms.RadioSelect)
    reasons = forms.CharField(max_length=4000, widget=forms.Textarea(attrs={"rows": 4, "cols": 60}))
    result = forms.CharField(
        label="Result (RE)",
        max_length=20,
        required=False,
        help_text="Such as W+T, B+R, B+F or B+6.5.",
    )
    moves = forms.CharField(
        label="Moves played out",
        required=False,
        max_length=4000,
        help_text="The owner of the stones first, alternating: C5 B4 pass B6 ...",
    )

    def __init__(
        self,
        *args: Any,
        kind: str,
        outcomes: dict[str, str] | None = None,
        agreed: AgreedMarking | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind
        if outcomes:  # each choice says the result it leads to (referee.selectors)
            field = self.fields["decision"]
            assert isinstance(field, forms.ChoiceField)
            field.choices = [
                (value, outcomes.get(value, label)) for value, label in Decision.choices
            ]
        if kind != DisputeKind.DEAD_STONES:
            del self.fields["moves"]
        if kind == DisputeKind.DEAD_STONES:
            del self.fields["result"]  # the engine counts the played-out position
            if agreed is not None:
                self.fields["moves"].help_text = (
                    f"Leave empty to rule the count with the stones both players marked dead "
                    f"({' '.join(agreed.stones) or 'none'}): {agreed.count}. Or the owner of "
                    "the stones first, alternating: C5 B4 pass B6 ..."
                )
        elif kind in RESULT_KINDS:
            self.fields["result"].help_text = "Required when upheld: " + str(
                self.fields["result"].help_text
            )
        elif kind == DisputeKind.ILLEGAL_MOVE:
            self.fields["result"].help_text = "Optional; B+F or W+F when there is no record."
        else:
            self.fields["result"].help_text = "Optional: the result once play has finished."

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        out: dict[str, Any] = {"decision": data["decision"], "reasons": data["reasons"]}
        if "result" in self.fields:
            out["result"] = data.get("result") or None
        if "moves" in self.fields:
            out["moves"] = _items(data.get("moves", ""))
        return out


class UsernameField(forms.ModelChoiceField[Any]):
    """A user typed by username (no list of every account in the page)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(
            queryset=get_user_model().objects.all(),
            to_field_name="username",
            widget=forms.TextInput(attrs={"size": 20, "autocomplete": "off"}),
            error_messages={"invalid_choice": "No user with that username."},
            **kwargs,
        )


COMMITTEE = TournamentOfficials.COMMITTEE_FIELDS


class OfficialsFields(forms.Form):
    """The chief referee and the committee by username; checked as the service checks them
    (``officials_check``), so a refusal shows on the form and nothing is saved."""

    chief_referee = UsernameField(help_text="Hears appeals of the referees' rulings.")
    committee_1 = UsernameField(label="Committee member 1")
    committee_2 = UsernameField(label="Committee member 2")
    committee_3 = UsernameField(
        label="Committee member 3",
        help_text="Three different people, not the chief referee; leave all three empty for none.",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors:
            try:
                officials_check(chief_referee=data.get("chief_referee"), committee=self.committee())
            except ValidationError as exc:
                apply_service_errors(self, exc, fields=self.error_fields())
        return data

    def error_fields(self) -> dict[str, str | None]:
        """The service's ``committee`` errors are the whole committee's: on the form."""
        return {"committee": None}

    def committee(self) -> list[Any]:
        return [self.cleaned_data.get(n) for n in COMMITTEE if self.cleaned_data.get(n)]

    def service_kwargs(self) -> dict[str, Any]:
        return {
            "chief_referee": self.cleaned_data.get("chief_referee"),
            "committee": self.committee(),
        }


def officials_initial(officials: TournamentOfficials | None) -> dict[str, str]:
    """The form's initial values: the officials' usernames."""
    if officials is None:
        return {}
    names = ("chief_referee", *COMMITTEE)
    users = {n: getattr(officials, n) for n in names}
    return {n: u.get_username() for n, u in users.items() if u is not None}
