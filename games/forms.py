"""Web forms for results.  They read input; the services judge it.

A form turns the request into the service's arguments (the SGF as an upload or as
pasted text); ``apply_service_errors`` puts the service's errors on the fields.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError

# Shown as suggestions (an HTML datalist); any RE string may be typed, e.g. B+6.5.
RESULT_SUGGESTIONS: tuple[tuple[str, str], ...] = (
    ("B+R", "Black wins by resignation"),
    ("W+R", "White wins by resignation"),
    ("B+T", "Black wins on time"),
    ("W+T", "White wins on time"),
    ("B+F", "Black wins by forfeit"),
    ("W+F", "White wins by forfeit"),
    ("0", "Draw (jigo)"),
    ("Void", "Void: no result"),
)


class ResultForm(forms.Form):
    result = forms.CharField(
        max_length=20,
        help_text="B+R, W+R, B+T, W+T, B+F, W+F, 0 (draw), Void, or a score such as B+6.5.",
        widget=forms.TextInput(attrs={"list": "result-choices", "autocomplete": "off"}),
    )
    sgf_file = forms.FileField(
        label="SGF file", required=False, help_text="Upload the record, or paste it below."
    )
    sgf = forms.CharField(
        label="SGF text",
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "cols": 60, "spellcheck": "false"}),
    )
    dead_stones = forms.CharField(
        required=False,
        max_length=2000,
        help_text="Points such as D4 E5 Q16 (columns without I), separated by spaces or commas.",
    )
    comment = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3, "cols": 60})
    )

    suggestions = RESULT_SUGGESTIONS

    def clean_sgf_file(self) -> bytes | None:
        upload = self.cleaned_data.get("sgf_file")
        if not upload:
            return None
        limit = getattr(settings, "GOREF_SGF_MAX_BYTES", 1_000_000)
        if upload.size is not None and upload.size > limit:
            raise ValidationError(f"The file is larger than {limit:,} bytes.")
        data: bytes = upload.read(limit + 1)
        if len(data) > limit:
            raise ValidationError(f"The file is larger than {limit:,} bytes.")
        return data

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("sgf_file") and (data.get("sgf") or "").strip():
            raise ValidationError(
                "Give the record once: upload a file or paste the text, not both."
            )
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """The cleaned input as the service's keyword arguments."""
        d = self.cleaned_data
        sgf: str | bytes | None = d.get("sgf_file") or (d.get("sgf") or "").strip() or None
        return {
            "result": d["result"].strip(),
            "sgf": sgf,
            "dead_stones": (d.get("dead_stones") or "").strip() or None,
            "comment": d.get("comment") or "",
        }

    def error_fields(self) -> dict[str, str]:
        """An ``sgf`` error goes on the upload field when the record came as a file."""
        return {"sgf": "sgf_file"} if self.cleaned_data.get("sgf_file") else {}


class ClaimForm(forms.Form):
    """The claim a confirm or contest answers (a hidden field on the game page)."""

    claim = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)


class ContestForm(ClaimForm):
    reason = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3, "cols": 60})
    )


def result_suggestions(game: Any) -> list[tuple[str, str]]:
    """The results a form offers for ``game``: a jigo only where its komi allows one."""
    return [(v, label) for v, label in RESULT_SUGGESTIONS if v != "0" or game.jigo_possible]
