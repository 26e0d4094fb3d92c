"""Results: submitted by a player, confirmed or contested by the opponent, entered or
corrected by a director, finalised.

The states, who may move a game between them, why a locked result never changes and
how simultaneous confirmations are kept apart: docs/games.md, "The life of a game".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from games import permissions
from games.engine.result import Result
from games.engine.rules import get_rules
from games.models import (
    DeadStoneReview,
    Game,
    GameState,
    Player,
    ResultReason,
    ResultSubmission,
    ReviewState,
    Round,
    SubmissionKind,
)
from games.services import claims, deadstones, outbound, records
from games.services.claims import is_counter_claim
from games.services.codes import CodeHolder
from games.services.common import (
    LOCKED_MESSAGE,
    RULING_FINAL_MESSAGES,
    GameHeldError,
    GameLockedError,
)
from games.services.scoring import latest_run, scoring_run_request
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import UNSET, Actor, StateConflict, Unset, as_user, validate_and_save

# Every field a result writes, on every path (players, directors, rulings).
RESULT_FIELDS = [
    "result_winner",
    "result_margin",
    "result_reason",
    "result_submitted_by",
    "sgf",
    "sgf_warnings",
    "dead_stones",
    "updated_at",
]


@dataclass(frozen=True)
class Evidence:
    """A result with what backs it, read and checked, ready to store."""

    result: Result
    sgf: str
    warnings: list[str]
    dead_stones: list[str]


def read_evidence(
    *,
    game: Game,
    result: object,
    sgf: str | bytes | None,
    dead_stones: list[str] | str | None,
) -> Evidence:
    """Check a result and its record and dead stones; nothing is written.

    ``sgf=None`` (or blank) keeps the record already stored on the game, if any.
    ``dead_stones=None`` takes them from the record's TB/TW markup (none without one).
    """
    parsed = records.parse_result(result)
    size = game.tournament.board_size
    rules = get_rules(game.rules)
    dead = None if dead_stones is None else records.parse_dead_stones(dead_stones, board_size=size)
    blank = sgf is None or (isinstance(sgf, str | bytes) and not sgf.strip())
    text = game.sgf if blank else sgf
    if not isinstance(text, str | bytes):
        raise ValidationError({"sgf": "An SGF record is text (the contents of a .sgf file)."})
    if not text:
        if dead is None:
            dead = []
        if dead and not rules.remove_dead:
            raise ValidationError(
                {"dead_stones": f"Under {rules.name} rules every stone on the board counts."}
            )
        return Evidence(parsed, "", [], records.points_to_labels(dead, size))
    read = records.read_record(
        text,
        board_size=size,
        rules=rules,
        komi=Decimal(game.komi),
        handicap=game.handicap,
        result=parsed,
    )
    if dead is None:
        dead = records.dead_from_record(read)
        try:
            records.check_dead_stones(dead, board=read.final_position, rules=rules)
        except ValidationError as e:  # the markup, not the user's list, is at fault
            raise ValidationError(
                {"sgf": f"The record's dead-stone markup (TB/TW): {' '.join(e.messages)}"}
            ) from None
    else:
        records.check_dead_stones(dead, board=read.final_position, rules=rules)
    warnings = [*read.warnings, *_against_game(game, read.record, parsed)]
    return Evidence(parsed, read.text, warnings, records.points_to_labels(dead, size))


def _against_game(game: Game, record: Any, result: Result) -> list[str]:
    """What in the record does not fit this game: players named otherwise, a resignation
    after both players passed.  Warnings, kept with the record; nothing is refused."""
    out: list[str] = []
    for prop, colour, player in (("PB", "Black", game.black), ("PW", "White", game.white)):
        named = record.info.get(prop, "").strip()
        if named and not _same_player(named, player):
            out.append(
                f"the record names {colour} {named!r}, but {colour} in this game is {player.full_name}"
            )
    moves = record.moves
    if (
        result.reason.value == "resignation"
        and len(moves) >= 2
        and moves[-1].point is None
        and moves[-2].point is None
    ):
        out.append(
            "the record ends with both players passing, but the result is a resignation: "
            "check the result (a counted game ends with a score)"
        )
    return out


def _same_player(named: str, player: Player) -> bool:
    words = {w.casefold() for w in named.replace(",", " ").split()}
    family = player.family_name.casefold().split()
    return bool(family) and all(w in words for w in family)


def game_lock(game: Game) -> Game:
    """The game row again, locked until the transaction ends, with its players and
    tournament; ``GameLockedError`` when its result is final (nothing may change it)."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("tournament", "round", "black", "white")
        .get(pk=game.pk)
    )
    refuse_if_locked(game)
    return game


