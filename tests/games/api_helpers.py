"""Assertions shared by the API tests."""

from __future__ import annotations

from typing import Any


def assert_error(response: Any, status: int, *fields: str) -> dict[str, Any]:
    """The response is an error of ``status`` in the agreed shape, naming ``fields``."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert set(body) == {"message", "extra"}, body
    assert isinstance(body["message"], str) and body["message"]
    if fields:
        assert set(fields) <= set(body["extra"]["fields"]), body
    return body
