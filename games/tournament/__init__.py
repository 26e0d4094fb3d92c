"""A tournament as plain values: entrants, games, settings; standings and pairing.

Standard library only (``tests/test_pure_isolation.py`` checks it).
"""
