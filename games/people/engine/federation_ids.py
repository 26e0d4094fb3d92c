"""The federations' player ids a goref player holds, written once: each one's field (on
``Player``, on a file's ``Entrant``, in CSV columns and the API), its label, and the shape
a usable id has in a tournament file (docs/tournaments.md, "Federation ids").  Pure: the
standard library only."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class FederationId:
    field: str  # Player / Entrant attribute, CSV column, API key
    label: str  # in forms and messages
    max_length: int
    shape: re.Pattern[str]  # a usable id in a file; anything else is left out


# Read from tournament files and rating lists (OpenGotha writes all three).
EGD_PIN = FederationId("egd_pin", "EGD PIN", 8, re.compile(r"\d{8}"))
FFG_LICENCE = FederationId("ffg_licence", "FFG licence", 10, re.compile(r"\d{7}"))
AGA_ID = FederationId("aga_id", "AGA id", 10, re.compile(r"\d{1,10}"))
FEDERATION_IDS = (EGD_PIN, FFG_LICENCE, AGA_ID)
# Every unique id on a player: those above and the New Zealand association's.
NZGS_ID = FederationId("nzgs_id", "NZGS id", 10, re.compile(r"\d{1,10}"))
PLAYER_IDS = (*FEDERATION_IDS, NZGS_ID)

ID_FIELDS = tuple(i.field for i in FEDERATION_IDS)
PLAYER_ID_FIELDS = tuple(i.field for i in PLAYER_IDS)
LABELS = {i.field: i.label for i in PLAYER_IDS}


@dataclass(frozen=True)
class RatingListRow:
    """One player as a federation's rating list names him: the plain value the ratings
    app hands the tournament wing, which enters him (no model of either app)."""

    id: int  # the list entry's, to name it in a form or the API
    source: str  # the list's ("egd", "ffg", "aga"), as its page names it
    id_field: str  # the player field ``federation_id`` fills (``egd_pin``, ...)
    federation_id: str
    family_name: str
    given_name: str
    rank: int | None  # ladder index (1d = 0), None when the list gives none
    rating: int | None
    club: str
    country: str
