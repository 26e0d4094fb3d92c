"""People: who a player is across events (docs/games.md, "People").  ``engine`` is pure
(names and their folding, federation ids); ``services`` writes; ``selectors`` reads."""
