"""Named personas for tests (filled in by the foundation work)."""
