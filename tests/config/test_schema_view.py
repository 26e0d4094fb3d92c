"""/api/schema/ is built once per process, so concurrent first requests cannot race."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.test import Client

from config.schema import SchemaView

pytestmark = pytest.mark.django_db(transaction=True)


def test_concurrent_first_requests_all_get_the_schema_built_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(SchemaView, "_built", {})
    built = []
    original = SchemaView.generator_class.get_schema

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        built.append(threading.get_ident())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SchemaView.generator_class, "get_schema", counting)
    statuses: list[int] = []
    start = threading.Barrier(6)

    def fetch() -> None:
        start.wait()
        statuses.append(Client().get("/api/schema/?format=json").status_code)

    threads = [threading.Thread(target=fetch) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert statuses == [200] * 6
    assert len(built) == 1


def test_the_kept_schema_is_the_generated_one(client: Client) -> None:
    first = client.get("/api/schema/?format=json").json()
    again = client.get("/api/schema/?format=json").json()
    assert first == again
    assert "/api/v1/games/{id}/result/" in first["paths"]