def refuse_if_locked(game: Game) -> None:
    if game.is_locked:
        raise GameLockedError(locked_message(game))


def locked_message(game: Game) -> str:
    """Why a locked game's result cannot change: the committee's ruling, a ruling both
    players accepted, or the players' confirmation or a director's finalising."""
    last = game.submissions.filter(kind=SubmissionKind.FINALISE).order_by("-id").first()
    if last is not None and last.comment in RULING_FINAL_MESSAGES:
        return last.comment
    return LOCKED_MESSAGE


def _participant(actor: Actor, game: Game) -> Player:
    if isinstance(actor, CodeHolder):  # a slip's code: its player, on its game only
        if actor.game_id != game.pk:
            raise PermissionDenied("This code is for another game.")
        return actor.player
    player = permissions.player_for(actor)
    if player is None or player.pk not in (game.black_id, game.white_id):
        raise PermissionDenied("Only the players of this game can submit, confirm or contest.")
    return player


def _audit_code(actor: Actor, game: Game, step: str) -> None:
    """A step taken with a slip's code has no account behind it: the audit trail keeps
    whose code it was and the address it came from (inside the step's transaction)."""
    if isinstance(actor, CodeHolder):
        audit_record(
            actor=None,
            action=AuditAction.GAME_RESULT_BY_CODE,
            obj=game,
            new={
                "step": step,
                "player": actor.player.pk,
                "address": actor.address,
                "result": game.result_display,
            },
        )


def _require_director(actor: Actor, game: Game) -> None:
    if actor is not None and not permissions.can_enter_results(actor, game):
        raise PermissionDenied("Only the tournament's directors can enter or finalise results.")
    if actor is not None and permissions.is_participant(actor, game):
        raise PermissionDenied(CONFLICT_OF_INTEREST)


CONFLICT_OF_INTEREST = (
    "You play in this game: another director enters, corrects or finalises its result."
)


def result_store(
    game: Game,
    *,
    result: Result | None,
    sgf: str,
    warnings: list[str],
    dead_stones: list[str],
    by: Player | None,
    state: GameState | None = None,
) -> None:
    """Write a game's result fields (the caller holds ``game_lock``).  ``by`` is the
    player whose claim it is, ``None`` for an official's result."""
    game.result_winner = result.winner.letter if result is not None and result.winner else ""
    game.result_margin = result.margin if result is not None else None
    game.result_reason = result.reason.value if result is not None else ""
    game.result_submitted_by = by
    game.sgf = sgf
    game.sgf_warnings = warnings
    game.dead_stones = dead_stones
    fields = RESULT_FIELDS
    if state is not None:
        game.state = state
        fields = [*RESULT_FIELDS, "state"]
    # ``by`` was read from the database a moment ago: no query to prove it exists.
    validate_and_save(game, update_fields=fields, exclude=["result_submitted_by"])


def _store(game: Game, evidence: Evidence, *, by: Player | None) -> None:
    result_store(
        game,
        result=evidence.result,
        sgf=evidence.sgf,
        warnings=evidence.warnings,
        dead_stones=evidence.dead_stones,
        by=by,
        # A director's correction of a disputed game leaves the dispute open: only its
        # closing takes the game out of ``disputed``.
        state=GameState.DISPUTED if game.state == GameState.DISPUTED else GameState.SUBMITTED,
    )


