"""``manage.py evaluate_promotions [--tournament ID ...]``: propose promotions now.

The same evaluation the ratings job queues after each run; without
``--tournament`` every rated player is evaluated.  Safe to run any number of
times: candidates already made are not made again.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Tournament
from ratings.promotion.evaluation import promotions_evaluate


class Command(BaseCommand):
    help = "Evaluate the promotion policies and add the missing promotion candidates."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--tournament",
            type=int,
            action="append",
            dest="tournaments",
            metavar="ID",
            help="Only the players of this tournament (repeatable). Default: every rated player.",
        )

    def handle(self, *args: Any, tournaments: list[int] | None = None, **options: Any) -> None:
        if tournaments:
            known = set(Tournament.objects.filter(pk__in=tournaments).values_list("pk", flat=True))
            missing = sorted(set(tournaments) - known)
            if missing:
                raise CommandError(f"There is no tournament with id {missing[0]}.")
        result = promotions_evaluate(tournament_ids=tournaments)
        self.stdout.write(
            f"{result.players} player(s) evaluated, {result.decisions} decision(s), "
            f"{result.created} new candidate(s)."
        )
