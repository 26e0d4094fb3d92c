"""The audit trail moved from the referee app to ops without moving a row."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ops.models import AuditEntry

BEFORE = [("ops", "0001_initial"), ("referee", "0003_ruling_acceptance")]
AFTER = [("ops", "0002_auditentry"), ("referee", "0004_auditentry_to_ops")]


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


@pytest.fixture
def back_to_the_latest() -> Iterator[None]:
    """Migrating back to ops 0001 unapplies every later migration that needs it (in ops
    and in other apps): put the whole schema back for the tests that run after."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_rows_content_type_and_permissions_survive_the_move(back_to_the_latest: None) -> None:
    old_state = _migrate(BEFORE).loader.project_state(BEFORE).apps
    OldEntry = old_state.get_model("referee", "AuditEntry")
    OldEntry.objects.create(action="game.finalised", object_type="games.game", object_id="7")
    # Migrating back gave the content type (and its permissions) back to the referee app.
    assert not ContentType.objects.filter(app_label="ops", model="auditentry").exists()
    old_type = ContentType.objects.get(app_label="referee", model="auditentry")
    view = Permission.objects.get(content_type=old_type, codename="view_auditentry")

    _migrate(AFTER)

    entry = AuditEntry.objects.get()
    assert (entry.action, entry.object_type, entry.object_id) == (
        "game.finalised",
        "games.game",
        "7",
    )
    moved = ContentType.objects.get(pk=old_type.pk)
    assert (moved.app_label, moved.model) == ("ops", "auditentry")
    assert Permission.objects.get(pk=view.pk).content_type_id == moved.pk
    assert not ContentType.objects.filter(app_label="referee", model="auditentry").exists()