def _submission(
    game: Game,
    kind: SubmissionKind,
    *,
    actor: Actor,
    player: Player | None,
    evidence: Evidence | None = None,
    comment: str = "",
) -> ResultSubmission:
    sub = ResultSubmission(
        game=game,
        kind=kind,
        submitted_by=as_user(actor),
        player=player,
        result=evidence.result.to_sgf() if evidence else game.result_display,
        sgf=evidence.sgf if evidence else "",
        dead_stones=evidence.dead_stones if evidence else [],
        comment=comment or "",
    )
    # The game is locked and the player was just read: their rows exist.
    validate_and_save(sub, exclude=["submitted_by", "game", "player"])
    if kind == SubmissionKind.SUBMIT:
        # The answer to this request names the claim: no second read for it.
        # Kept with the game's update time: a copy of the game read before or after this
        # request (refresh_from_db keeps the attribute) does not match it, and reads again.
        game._current_claim = (sub.player_id, sub.pk, game.updated_at)  # type: ignore[attr-defined]
    return sub


def result_changed(game: Game) -> None:
    """Work that follows a new result once it is committed: a result with a record is
    re-scored (the run is saved in this transaction and queued on commit, so a broker
    outage loses nothing: the sweep picks it up)."""
    scoring_run_request(game=game)


def _snapshot(game: Game) -> dict[str, Any]:
    return {
        "result": game.result_display or None,
        "state": game.state,
        "dead_stones": list(game.dead_stones),
        "sgf_chars": len(game.sgf),
    }


def _record(
    game: Game,
    evidence: Evidence,
    *,
    actor: Actor,
    player: Player | None,
    comment: str,
    check: Callable[[Game], None] | None = None,
) -> Game:
    """Store a result with its evidence under the game's lock: a player's claim
    (``player``) or a director's result (``None``, audited); re-scored on commit."""
    with transaction.atomic():
        game = game_lock(game)
        if check is not None:
            check(game)
        old = _snapshot(game)
        replaced = (
            player is not None
            and game.state == GameState.SUBMITTED
            and game.result_submitted_by_id == player.pk
        )
        countered = game.result_submitted_by_id if player and is_counter_claim(game, player) else 0
        _store(game, evidence, by=player)
        if countered and player is not None:
            claims.counter_claim_record(
                actor=actor, game=game, player=player, old_result=old["result"], old_by=countered
            )
        kind = SubmissionKind.SUBMIT if player is not None else SubmissionKind.DIRECTOR
        _submission(game, kind, actor=actor, player=player, evidence=evidence, comment=comment)
        _audit_code(actor, game, "submit")
        if replaced:
            assert player is not None
            _tell_opponent_claim_changed(game, player, old=old["result"])
        if player is None:
            audit_record(
                actor=actor,
                action=AuditAction.GAME_RESULT_CORRECTED
                if old["result"]
                else AuditAction.GAME_RESULT_ENTERED,
                obj=game,
                old=old,
                new={**_snapshot(game), "comment": comment or ""},
            )
        result_changed(game)
    return game


def _tell_opponent_claim_changed(game: Game, player: Player, *, old: str | None) -> None:
    """The submitter replaced his own claim before an answer: his opponent is told by
    e-mail (on commit), and an earlier page's confirm button no longer works
    (``current_claim`` changed)."""
    opponent = game.white if player.pk == game.black_id else game.black
    user = opponent.user if opponent.user_id else None
    email = getattr(user, "email", "") if user is not None else ""
    if not email:
        return
    subject = f"goref: {player.full_name} changed the claimed result of your game"
    body = (
        f"{player.full_name} changed the result claimed for your game in {game.tournament.name}, "
        f"round {game.round.number}: from {old or 'none'} to {game.result_display}.\n"
        "Look at the game again before you confirm or contest it."
    )
    transaction.on_commit(
        lambda: send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [email], fail_silently=True)
    )


def _lock_result(
    game: Game, state: GameState, kind: SubmissionKind, *, actor: Actor, player: Player | None
) -> None:
    """The result becomes final (confirmed or finalised); ratings hear of it."""
    game.state = state
    game.locked_at = timezone.now()
    validate_and_save(game, update_fields=["state", "locked_at", "updated_at"])
    _submission(game, kind, actor=actor, player=player)
    outbound.result_locked(game)


