#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        # Importing config loads the settings (the Celery app reads them).
        from config.startup import run_manage
    except Exception as exc:
        env = sys.modules.get("config.env")
        if env is not None and isinstance(exc, env.ConfigError):
            # A malformed setting: the line that names it, not a traceback.
            print(f"goref: {exc}", file=sys.stderr)
            raise SystemExit(1) from None
        raise
    # An unreachable database is one line too (DATABASE_URL, config/startup.py).
    run_manage(sys.argv)


if __name__ == "__main__":
    main()
