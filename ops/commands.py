"""What the management commands that read a file share: the file, bounded, and a
service's refusal as one line."""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError


def read_file(path: Path, max_bytes: int) -> bytes:
    """The file's bytes, or a ``CommandError`` naming it (missing, unreadable, too big)."""
    try:
        if path.stat().st_size > max_bytes:
            raise CommandError(f"{path}: larger than {max_bytes} bytes.")
        return path.read_bytes()
    except OSError as e:
        raise CommandError(f"{path}: {e.strerror}.") from None


def error_text(exc: ValidationError) -> str:
    """A ``ValidationError``'s messages as one sentence, each under its field's name."""
    if hasattr(exc, "error_dict"):
        return " ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())
    return " ".join(exc.messages)