# --------------------------------------------------------------------------- players


def game_result_submit(
    *,
    actor: Actor,
    game: Game,
    result: str,
    sgf: str | bytes | None = None,
    dead_stones: list[str] | str | None = None,
    comment: str = "",
) -> Game:
    """A player submits the result of his own game (an SGF RE string), with an
    optional record and dead stones.  A broken record is refused and nothing is
    saved; a record with illegal moves is kept, with a warning per move."""
    player = _participant(actor, game)
    refuse_if_locked(game)  # cheap early answer; re-checked under the lock
    # Read the record before locking: parsing and replaying take the longest.
    evidence = read_evidence(game=game, result=result, sgf=sgf, dead_stones=dead_stones)
    return _record(
        game, evidence, actor=actor, player=player, comment=comment, check=_open_to_players
    )


def _open_to_players(game: Game) -> None:
    if game.state == GameState.DISPUTED:
        raise StateConflict("This result is disputed: a referee or a director will settle it.")
    if game.state == GameState.SUBMITTED and game.result_submitted_by_id is None:
        raise StateConflict("A director has entered this result: ask a director to change it.")


def current_claim(game: Game) -> int | None:
    """The id of the claim awaiting the opponent's answer (the latest player's submission
    of a submitted result), or ``None``.  Confirming and contesting name it, so an answer
    is bound to the claim the opponent saw."""
    if game.state != GameState.SUBMITTED or game.result_submitted_by_id is None:
        return None
    known = getattr(game, "_current_claim", None)
    if known is not None and (known[0], known[2]) == (
        game.result_submitted_by_id,
        game.updated_at,
    ):
        return int(known[1])
    return (
        ResultSubmission.objects.filter(
            game=game, kind=SubmissionKind.SUBMIT, player_id=game.result_submitted_by_id
        )
        .order_by("-created_at", "-id")
        .values_list("pk", flat=True)
        .first()
    )


CLAIM_CHANGED = "The claim changed: look again."


def replaced_claims(game: Game) -> list[ResultSubmission]:
    """The claimant's earlier claims that his current one replaced (newest first), for
    the opponent to see before he answers; [] when the claim was never changed."""
    current = current_claim(game)
    if current is None:
        return []
    subs = list(ResultSubmission.objects.filter(game=game).order_by("-created_at", "-id")[:50])
    earlier: list[ResultSubmission] = []
    for sub in subs:
        if sub.pk == current:
            continue
        if sub.kind != SubmissionKind.SUBMIT or sub.player_id != game.result_submitted_by_id:
            break  # anything else (an answer, a ruling) starts the current claim's story
        earlier.append(sub)
    return earlier


def _check_claim(game: Game, claim: int | Unset | None) -> None:
    """The web forms and the API always pass the claim the opponent saw (``None``: the
    client sent none); ``UNSET`` is a caller that shows no claim (the operator, a script)."""
    if claim is UNSET:
        return
    if claim is None:
        raise ValidationError({"claim": "Send the id of the claim you answer (the game's claim)."})
    if claim != current_claim(game):
        raise StateConflict(CLAIM_CHANGED)


def game_result_confirm(*, actor: Actor, game: Game, claim: int | Unset | None = UNSET) -> Game:
    """The opponent of the submitter confirms ``claim``: the result is locked for good."""
    _participant(actor, game)
    with transaction.atomic():
        game = game_lock(game)
        player = _participant(actor, game)
        _check_opponents_claim(game, player, "confirm")
        _check_claim(game, claim)
        # A count that matched only with unsure chains flipped: confirming agrees to them.
        agreed = deadstones.flip_accept(game=game, run=latest_run(game), actor=actor)
        deadstones.review_close(game=game)
        _lock_result(game, GameState.CONFIRMED, SubmissionKind.CONFIRM, actor=actor, player=player)
        _audit_code(actor, game, "confirm")
        if agreed:
            result_changed(game)
    return game


