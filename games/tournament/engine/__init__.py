"""A tournament as plain values: entrants, rounds, games, settings; its standings and its files.

Pure package (standard library only): the database converts into ``model.Event``, and the
standings, pairing and file modules work on that.  The definitions follow OpenGotha 3.5x
(docs/tournaments.md).
"""
