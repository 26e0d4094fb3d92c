"""The core's only calls up to the satellites (ratings, referee).

The satellites import games, never the other way round, except here; each function
names its listener and imports it in its body (docs/games.md, "The one write path").
It tells and asks, and never formats: it returns values (dataclasses, ids, numbers,
the satellites' records), never sentences or HTML, and reaches another app only
through its services and selectors.  One shape passes through as it is: the referee's
public rows of a game's closed disputes, which the game API embeds.

What games tells the satellites:
    result_locked, result_contested, record_mismatch (the dispute's id), rank_corrected,
    tournament_closed, tournament_imported_past, players_merged, slip_ruling_answer (a code
    holder accepts or appeals a ruling).
What games asks them:
    player_strength, player_ratings, player_rating_record, handicap_advice,
    ratings_last_rated, ratings_held_for_official, rating_list_rows, rating_list_row
    (ratings);
    disputes_for_page, closed_disputes, closed_disputes_schema, slip_ruling (referee).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import datetime as dt

    from games.engine.rules import Rules
    from games.models import Game, Player, Tournament
    from games.people.engine.federation_ids import RatingListRow
    from games.services.codes import CodeHolder
    from ops.services import Actor
    from ratings.handicap import HandicapAdvice
    from ratings.selectors import RatingRecord
    from ratings.strength import Strength
    from referee.selectors import SlipRuling


# --------------------------------------------------------------------------- tells


def result_locked(game: Game) -> None:
    """A result became final; ratings (``ratings.services.ratings_on_result_locked``)
    queues the rating update when it completes a rated tournament."""
    from ratings.services import ratings_on_result_locked

    ratings_on_result_locked(game)


def result_contested(*, actor: Actor, game: Game, reason: str) -> None:
    """The opponent contested the submitted result; the referee app opens a dispute of
    kind "result" with his reason (``referee.services.dispute_open_on_contest``)."""
    from referee.services import dispute_open_on_contest

    dispute_open_on_contest(actor=actor, game=game, reason=reason)


def record_mismatch(*, game: Game, kind: str, claim: str, evidence: dict[str, Any]) -> int | None:
    """The engine's count or legality check disagrees with the submitted result; the
    referee app opens an automatic dispute (``referee.services.dispute_open_automatic``,
    idempotent).  Its id, or ``None`` when the game was locked."""
    from referee.services import dispute_open_automatic

    dispute = dispute_open_automatic(game=game, kind=kind, claim=claim, evidence=evidence)
    return None if dispute is None else int(dispute.pk)


def rank_corrected(*, actor: Actor, player: Player, old_rank: int) -> None:
    """A director corrected a player's official rank; ratings writes it into the rank
    history (``ratings.promotion.services.rank_change_log``)."""
    from ratings.promotion.services import rank_change_log

    rank_change_log(actor=actor, player=player, old_rank=old_rank, kind="correction")


def tournament_closed(*, actor: Actor, tournament: Tournament) -> None:
    """A director closed the tournament; ratings holds the games of the players its
    directors do not answer for (``ratings.holds.holds_on_close``) and queues the update
    from it when it is rated (``ratings.services.ratings_on_tournament_closed``)."""
    from ratings.holds import holds_on_close
    from ratings.services import ratings_on_tournament_closed

    holds_on_close(actor=actor, tournament=tournament)
    ratings_on_tournament_closed(tournament)


def tournament_imported_past(*, actor: Actor, tournament: Tournament) -> None:
    """A director imported a rated event dated before what he may rate; ratings holds it
    for a federation official's release (``ratings.holds.hold_past_import``)."""
    from ratings.holds import hold_past_import

    hold_past_import(actor=actor, tournament=tournament)


def players_merged(*, kept: Player, gone: Player, earliest: Tournament | None) -> None:
    """Two player records became one; ratings moves the rank history, promotions and the
    honorary title to ``kept`` and re-rates from ``earliest``
    (``ratings.services.ratings_on_players_merged``); the referee app moves ruling
    acceptances (``referee.services.player_records_merged``)."""
    from ratings.services import ratings_on_players_merged
    from referee.services import player_records_merged

    ratings_on_players_merged(kept=kept, gone=gone, earliest=earliest)
    player_records_merged(kept=kept, gone=gone)


# --------------------------------------------------------------------------- asks


def player_strength(player: Player) -> Strength:
    """A player's rating and rank as the ratings app holds them
    (``ratings.strength.current_strength``), for the players API."""
    from ratings.strength import current_strength

    return current_strength(player)