def game_result_contest(
    *, actor: Actor, game: Game, reason: str = "", claim: int | Unset | None = UNSET
) -> Game:
    """The opponent of the submitter contests ``claim``: the game is disputed until a ruling."""
    _participant(actor, game)
    with transaction.atomic():
        game = game_lock(game)
        player = _participant(actor, game)
        _check_opponents_claim(game, player, "contest")
        _check_claim(game, claim)
        game.state = GameState.DISPUTED
        validate_and_save(game, update_fields=["state", "updated_at"])
        _submission(game, SubmissionKind.CONTEST, actor=actor, player=player, comment=reason)
        _audit_code(actor, game, "contest")
        outbound.result_contested(actor=actor, game=game, reason=reason)  # to the referee desk
    return game


def _check_opponents_claim(game: Game, player: Player, verb: str) -> None:
    if game.state == GameState.DISPUTED:
        raise StateConflict("This result is already disputed: a referee will settle it.")
    if game.state != GameState.SUBMITTED:
        raise StateConflict(f"There is no submitted result to {verb} yet.")
    if game.result_submitted_by_id is None:
        raise StateConflict(
            f"A director entered this result; you cannot {verb} it here: ask a director."
        )
    if game.result_submitted_by_id == player.pk:
        raise StateConflict(f"You submitted this result yourself: your opponent must {verb} it.")


# --------------------------------------------------------------------------- directors


def game_result_enter(
    *,
    actor: Actor,
    game: Game,
    result: str,
    sgf: str | bytes | None = None,
    dead_stones: list[str] | str | None = None,
    comment: str = "",
    seen: str | Unset = UNSET,
) -> Game:
    """A director enters or corrects a result (disputed games included) until it is locked.

    ``seen``: the result the director's page showed ("" for none); if the game's result is
    another by the time the write holds the game's lock, another operator or a player got
    there first, and the entry is refused (409) saying what the result is now."""
    _require_director(actor, game)
    refuse_if_locked(game)
    evidence = read_evidence(game=game, result=result, sgf=sgf, dead_stones=dead_stones)
    check = None if seen is UNSET else _unchanged_since(seen)
    return _record(game, evidence, actor=actor, player=None, comment=comment, check=check)


BOTH_WIN = "both win"
"""How a both-win reads on the results page and in ``seen`` (``Game.result_display``)."""


def game_both_win_enter(*, actor: Actor, game: Game, seen: str | Unset = UNSET) -> Game:
    """A director scores the game as won by both players (OpenGotha's "both win": the
    organisers decide neither should lose it, say after an incident in the hall).  It
    keeps no record or dead stones, and is never rated; ``seen`` as for
    ``game_result_enter``."""
    _require_director(actor, game)
    refuse_if_locked(game)
    with transaction.atomic():
        game = game_lock(game)
        if seen is not UNSET:
            _unchanged_since(seen)(game)
        old = _snapshot(game)
        game.result_winner, game.result_margin = "", None
        game.result_reason = ResultReason.BOTH_WIN
        game.result_submitted_by = None
        game.dead_stones = []
        game.state = GameState.SUBMITTED
        validate_and_save(game, update_fields=[*RESULT_FIELDS, "state"])
        _submission(game, SubmissionKind.DIRECTOR, actor=actor, player=None)
        audit_record(
            actor=actor,
            action=AuditAction.GAME_RESULT_CORRECTED
            if old["result"]
            else AuditAction.GAME_RESULT_ENTERED,
            obj=game,
            old=old,
            new=_snapshot(game),
        )
    return game


def _unchanged_since(seen: str) -> Callable[[Game], None]:
    def check(game: Game) -> None:
        now = game.result_display
        if now != seen:
            table = f"Table {game.table}" if game.table else f"Game {game.pk}"
            raise StateConflict(
                f"{table} changed meanwhile: it now reads {now or 'no result'} "
                f"({game.get_state_display()}), not {seen or 'no result'}. "
                "Nothing was saved; look again before entering it."
            )

    return check


