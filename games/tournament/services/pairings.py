"""Games as pairings: who plays whom, in which round, with what handicap and komi."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q

from games import permissions
from games.cache import player as player_version
from games.engine.rules import Rules, get_rules
from games.models import Game, GameState, Player, Presence, Round, Tournament, TournamentEntry
from games.services import outbound
from games.services.results import game_lock
from games.tournament.services.entries import check_open, entry_for
from games.tournament.services.lifecycle import tournament_mark_started
from games.tournament.services.settings import as_komi, komi_for_game
from games.tournament.services.tournaments import round_get_or_create, rules_named
from ops.audit import audit_record
from ops.models import AuditAction
from ops.pages import cache
from ops.services import UNSET, Actor, StateConflict, Unset, require, validate_and_save


def _player(value: Player | int | str, field_name: str) -> Player:
    if isinstance(value, Player):
        return value
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValidationError({field_name: "Choose a player by id."})
    try:
        pk = int(value)
    except ValueError:
        raise ValidationError({field_name: f"{value!r} is not a player id."}) from None
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        raise ValidationError({field_name: f"There is no player with id {pk}."})
    return player


def _check_players_free(rnd: Round, black: Player, white: Player, *, exclude: int | None) -> None:
    """A player has at most one game per round (the pairing constraint only covers the pair)."""
    busy = Game.objects.filter(round=rnd).filter(
        Q(black__in=[black, white]) | Q(white__in=[black, white])
    )
    if exclude is not None:
        busy = busy.exclude(pk=exclude)
    taken = {pk for game in busy for pk in (game.black_id, game.white_id)}
    for field_name, player in (("black", black), ("white", white)):
        if player.pk in taken:
            raise ValidationError(
                {field_name: f"{player} already has a game in round {rnd.number}."}
            )


def _check_round_number(tournament: Tournament, number: object) -> None:
    rounds = tournament.number_of_rounds
    if isinstance(number, int) and not isinstance(number, bool) and number > rounds:
        raise ValidationError(
            {
                "round_number": f"This tournament has {rounds} rounds: "
                "change its number of rounds first."
            }
        )


def _check_playing(entry: TournamentEntry, round_number: int, field_name: str) -> None:
    if isinstance(round_number, int) and round_number >= 1:
        presence = entry.presence(round_number)
        if presence != Presence.PLAY:
            raise ValidationError(
                {
                    field_name: f"{entry.player} is marked {Presence(presence).label} "
                    f"in round {round_number}."
                }
            )


def mcmahon_handicap(
    tournament: Tournament, a: TournamentEntry, b: TournamentEntry
) -> tuple[int, TournamentEntry | None]:
    """OpenGotha's handicap from the entry ranks: the difference of the ranks (each
    capped at the no-handicap threshold), less the correction, up to the ceiling.
    The stronger entry (``None`` when even).  A pairing by McMahon score passes its
    scores to ``games.tournament``; a single game is paired from the ranks."""
    threshold = tournament.handicap_threshold
    ra, rb = min(a.rank, threshold), min(b.rank, threshold)
    difference = abs(ra - rb)
    # Moved towards 0 by the correction, never across it (a negative one adds stones).
    stones = max(difference - tournament.handicap_correction, 0) if difference else 0
    ceiling = 9 if tournament.handicap_cap is None else tournament.handicap_cap
    stones = min(stones, ceiling)
    stronger = None if ra == rb else (a if ra > rb else b)
    return stones, stronger


def _handicap(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 25:
        raise ValidationError({"handicap": "A handicap is a number of stones from 0 to 25."})
    return value


def _default_komi(tournament: Tournament, preset: Rules, handicap: int) -> Decimal:
    """The tournament's komi for the game; a game under other rules than the tournament's
    takes that preset's."""
    if preset.name == tournament.rules:
        return komi_for_game(tournament, handicap)
    return preset.komi_for(handicap)


