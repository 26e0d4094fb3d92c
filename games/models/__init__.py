"""Tournaments, players, rounds, games and result submissions, one module per subject:
``people``, ``tournaments``, ``games`` (results and submissions), ``scoring``.

Invariants the database can hold are constraints here; the services in
``games.services`` enforce the rest and are the only code that writes these rows.
A locked result is never changed again (docs/games.md, "The life of a game").
"""

from games.models.common import RULES_CHOICES
from games.models.games import (
    LOCKED_STATES,
    MAX_RATED_HANDICAP,
    RATED_REASONS,
    Game,
    GameState,
    ResultReason,
    ResultSubmission,
    SubmissionKind,
    Winner,
    report_key_new,
)
from games.models.people import (
    Club,
    DuplicateState,
    PairMember,
    Player,
    PossibleDuplicate,
)
from games.models.scoring import (
    FINISHED_STATES,
    DeadStoneReview,
    ReviewState,
    ScoringRun,
    ScoringState,
)
from games.models.teams import Team, TeamBoard
from games.models.tournaments import (
    EGF_CLASS_CHOICES,
    SYSTEM_CHOICES,
    Presence,
    Round,
    Tournament,
    TournamentEntry,
)

__all__ = [
    "EGF_CLASS_CHOICES",
    "FINISHED_STATES",
    "LOCKED_STATES",
    "MAX_RATED_HANDICAP",
    "RATED_REASONS",
    "RULES_CHOICES",
    "SYSTEM_CHOICES",
    "Club",
    "DeadStoneReview",
    "DuplicateState",
    "Game",
    "GameState",
    "PairMember",
    "Player",
    "PossibleDuplicate",
    "Presence",
    "ResultReason",
    "ResultSubmission",
    "ReviewState",
    "Round",
    "ScoringRun",
    "ScoringState",
    "SubmissionKind",
    "Team",
    "TeamBoard",
    "Tournament",
    "TournamentEntry",
    "Winner",
    "report_key_new",
]