def game_finalise(*, actor: Actor, game: Game, marking_holds: bool = False) -> Game:
    """A director makes the result final: locked for good.  A disputed game is refused
    (``GameHeldError``, 409) until its dispute is closed; ``marking_holds``: so is a game
    whose players are still marking dead stones (the bulk paths pass it)."""
    _require_director(actor, game)
    with transaction.atomic():
        game = game_lock(game)
        if not game.result_reason:
            raise StateConflict("This game has no result yet: enter one before finalising.")
        if game.state == GameState.DISPUTED:
            raise GameHeldError(game, "disputed")
        if marking_holds and _marking(game):
            raise GameHeldError(game, "marking", "Its players are still marking dead stones.")
        old = _snapshot(game)
        _lock_result(game, GameState.FINAL, SubmissionKind.FINALISE, actor=actor, player=None)
        audit_record(
            actor=actor, action=AuditAction.GAME_FINALISED, obj=game, old=old, new=_snapshot(game)
        )
    return game


def _marking(game: Game) -> bool:
    return DeadStoneReview.objects.filter(game=game, state=ReviewState.OPEN).exists()


def _sheet_place(game: Game, line: int) -> str:
    """Where a sheet's line is: its table first (what the director reads on the slip)."""
    table = f"table {game.table}, " if game.table else ""
    return f"{table}line {line}, game {game.pk}"


def round_results_enter(
    *, actor: Actor, round: Round, results: list[tuple[int, str]]
) -> list[Game]:
    """Enter a round's results from a result sheet: all of them or none.

    Every line is checked first and every error is reported at once, each naming its
    table, line and game ("table 6, line 3, game 17: ..."; its code is "game-17").
    """
    tournament = round.tournament
    if actor is not None and not permissions.is_director(actor, tournament):
        raise PermissionDenied("Only the tournament's directors can enter results.")
    ids: list[int] = []
    for item in results:
        game_id = item[0] if isinstance(item, list | tuple) and len(item) == 2 else None
        ids.append(game_id if isinstance(game_id, int) and not isinstance(game_id, bool) else -1)
    games = {
        g.pk: g
        for g in Game.objects.filter(round=round, pk__in=ids).select_related(
            "tournament", "round", "black", "white"
        )
    }
    errors: list[ValidationError] = []
    seen: set[int] = set()
    plan: list[tuple[Game, str]] = []
    own = permissions.player_for(actor) if actor is not None else None

    def error(where: str, message: str, game_id: int | None = None) -> ValidationError:
        # The code names the game, so a form can mark its field.
        return ValidationError(f"{where}: {message}", code=f"game-{game_id or 0}")

    for line, (item, game_id) in enumerate(zip(results, ids, strict=True), start=1):
        if game_id < 0:
            errors.append(error(f"line {line}", f"expected a game id and a result, got {item!r}."))
            continue
        found = games.get(game_id)
        if found is None:
            errors.append(
                error(
                    f"line {line}, game {game_id}",
                    f"there is no such game in round {round.number}.",
                )
            )
            continue
        where = _sheet_place(found, line)
        if game_id in seen:
            errors.append(error(where, "the game appears twice on the sheet.", game_id))
            continue
        seen.add(game_id)
        text = item[1]
        try:
            parsed = records.parse_result(text)
        except ValidationError as e:
            errors.append(error(where, " ".join(e.messages), game_id))
            continue
        problem = records.margin_problem(parsed, Decimal(found.komi))
        if problem is not None:
            errors.append(error(where, f"{problem}.", game_id))
            continue
        if found.is_locked:
            errors.append(error(where, str(GameLockedError().message), game_id))
            continue
        if own is not None and own.pk in (found.black_id, found.white_id):
            errors.append(error(where, CONFLICT_OF_INTEREST, game_id))
            continue
        plan.append((found, text))
    if errors:
        raise ValidationError({"results": errors})
    entered: list[Game] = []
    with transaction.atomic():
        for found, text in plan:
            try:
                entered.append(game_result_enter(actor=actor, game=found, result=text))
            except ValidationError as e:  # locked meanwhile: the whole sheet is refused
                line = next(i for i, g in enumerate(ids, start=1) if g == found.pk)
                raise ValidationError(
                    {"results": [error(_sheet_place(found, line), " ".join(e.messages), found.pk)]}
                ) from None
    return entered
