"""Import a tournament file (OpenGotha XML, EGF ``.h9``) as a new tournament, in one
transaction: a file that cannot be read, or a player who cannot be told apart from
another, imports nothing (docs/tournaments.md, "Files").
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from games.models import Game, GameState, Player, ResultReason, Round, Tournament, TournamentEntry
from games.services.players import player_create
from games.tournament.engine.formats import egf, opengotha
from games.tournament.engine.model import Entrant, Event, Outcome, Presence
from games.tournament.services.tournaments import tournament_create
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, validate_and_save
from ratings.ranks import Rank

HANDICAP_KOMI = Decimal("0.5")  # OpenGotha's komi for a handicap game
PRESENCE_LETTER = {Presence.PLAY: "p", Presence.ABSENT: "a", Presence.BYE: "b"}


@dataclass(frozen=True)
class ImportResult:
    tournament: Tournament
    players: int
    games: int
    new_players: int


def read_event(data: bytes) -> tuple[str, Event]:
    """The file's format (recognised from its content) and its event; ``ValidationError``
    naming the element or line at fault."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:200]
    try:
        if head.startswith(b"<"):
            return "opengotha", opengotha.read(data)
        if head.startswith(b";"):
            return "egf", egf.h9_event(egf.read_h9(data))
    except opengotha.FileFormatError as e:
        raise ValidationError({"file": str(e)}) from None
    raise ValidationError(
        {"file": "Not a tournament file: expected OpenGotha XML or an EGF results (.h9) file."}
    )


def folded(text: str) -> str:
    """A name compared without case or accents ("Müller" = "muller")."""
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@dataclass
class _Known:
    pk: int
    names: tuple[str, str]
    rank: int
    club: str
    pin: str


def _known_players(event: Event) -> tuple[dict[str, _Known], dict[tuple[str, str], list[_Known]]]:
    """Players already in goref that the file's players could be: by PIN, by folded name."""
    pins = [e.egd_pin for e in event.entrants if e.egd_pin]
    families = {e.family_name.strip() for e in event.entrants}
    rows = Player.objects.filter(egd_pin__in=pins) | Player.objects.filter(family_name__in=families)
    # Accents: a family name spelt without them in goref and with them in the file (or the
    # other way) is caught by the folded comparison over the players of the same first letter.
    initials = {folded(f)[:1] for f in families if f}
    for initial in initials:
        rows = rows | Player.objects.filter(family_name__istartswith=initial)
    by_pin: dict[str, _Known] = {}
    by_name: dict[tuple[str, str], list[_Known]] = {}
    for pk, family, given, rank, club, pin in rows.distinct().values_list(
        "pk", "family_name", "given_name", "declared_rank", "club__name", "egd_pin"
    ):
        known = _Known(pk, (folded(family), folded(given)), rank, folded(club or ""), pin or "")
        if pin:
            by_pin[pin] = known
        by_name.setdefault(known.names, []).append(known)
    return by_pin, by_name


def _match(
    e: Entrant, by_pin: dict[str, _Known], by_name: dict[tuple[str, str], list[_Known]]
) -> tuple[int | None, str | None]:
    """The player this entrant is (or None: a new one), or a clash to report."""
    names = (folded(e.family_name), folded(e.given_name))
    who = f"{e.family_name} {e.given_name}".strip()
    if e.egd_pin and e.egd_pin in by_pin:
        known = by_pin[e.egd_pin]
        if known.names == names:
            return known.pk, None
        return None, (f"{who}: EGD PIN {e.egd_pin} belongs to player {known.pk} with another name")
    same_name = by_name.get(names, [])
    if not same_name:
        return None, None
    club = folded(e.club)
    exact = [k for k in same_name if k.rank == e.rank and k.club == club]
    if len(exact) == 1:
        return exact[0].pk, None
    ids = ", ".join(str(k.pk) for k in same_name)
    return None, (
        f"{who} ({Rank(e.rank)}, {e.club or 'no club'}): the same name as player(s) {ids} "
        "but not the same rank and club; correct the file or the player first"
    )


def _new_player(e: Entrant) -> Player:
    try:
        return player_create(
            actor=None,
            family_name=e.family_name,
            given_name=e.given_name,
            rank=str(Rank(e.rank)),
            club=e.club or None,
            country=e.country.upper() if len(e.country) == 2 else "",
            egd_pin=e.egd_pin if e.egd_pin.isdigit() and len(e.egd_pin) == 8 else None,
        )
    except ValidationError as exc:
        fields = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())
        raise ValidationError(
            {"file": f"Player {e.family_name} {e.given_name}: {fields}"}
        ) from None


