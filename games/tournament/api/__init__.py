"""``/api/v1/tournaments/``: tournaments, their settings, entries, standings, files and
round pairing."""
