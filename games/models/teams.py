"""Teams of a team tournament: a name, a number and a line-up per round (board -> player).

Players, games and byes stay individual (OpenGotha's team layer): a team only groups its
members' games into matches.  docs/tournaments.md, "Team tournaments".
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from games.models.people import Player
from games.models.tournaments import Tournament

MAX_BOARDS = 10  # OpenGotha's MAX_NUMBER_OF_MEMBERS_BY_TEAM
MAX_TEAM_ROUNDS = 20  # OpenGotha's line-up grid


class Team(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    name = models.CharField(max_length=100)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"],
                name="team_one_number_per_tournament",
                violation_error_message="Another team has this number.",
            ),
            models.UniqueConstraint(
                fields=["tournament", "name"],
                name="team_one_name_per_tournament",
                violation_error_message="Another team has this name.",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TeamBoard(models.Model):
    """One slot of a team's line-up: who plays board ``board`` in round ``round``."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="boards")
    # The team's tournament again, so that the database holds "one team per player and
    # round" across the event's teams.
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    round = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(MAX_TEAM_ROUNDS)]
    )
    board = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(MAX_BOARDS)]
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["team", "round", "board"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "round", "board"],
                name="team_board_one_player",
                violation_error_message="This board of the team already has a player.",
            ),
            models.UniqueConstraint(
                fields=["tournament", "round", "player"],
                name="team_board_one_team_per_round",
                violation_error_message="A player plays for one team a round.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team}, round {self.round}, board {self.board}"
