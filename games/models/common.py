"""Choices and checks the models share."""

from __future__ import annotations

from django.db import models
from django.db.models import F
from django.db.models.functions import Round as RoundFn  # the model Round shadows the name
from django.db.models.lookups import Exact

from games.engine.rules import PRESETS

RULES_CHOICES = [(name, name) for name in PRESETS]


def _half_points(field: str, name: str) -> models.CheckConstraint:
    """``field`` is a whole number of half points (6.5 yes, 6.3 no)."""
    return models.CheckConstraint(
        condition=Exact(F(field) * 2, RoundFn(F(field) * 2)),
        name=name,
        violation_error_message="Komi must be a whole number of half points, such as 6.5 or 7.",
    )
