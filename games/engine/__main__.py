"""``python -m games.engine``: see ``games.engine.cli`` for commands and exit codes."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
