"""Input fields shared by every app's API serializers and forms.

Ids typed by a user (a filter such as ``?tournament=``, a player id in a
form) are bounded by what the database can hold: an id past 2**63 - 1 is a
400 naming the field, never an overflow deep in the database driver (a 500).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

MAX_ID = 2**63 - 1  # BIGINT on PostgreSQL, INTEGER on SQLite


class IdField(serializers.IntegerField):
    """A row id in an API request: a whole number from 1 to ``MAX_ID``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)