@transaction.atomic
def game_create(
    *,
    actor: Actor,
    tournament: Tournament,
    round_number: int,
    black: Player | int,
    white: Player | int,
    handicap: int | None = 0,
    komi: Decimal | int | str | None = None,
    table: int | None = None,
    rules: str | None = None,
) -> Game:
    """Pair ``black`` and ``white`` in round ``round_number``.  ``handicap=None``: the
    tournament's policy advises handicap and colours; ``komi=None``: the tournament's komi
    for that handicap (docs/tournaments.md, "Komi in handicap games")."""
    if actor is not None:
        require(permissions.is_director(actor, tournament), "Only its directors can pair games.")
    preset = rules_named(rules if rules is not None else tournament.rules)
    black_player = _player(black, "black")
    white_player = _player(white, "white")
    if black_player.pk == white_player.pk:
        raise ValidationError({"white": "A player cannot play himself."})
    check_open(tournament, "This tournament is closed: no more games can be paired.")
    black_entry = entry_for(tournament, black_player, field_name="black")
    white_entry = entry_for(tournament, white_player, field_name="white")
    _check_round_number(tournament, round_number)
    for field_name, entry in (("black", black_entry), ("white", white_entry)):
        _check_playing(entry, round_number, field_name)
    if handicap is None:
        if tournament.handicap_policy == "mcmahon":
            handicap, stronger = mcmahon_handicap(tournament, black_entry, white_entry)
            if stronger is black_entry:  # the weaker player takes Black
                black_player, white_player = white_player, black_player
        else:
            advice = outbound.handicap_advice(
                tournament=tournament,
                a=black_player,
                b=white_player,
                rules=preset,
                entered=(
                    (black_entry.rank, black_entry.rating),
                    (white_entry.rank, white_entry.rating),
                ),
            )
            handicap = advice.handicap
            if advice.black == white_player:
                black_player, white_player = white_player, black_player
    handicap = _handicap(handicap)
    rnd = round_get_or_create(actor=None, tournament=tournament, number=round_number)
    tournament_mark_started(tournament)
    # Lock the round row so two directors pairing the same player at once
    # cannot both pass the "already has a game" check (PostgreSQL; SQLite's
    # IMMEDIATE transactions already serialise writers).
    Round.objects.select_for_update().filter(pk=rnd.pk).first()
    _check_players_free(rnd, black_player, white_player, exclude=None)
    game = Game(
        tournament=tournament,
        round=rnd,
        table=table,
        black=black_player,
        white=white_player,
        handicap=handicap,
        komi=_default_komi(tournament, preset, handicap) if komi is None else as_komi(komi),
        rules=preset.name,
    )
    validate_and_save(game)
    return game


@transaction.atomic
def games_create_round(
    *,
    actor: Actor,
    tournament: Tournament,
    round_number: int,
    games: list[tuple[int, int, int, Decimal, int]],
) -> list[Game]:
    """Create a whole round's games at once — (black, white, handicap, komi, table) each —
    with ``game_create``'s checks made for the round in a few queries (every player
    entered, playing the round, once, and free in it) rather than per game: a
    congress round of 500 games is written in one ``bulk_create``.  The values are
    checked here (``full_clean`` without the per-row foreign-key and constraint
    queries, whose rows were just read); the database's constraints stand behind."""
    if actor is not None:
        require(permissions.is_director(actor, tournament), "Only its directors can pair games.")
    check_open(tournament, "This tournament is closed: no more games can be paired.")
    _check_round_number(tournament, round_number)
    entries = {e.player_id: e for e in TournamentEntry.objects.filter(tournament=tournament)}
    seen: set[int] = set()
    for black, white, *_rest in games:
        if black == white:
            raise ValidationError({"white": "A player cannot play himself."})
        for field_name, pk in (("black", black), ("white", white)):
            entry = entries.get(pk)
            if entry is None:
                raise ValidationError(
                    {field_name: f"Player {pk} is not entered in this tournament."}
                )
            _check_playing(entry, round_number, field_name)
            if pk in seen:
                raise ValidationError({field_name: f"Player {pk} is paired twice."})
            seen.add(pk)
    rnd = round_get_or_create(actor=None, tournament=tournament, number=round_number)
    tournament_mark_started(tournament)
    Round.objects.select_for_update().filter(pk=rnd.pk).first()  # as game_create
    busy = Game.objects.filter(round=rnd).filter(Q(black__in=seen) | Q(white__in=seen))
    taken = next(iter(busy.values_list("black_id", "white_id")), None)
    if taken is not None:  # another director paired the round meanwhile
        raise StateConflict(
            f"Round {round_number} was paired meanwhile (a player already has a game in "
            "it): look at it again before pairing it."
        )
    preset = rules_named(tournament.rules)
    made = []
    for black, white, handicap, komi, table in games:
        game = Game(
            tournament=tournament,
            round=rnd,
            table=table,
            black_id=black,
            white_id=white,
            handicap=_handicap(handicap),
            komi=as_komi(komi),
            rules=preset.name,
        )
        game.full_clean(
            exclude=["tournament", "round", "black", "white"], validate_constraints=False
        )
        made.append(game)
    created = Game.objects.bulk_create(made)
    cache.changed_many(created)
    return created


