"""``manage.py rescore --tournament ID [--rules PRESET] [--wait]``: re-score records.

Runs as the operator, creates the job and queues its chunks like the admin action and
the API; ``--wait`` prints the job's progress until it is done (a worker must run).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.rules import PRESETS
from games.models import Tournament
from games.services.scoring import CHUNK_SIZE, tournament_rescore
from ops.models import Job, JobState


class Command(BaseCommand):
    help = "Re-score every game with a record in a tournament (or under a rules preset)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, help="Tournament id.")
        parser.add_argument("--rules", choices=sorted(PRESETS), help="Every game under a preset.")
        parser.add_argument("--chunk-size", type=int, default=CHUNK_SIZE)
        parser.add_argument("--wait", action="store_true", help="Print progress until done.")
        parser.add_argument("--timeout", type=float, default=3600.0, help="Seconds --wait waits.")
        parser.add_argument("--interval", type=float, default=1.0, help="Seconds between polls.")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = None
        if options["tournament"] is not None:
            tournament = Tournament.objects.filter(pk=options["tournament"]).first()
            if tournament is None:
                raise CommandError(f"There is no tournament {options['tournament']}.")
        if tournament is None and not options["rules"]:
            raise CommandError("Give --tournament ID or --rules PRESET.")
        if options["chunk_size"] < 1:
            raise CommandError("--chunk-size must be at least 1.")
        try:
            job = tournament_rescore(
                actor=None,
                tournament=tournament,
                rules=options["rules"],
                chunk_size=options["chunk_size"],
            )
        except ValidationError as e:
            raise CommandError(" ".join(e.messages)) from None
        self.stdout.write(f"job {job.pk}: {self._progress(job)}")
        if options["wait"]:
            self._wait(job, timeout=options["timeout"], interval=options["interval"])

    def _progress(self, job: Job) -> str:
        return f"{job.state}, {job.done}/{job.total} done, {job.failed} failed"

    def _wait(self, job: Job, *, timeout: float, interval: float) -> None:
        deadline = time.monotonic() + timeout
        last = ""
        while job.state not in (JobState.DONE, JobState.FAILED):
            if time.monotonic() > deadline:
                raise CommandError(
                    f"job {job.pk} not done after {timeout:g}s: {self._progress(job)}"
                )
            time.sleep(interval)
            job.refresh_from_db()
            line = self._progress(job)
            if line != last:
                self.stdout.write(f"job {job.pk}: {line}")
                last = line
        self.stdout.write(self.style.SUCCESS(f"job {job.pk} {job.state}: {self._progress(job)}"))
