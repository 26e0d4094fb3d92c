"""ratings 0010 fills the search's words table for the lists stored before it: a list
imported under 0009 is found by the new search at once, without importing it again."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ratings.lists import search_lists
from ratings.models import RatingListToken

BEFORE = [("ratings", "0009_rating_lists")]


@pytest.fixture
def back_to_the_latest() -> Iterator[None]:
    """Put the whole schema back for the tests that run after."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_a_list_stored_before_the_words_table_is_searched_after_it(
    back_to_the_latest: None,
) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = MigrationExecutor(connection).loader.project_state(BEFORE).apps
    listed = old.get_model("ratings", "RatingList").objects.create(
        source="egd", published=datetime.date(2026, 11, 1)
    )
    entries = old.get_model("ratings", "RatingListEntry").objects
    entries.create(
        rating_list=listed,
        federation_id="12345678",
        family_name="Müller",
        given_name="Jörg",
        name_key="jorg muller",
    )
    entries.create(rating_list=listed, family_name="Mull", given_name="Anna", name_key="anna mull")

    # 0010 fills the words; the later migrations come too, so that today's models (read
    # by the search) match the schema.
    after = MigrationExecutor(connection)
    after.migrate(after.loader.graph.leaf_nodes())

    assert set(RatingListToken.objects.values_list("token", flat=True)) == {
        "jorg",
        "muller",
        "anna",
        "mull",
    }
    assert [e.family_name for e in search_lists("jörg mül")] == ["Müller"]
    assert {e.family_name for e in search_lists("mull")} == {"Müller", "Mull"}