@transaction.atomic
def game_update(
    *,
    actor: Actor,
    game: Game,
    black: Player | int | Unset = UNSET,
    white: Player | int | Unset = UNSET,
    handicap: int | Unset = UNSET,
    komi: Decimal | int | str | Unset = UNSET,
    table: int | Unset | None = UNSET,
    rules: str | Unset = UNSET,
) -> Game:
    """Change a pairing before a result is in (players, handicap, komi, table, rules)."""
    if actor is not None:
        require(permissions.can_change_game(actor, game), "Only its directors can change a game.")
    game = game_lock(game)
    changed: list[str] = []
    if black is not UNSET or white is not UNSET:
        if game.state != GameState.SCHEDULED:
            raise ValidationError(
                {"black": "The players cannot change once a result has been submitted."}
            )
        new_black = _player(black, "black") if black is not UNSET else game.black
        new_white = _player(white, "white") if white is not UNSET else game.white
        if new_black.pk == new_white.pk:
            raise ValidationError({"white": "A player cannot play himself."})
        for field_name, player in (("black", new_black), ("white", new_white)):
            entry = entry_for(game.tournament, player, field_name=field_name)
            _check_playing(entry, game.round.number, field_name)
        Round.objects.select_for_update().filter(pk=game.round_id).first()
        _check_players_free(game.round, new_black, new_white, exclude=game.pk)
        # The players who leave the game no longer show it (the save bumps the new ones).
        cache.touch(player_version(game.black_id), player_version(game.white_id))
        game.black, game.white = new_black, new_white
        changed += ["black", "white"]
    if handicap is not UNSET:
        game.handicap = _handicap(handicap)
        changed.append("handicap")
    if komi is not UNSET:
        game.komi = as_komi(komi)
        changed.append("komi")
    if table is not UNSET:
        game.table = table
        changed.append("table")
    if rules is not UNSET:
        game.rules = rules_named(rules).name
        changed.append("rules")
    if changed:
        validate_and_save(game, update_fields=[*changed, "updated_at"])
    return game


def game_even_set(
    *, actor: Actor, game: Game, allowed: Callable[[Game], None] | None = None
) -> Game:
    """The game becomes even: handicap 0 and the rules' even komi, ``even_game_chosen``.

    Only before a result is in.  ``allowed`` (the caller's rule, e.g. the rating
    difference) is checked under the game's lock, after its state.  Audited.
    """
    with transaction.atomic():
        game = game_lock(game)
        if game.state != GameState.SCHEDULED:
            raise StateConflict("A result is already in: the handicap can no longer change.")
        if game.handicap == 0:
            raise StateConflict("This game is already even.")
        if allowed is not None:
            allowed(game)
        old = {"handicap": game.handicap, "komi": str(game.komi), "even_game_chosen": None}
        game.handicap = 0
        game.komi = _default_komi(game.tournament, get_rules(game.rules), 0)
        game.even_game_chosen = True
        validate_and_save(
            game, update_fields=["handicap", "komi", "even_game_chosen", "updated_at"]
        )
        audit_record(
            actor=actor,
            action=AuditAction.GAME_EVEN_GAME_CHOSEN,
            obj=game,
            old=old,
            new={"handicap": 0, "komi": str(game.komi), "even_game_chosen": True},
        )
    return game


def game_choose_even(*, actor: Actor, game: Game) -> Game:
    """A player or director records an even game instead of the handicap, before a result.

    Allowed only under 0.5 stones, as the ratings advise (New Zealand Rules of Go;
    docs/ratings.md §8).
    """
    allowed = permissions.is_participant(actor, game) or permissions.is_director(
        actor, game.tournament
    )
    if not allowed:
        raise PermissionDenied("Only the players of this game or its directors can choose.")
    return game_even_set(actor=actor, game=game, allowed=_difference_under_half)


def _difference_under_half(game: Game) -> None:
    """The ratings' advice for the game's players, from their entry ranks and ratings
    (which stand for the whole event), under its tournament's policy and rules."""
    entries = {
        e.player_id: (e.rank, e.rating)
        for e in TournamentEntry.objects.filter(
            tournament_id=game.tournament_id, player_id__in=[game.black_id, game.white_id]
        )
    }
    entered = None
    if game.black_id in entries and game.white_id in entries:
        entered = (entries[game.black_id], entries[game.white_id])
    advice = outbound.handicap_advice(
        tournament=game.tournament,
        a=game.black,
        b=game.white,
        rules=get_rules(game.rules),
        entered=entered,
    )
    if not advice.even_game_allowed:
        raise ValidationError(
            {
                "handicap": f"The rating difference is {advice.difference_stones:.2f} stones: "
                "an even game may be chosen only under 0.5."
            }
        )
