"""The migration that gave each entry its event's spelling: an older spelling kept whole
("family given") is split where the player's own names say."""

from __future__ import annotations

import importlib

split = importlib.import_module("games.migrations.0012_season_names").split


def test_an_old_spelling_is_split_where_the_players_names_say() -> None:
    assert split("LUO Wenyong", "Luo", "Wenyong") == ("LUO", "Wenyong")
    assert split("van der Berg Jan", "Van der Berg", "Jan") == ("van der Berg", "Jan")
    assert split("De Vries Jan Willem", "de Vries", "J.") == ("De Vries", "Jan Willem")
    assert split("Other Name", "Smith", "John") == ("Other", "Name")
