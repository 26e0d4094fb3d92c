"""goref's Go rules engine: boards, rules presets, legality, scoring, SGF.

Standard library only: nothing here may import Django, DRF or Celery
(``tests/engine/test_isolation.py`` checks it in a fresh interpreter).
"""
