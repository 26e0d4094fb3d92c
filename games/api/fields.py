"""Input fields that games' and the referee's API serializers share."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers


def sgf_field(help_text: str) -> serializers.CharField:
    """An SGF record sent as text, kept byte for byte; optional."""
    return serializers.CharField(
        required=False,
        allow_blank=True,
        allow_null=True,
        trim_whitespace=False,
        max_length=settings.GOREF_SGF_MAX_BYTES,
        help_text=help_text,
    )


def points_field(help_text: str, *, max_length: int = 625, **kwargs: Any) -> serializers.ListField:
    """A list of board points ("D4", "dd") or moves ("pass"); optional."""
    return serializers.ListField(
        child=serializers.CharField(max_length=4),
        required=False,
        max_length=max_length,
        help_text=help_text,
        **kwargs,
    )
