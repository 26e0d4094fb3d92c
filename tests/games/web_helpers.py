"""Helpers for the web-page tests: log a persona in by fixture name."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

ROLES = ("public", "player", "director", "referee", "outsider")


def client_for(request: pytest.FixtureRequest, role: str) -> Client:
    """A client logged in as ``role`` (``public`` is anonymous; ``player`` is Alice)."""
    client = Client()
    if role == "public":
        return client
    name = "alice" if role == "player" else role
    persona: Any = request.getfixturevalue(name)
    user = persona.user if role == "player" else persona
    client.force_login(user)
    return client