def player_ratings(player_ids: list[int]) -> dict[int, float]:
    """The current ratings of many players at once (``ratings.selectors.ratings_of``), for
    entering a file of players: what ``player_strength`` gives one at a time."""
    from ratings.selectors import ratings_of

    return ratings_of(player_ids)


def player_rating_record(player: Player) -> RatingRecord:
    """A player's strength, rated tournaments and rank history, for the player page
    (``ratings.selectors.rating_record``; ratings' template draws the chart)."""
    from ratings.selectors import rating_record

    return rating_record(player)


def handicap_advice(
    *,
    tournament: Tournament,
    a: Player,
    b: Player,
    rules: Rules,
    entered: tuple[tuple[int, int | None], tuple[int, int | None]] | None = None,
) -> HandicapAdvice:
    """The handicap, komi and colours ratings advises for a pairing
    (``ratings.strength.pairing_advice``), from the entries' (rank, rating) when given."""
    from ratings.strength import pairing_advice

    return pairing_advice(tournament=tournament, a=a, b=b, rules=rules, entered=entered)


def ratings_last_rated(player_ids: list[int], *, excluding: int) -> dict[int, dt.date]:
    """Each player's last rated event date, tournament ``excluding`` left out
    (``ratings.selectors.last_rated_dates``): a director's rated event may not end
    before it, so nobody rewrites a player's history but an official."""
    from ratings.selectors import last_rated_dates

    return last_rated_dates(player_ids, excluding=excluding)


def ratings_held_for_official(tournament: Tournament) -> bool:
    """The whole event waits for an official's release
    (``ratings.holds.held_for_official``): its close need not refuse its date."""
    from ratings.holds import held_for_official

    return held_for_official(tournament)


def rating_list_rows(q: str) -> list[RatingListRow]:
    """The federations' list entries a search finds, for the entries page
    (``ratings.selectors.rating_list_rows``)."""
    from ratings.selectors import rating_list_rows

    return rating_list_rows(q)


def rating_list_row(pk: int) -> RatingListRow | None:
    """The federations' list entry ``pk`` (``ratings.selectors.rating_list_row``), for the
    tournament wing to enter the player it names; ``None`` when the lists hold none."""
    from ratings.selectors import rating_list_row

    return rating_list_row(pk)


def rating_list_rows_of(players: list[Player]) -> dict[int, RatingListRow]:
    """The federations' list entry of each player the lists know by id, by player id
    (``ratings.selectors.rating_list_rows_of``), for the tournament wing's "update ratings
    from the current list"."""
    from ratings.selectors import rating_list_rows_of

    return rating_list_rows_of(players)


def disputes_for_page(*, game: Game, user: Any) -> list[Any]:
    """The game's disputes ``user`` may see, newest first, for links on the game page
    (``referee.selectors.dispute_list``: the public sees closed ones only)."""
    from referee.selectors import dispute_list

    return list(dispute_list(user=user, game=game.pk))


def closed_disputes(game: Game) -> Any:
    """A game's closed disputes and their rulings as the referee app shows them to the
    public (``referee.selectors.closed_disputes_of``, ``PublicDisputeSerializer``)."""
    from referee.api.serializers import PublicDisputeSerializer
    from referee.selectors import closed_disputes_of

    return PublicDisputeSerializer(closed_disputes_of(game), many=True).data


def closed_disputes_schema() -> Any:
    """The OpenAPI shape of ``closed_disputes`` (the referee app's serializer).

    Called when ``games.api.serializers`` is loaded, so the referee's serializers
    must not import that module (shared fields live in ``games.api.fields``)."""
    from referee.api.serializers import PublicDisputeSerializer

    return PublicDisputeSerializer(many=True)


def slip_ruling(game: Game, player_id: int) -> SlipRuling | None:
    """The game's latest dispute as a slip's page shows it to its player: the rulings,
    the appeals, and whether he may accept or appeal (``referee.selectors.slip_ruling``)."""
    from referee.selectors import slip_ruling

    return slip_ruling(game, player_id)


def slip_ruling_answer(*, actor: CodeHolder, game: Game, answer: str, reason: str = "") -> None:
    """A slip's code holder accepts (``answer="accept"``) or appeals the standing ruling of
    the game's open dispute (``referee.services.dispute_accept``, ``dispute_appeal``)."""
    from referee.services import dispute_answer_from_slip

    dispute_answer_from_slip(actor=actor, game=game, answer=answer, reason=reason)
