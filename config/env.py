"""Small, strict parsers for settings read from the environment.

A malformed value stops start-up with a message naming the variable, rather
than running with a guess (healthchecks' ``envbool``/``envint`` style).
"""

from __future__ import annotations

import os
import re
from pathlib import Path


class ConfigError(Exception):
    """A setting in the environment is malformed or missing."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(
        f"{name}={raw!r} is not a boolean: use one of 1/0, true/false, yes/no, on/off"
    )


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise ConfigError(f"{name}={value} must be at least {minimum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",")]
    if any(not item for item in items):
        raise ConfigError(f"{name}={raw!r} has an empty entry: use a comma-separated list")
    return items


def check_url(name: str, value: str, schemes: tuple[str, ...]) -> str:
    scheme = value.split("://", 1)[0] if "://" in value else ""
    if scheme not in schemes:
        raise ConfigError(
            f"{name}={value!r} is not a valid URL: expected a scheme among {', '.join(schemes)}"
        )
    return value


_SITE = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


def site_name(given: str, database_name: str) -> str:
    """The site's prefix (``GOREF_SITE``): ``given`` if set, else the database's name
    (a SQLite file's stem), lower-cased, anything but letters, digits, ``_`` and ``-``
    made ``-``."""
    if given:
        if not _SITE.fullmatch(given):
            raise ConfigError(
                f"GOREF_SITE={given!r}: use 1-40 lower-case letters, digits, '_' or '-', "
                "starting with a letter or digit"
            )
        return given
    stem = Path(database_name).stem if "/" in database_name else database_name
    derived = re.sub(r"[^a-z0-9_-]", "-", stem.lower()).strip("-_")[:40]
    return derived or "goref"
