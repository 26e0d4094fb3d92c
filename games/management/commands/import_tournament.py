"""``manage.py import_tournament FILE``: a tournament file (OpenGotha XML, EGF .h9, FFG .tou
or AGA results, told apart by its content) becomes a new tournament; the last line printed is
``{"tournament": ID, "players": N, "games": M, "linked": L, "created": C, "review": R}``:
players linked to goref's, created, and pairs queued for review as possible duplicates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.tournament.services.files import tournament_import
from ops.commands import error_text, read_file

MAX_BYTES = 20_000_000


class Command(BaseCommand):
    help = "Import an OpenGotha, EGF (.h9), FFG (.tou) or AGA results file as a new tournament."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--name", default="", help="The tournament's name (default: the file's)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        data = read_file(path, MAX_BYTES)
        try:
            result = tournament_import(actor=None, data=data, name=options["name"])
        except ValidationError as e:
            raise CommandError(f"{path}: {error_text(e)} Nothing was imported.") from None
        self.stdout.write(
            f"{result.players} players: {result.linked} linked, {result.new_players} created, "
            f"{result.review} queued for review"
            + (f" ({result.review_url})." if result.review else ".")
        )
        self.stdout.write(
            json.dumps(
                {
                    "tournament": result.tournament.pk,
                    "players": result.players,
                    "games": result.games,
                    "linked": result.linked,
                    "created": result.new_players,
                    "review": result.review,
                }
            )
        )
