"""goref's Go rules engine: boards, rules presets, legality, scoring, SGF.

Standard library only: nothing here may import Django, DRF or Celery
(``tests/test_pure_isolation.py`` checks it in a fresh interpreter).
"""

# Bumped whenever a change to the engine can change a replay or a count, so
# stored results can say which engine produced them.
ENGINE_VERSION = "2"  # 2: dead stones estimated when none are given or marked
