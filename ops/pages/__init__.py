"""The page cache, one concern in one place (the picture: docs/operations.md, "The page cache").

- ``cache``: version names bumped after a write commits, entries kept under them;
- ``warming``: the entries a worker rebuilds after a bump, and the flags readers wait on;
- ``responses`` and ``fragments``: whole visitor pages and ``{% versioned_cache %}`` fragments;
- ``compress``: pages gzipped once, when cached;
- ``api``: the visitors' fast path for API lookups, and the check that keeps it public;
- ``backends``: the shared cache on Redis and the per-process ``versioned`` cache.

What each app's writes bump and which of its pages are warmed stay in the app:
``games.cache`` (the version names) and ``games.tournament.pages`` (the warmed pages).
"""
