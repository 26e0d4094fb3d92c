"""The tournament day: entries, check-in, settings, pairing, rounds, standings and the
federations' files, on top of the result side (games, results, disputes, re-scoring).

``engine/`` is pure (standard library only): a tournament as plain values, its standings,
pairing and file formats.  ``services/`` is the day's one write path, ``selectors.py`` its
reads, ``views.py``, ``admin.py`` and ``api/`` its pages, admin and REST API.  The result
side never imports this package; the day calls it through ``games.services`` only
(docs/tournaments.md, "Where the code lives").
"""