def _result_fields(outcome: Outcome, by_default: bool, where: str) -> dict[str, Any]:
    if outcome is Outcome.UNKNOWN:
        return {"state": GameState.SCHEDULED}
    locked = {"state": GameState.FINAL, "locked_at": timezone.now()}
    if outcome is Outcome.JIGO:
        return {**locked, "result_reason": ResultReason.DRAW}
    if outcome is Outcome.BOTH_LOSE:
        return {**locked, "result_reason": ResultReason.VOID}
    if outcome is Outcome.BOTH_WIN:
        raise ValidationError({"file": f"{where}: a result where both win is not supported."})
    reason = ResultReason.FORFEIT if by_default else ResultReason.SCORE
    return {**locked, "result_winner": outcome.value, "result_reason": reason}


def _settings_of(event: Event) -> dict[str, Any]:
    s = event.settings
    return {
        "system": s.system.value,
        "number_of_rounds": max(s.rounds, 1),
        "mm_bar": s.mm_bar,
        "mm_floor": min(s.mm_floor, s.mm_bar),
        "nbw2_absent": s.nbw2_absent,
        "nbw2_bye": s.nbw2_bye,
        "mms2_absent": s.mms2_absent,
        "mms2_bye": s.mms2_bye,
        "round_down": s.round_down,
        "count_not_played_as_half": s.count_not_played_as_half,
        "criteria": list(s.criteria),
        "category_limits": list(s.category_limits),
        "handicap_correction": s.hd_correction,
        "handicap_threshold": s.hd_no_hd_rank_threshold,
        "handicap_based_on_mms": s.hd_based_on_mms,
    }


@transaction.atomic
def tournament_import(*, actor: Actor, data: bytes, name: str = "") -> ImportResult:
    """A new tournament from a file's players, settings, rounds, games, byes and absences.

    The file's players are matched to goref's by EGD PIN where the names agree, else by
    name (ignoring case and accents), rank and club; a clash is reported, never guessed."""
    fmt, event = read_event(data)
    by_pin, by_name = _known_players(event)
    matched: dict[int, int | None] = {}
    clashes = []
    for e in event.entrants:
        pk, clash = _match(e, by_pin, by_name)
        if clash:
            clashes.append(clash)
        matched[e.id] = pk
    if clashes:
        raise ValidationError({"file": "; ".join(clashes) + "."})

    today = dt.date.today()
    start = event.begin_date or today
    tournament = tournament_create(
        actor=actor,
        name=(name or event.name or "Imported tournament")[:200],
        start_date=start,
        end_date=max(event.end_date or start, start),
        rules="japanese",
        board_size=event.board_size,
        komi=event.komi,
        venue=event.location[:200],
        settings=_settings_of(event),
    )
    tournament.pairing_params = dict(event.pairing)
    tournament.save(update_fields=["pairing_params"])

    players: dict[int, Player] = {}
    existing = Player.objects.in_bulk([pk for pk in matched.values() if pk is not None])
    new_players = 0
    for e in event.entrants:
        pk = matched[e.id]
        if pk is None:
            players[e.id] = _new_player(e)
            new_players += 1
        else:
            players[e.id] = existing[pk]
        validate_and_save(
            TournamentEntry(
                tournament=tournament,
                player=players[e.id],
                rank=e.rank,
                rating=e.rating,
                club=e.club[:100],
                country=e.country.upper()[:2],
                final=e.final,
                smms_correction=e.smms_correction,
                participation="".join(PRESENCE_LETTER[p] for p in e.presence).rstrip("p"),
            )
        )

    rounds = {
        n: Round.objects.create(tournament=tournament, number=n)
        for n in sorted({g.round for g in event.games})
    }
    games = []
    for n, g in enumerate(event.games, 1):
        where = f"Game {n} (round {g.round})"
        games.append(
            Game(
                tournament=tournament,
                round=rounds[g.round],
                table=g.table,
                black=players[g.black],
                white=players[g.white],
                handicap=g.handicap,
                komi=tournament.komi if g.handicap == 0 else HANDICAP_KOMI,
                rules=tournament.rules,
                **_result_fields(g.outcome, g.by_default, where),
            )
        )
    _check_tables(games)
    Game.objects.bulk_create(games)
    if games:
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["started_at"])
    audit_record(
        actor=actor,
        action=AuditAction.TOURNAMENT_IMPORTED,
        obj=tournament,
        new={"format": fmt, "players": len(players), "games": len(games)},
    )
    return ImportResult(tournament, len(players), len(games), new_players)


def _check_tables(games: list[Game]) -> None:
    """Two games at one table of a round: OpenGotha renumbers, goref's constraint refuses."""
    seen: set[tuple[int, int]] = set()
    for g in games:
        if g.table is None:
            continue
        key = (g.round.number, g.table)
        if key in seen:
            g.table = None
        seen.add(key)
