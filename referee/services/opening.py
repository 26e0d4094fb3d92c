"""Officials, and raising disputes: by a party or an official, or by the system."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from games import cache as page_cache
from games import permissions
from games.engine.record import write_record
from games.engine.replay import replay
from games.engine.rules import get_rules
from games.engine.types import GameRecord
from games.models import Game, Tournament
from games.services import records
from games.services.codes import CodeHolder
from games.services.common import GameLockedError
from games.services.disputes import game_dispute_open, game_snapshot
from games.services.results import refuse_if_locked
from ops.audit import audit_record
from ops.models import AuditAction
from ops.pages import cache
from ops.services import Actor, StateConflict, as_user, require, validate_and_save
from referee import remedies, roles
from referee.emails import dispute_notify
from referee.models import (
    Dispute,
    DisputeKind,
    DisputeState,
    Level,
    TournamentOfficials,
)

# Kinds whose upheld ruling simply sets the result the official names.
RESULT_KINDS = frozenset(
    {
        DisputeKind.RESULT,
        DisputeKind.TIME,
        DisputeKind.RESIGNATION,
        DisputeKind.CONDUCT,
        DisputeKind.OTHER,
    }
)
RECORD_KINDS = frozenset({DisputeKind.REPETITION, DisputeKind.DEAD_STONES})  # need a record


# --------------------------------------------------------------------------- officials


def officials_check(*, chief_referee: Any, committee: list[Any]) -> list[Any]:
    """The committee's members if the choice is valid (three different users, or none,
    the chief not among them); else a ``ValidationError`` naming the field.

    Forms call it to show the service's refusals on the form before anything is saved.
    """
    members = [m for m in committee if m is not None]
    if members and (len(members) != 3 or len({m.pk for m in members}) != 3):
        raise ValidationError(
            {"committee": "The arbitration committee has three different members."}
        )
    if chief_referee is not None and chief_referee.pk in {m.pk for m in members}:
        raise ValidationError(
            {
                "committee": "The chief referee cannot sit on the committee that hears appeals of his rulings."
            }
        )
    return members


def tournament_officials_set(
    *, actor: Actor, tournament: Tournament, chief_referee: Any, committee: list[Any]
) -> TournamentOfficials:
    """A director names the chief referee and the arbitration committee (three, or none)."""
    if actor is not None:
        require(
            permissions.is_director(actor, tournament),
            "Only the tournament's directors name its officials.",
        )
    members = officials_check(chief_referee=chief_referee, committee=committee)
    with transaction.atomic():
        officials, _ = TournamentOfficials.objects.select_for_update().get_or_create(
            tournament=tournament
        )
        old = {"chief_referee": officials.chief_referee_id, "committee": officials.committee_ids}
        seated = {officials.chief_referee_id, *officials.committee_ids}
        _refuse_while_heard(officials, chief_referee=chief_referee, members=members)
        officials.chief_referee = chief_referee
        officials.committee_1, officials.committee_2, officials.committee_3 = [
            *members,
            None,
            None,
            None,
        ][:3]
        validate_and_save(officials)
        # Whoever took or left a seat sees the referee desk in his header, or no longer.
        seats = {officials.chief_referee_id, *officials.committee_ids}
        cache.touch(*page_cache.users(seated ^ seats))
        audit_record(
            actor=actor,
            action=AuditAction.TOURNAMENT_OFFICIALS_SET,
            obj=tournament,
            old=old,
            new={"chief_referee": officials.chief_referee_id, "committee": officials.committee_ids},
        )
    return officials


def _refuse_while_heard(
    officials: TournamentOfficials, *, chief_referee: Any, members: list[Any]
) -> None:
    """Seats are frozen while an appeal is before them: the committee while a level-3
    appeal is open, the chief referee while a level-2 one is (an appeal is heard by the
    officials named when it was made).  One query, and only when a seat changes."""
    levels = []
    if sorted(m.pk for m in members) != sorted(officials.committee_ids):
        levels.append(Level.COMMITTEE)
    new_chief = chief_referee.pk if chief_referee is not None else None
    if new_chief != officials.chief_referee_id:
        levels.append(Level.CHIEF)
    if not levels:
        return
    heard = set(
        Dispute.objects.filter(
            game__tournament_id=officials.tournament_id,
            state=DisputeState.APPEALED,
            level__in=levels,
        ).values_list("level", flat=True)
    )
    if Level.COMMITTEE in heard:
        raise StateConflict(
            "The arbitration committee is hearing an appeal: "
            "its members cannot change until it rules."
        )
    if Level.CHIEF in heard:
        raise StateConflict(
            "The chief referee is hearing an appeal: he cannot be replaced until he rules."
        )


# --------------------------------------------------------------------------- opening


def _kind(kind: object) -> DisputeKind:
    if kind not in DisputeKind.values:
        raise ValidationError({"kind": f"Choose one of: {', '.join(DisputeKind.values)}."})
    return DisputeKind(str(kind))


def _read(game: Game, text: str) -> GameRecord:
    """The record, checked like a submitted one (size, readability)."""
    read = records.read_record(
        text,
        board_size=game.tournament.board_size,
        rules=get_rules(game.rules),
        komi=Decimal(game.komi),
        handicap=game.handicap,
    )
    return read.record


def _gather_evidence(
    game: Game,
    kind: DisputeKind,
    move_number: int | None,
    sgf: str | None,
    stones: list[str] | None,
) -> tuple[int | None, dict[str, Any]]:
    """Check the claim against the record and gather what the officials will see.

    The ruling acts on the game's stored record.  A record attached to the claim is the
    record only when the game has none yet (a claim raised at the board); otherwise it
    is evidence, kept with the differences from the stored one, and never replaces it."""
    attached = sgf if sgf and sgf.strip() else ""
    text = game.sgf or attached
    evidence: dict[str, Any] = {"game": {**game_snapshot(game), "state": str(game.state)}}
    evidence["game"]["result_submitted_by"] = game.result_submitted_by_id
    if attached and game.sgf and attached != game.sgf:
        other = _read(game, attached)
        evidence["attached_record"] = attached
        evidence["attached_diff"] = remedies.record_diff(_read(game, game.sgf), other)
    if not text:
        if kind in RECORD_KINDS:
            raise ValidationError(
                {"sgf": "This claim is judged on the game record: send it (sgf) with the claim."}
            )
        if move_number is not None:
            raise ValidationError({"move_number": "There is no game record to number moves in."})
        return None, {**evidence, "record": ""}
    record = _read(game, text)
    rules = get_rules(game.rules)
    total = remedies.move_count(record)
    legality = remedies.legality_report(record, rules)
    if move_number is None:
        if kind == DisputeKind.REPETITION:
            move_number = total
        elif kind == DisputeKind.ILLEGAL_MOVE:
            first = legality["first_illegal"]
            if first is None:
                raise ValidationError(
                    {"move_number": "The engine finds no illegal move: name the move you mean."}
                )
            move_number = int(first["number"])
    if move_number is not None and not 1 <= move_number <= total:
        raise ValidationError({"move_number": f"The record has moves 1 to {total}."})
    if (
        kind == DisputeKind.REPETITION
        and move_number is not None
        and not remedies.repetition_in_time(record, move_number)
    ):
        raise ValidationError(
            {
                "move_number": f"Too late: move {move_number} was followed by the opponent's "
                f"move {move_number + 1}. A repetition must be claimed before the next move is "
                "played (New Zealand rules: it cannot be complained of later)."
            }
        )
    size = record.size
    dead = records.parse_dead_stones(game.dead_stones or [], board_size=size)
    if kind == DisputeKind.DEAD_STONES:
        points = records.parse_dead_stones(stones or game.dead_stones or [], board_size=size)
        final = replay(record, rules, strict=False).board
        try:
            owner = remedies.owner_of(final, points)
        except remedies.RulingError as e:
            raise ValidationError({"stones": remedies.sentence(e)}) from None
        evidence["stones"] = records.points_to_labels(points, size)
        evidence["owner"] = owner.letter
    upto = remedies.record_upto(record, move_number) if move_number else record
    evidence.update(
        record=text,
        sgf_upto=write_record(upto),
        legality=legality,
        count=remedies.count(record, rules, dead=dead, komi=Decimal(game.komi)),
    )
    return move_number, evidence


def dispute_open(
    *,
    actor: Actor,
    game: Game,
    kind: str,
    move_number: int | None = None,
    claim: str = "",
    sgf: str | None = None,
    stones: list[str] | None = None,
) -> Dispute:
    """A player (on his own game), a referee or a director raises a dispute.

    ``sgf`` is the record so far when the game has none stored yet (a claim
    raised at the board); ``stones`` the stones in dispute for ``dead-stones``
    (default: the dead stones the result was submitted with).
    """
    require(
        roles.can_raise_dispute(actor, game),
        "Only the players of this game or the tournament's referees and directors raise disputes.",
    )
    # The caller's copy may be stale: judge the claim on the stored game.
    game = Game.objects.select_related("tournament", "round", "black", "white").get(pk=game.pk)
    refuse_if_locked(game)
    kind_ = _kind(kind)
    move_number, evidence = _gather_evidence(game, kind_, move_number, sgf, stones)
    with transaction.atomic():
        game, _ = game_dispute_open(game=game)
        if Dispute.objects.filter(game=game).exclude(state=DisputeState.CLOSED).exists():
            raise StateConflict("This game already has an open dispute: it is settled first.")
        # A referee who raises a dispute takes it, unless he plays in the game.
        referee = (
            permissions.is_referee(actor, game.tournament)
            and not permissions.is_superuser(actor)
            and not permissions.is_participant(actor, game)
        )
        dispute = Dispute(
            game=game,
            kind=kind_,
            raised_by=as_user(actor),
            move_number=move_number,
            claim=claim or "",
            evidence=evidence,
            state=DisputeState.ASSIGNED if referee else DisputeState.OPEN,
            assigned_referee=as_user(actor) if referee else None,
        )
        validate_and_save(dispute)
        audit_record(
            actor=actor,
            action=AuditAction.DISPUTE_OPENED,
            obj=dispute,
            old={"game_state": evidence["game"]["state"]},
            new={"kind": kind_.value, "move_number": move_number, "claim": dispute.claim},
        )
        dispute_notify(dispute, "opened")
    return dispute


def dispute_open_automatic(
    *, game: Game, kind: str = "result", claim: str, evidence: dict[str, Any]
) -> Dispute | None:
    """Raised by the system (a re-score that does not match the result); idempotent: the
    game's open dispute if it has one, ``None`` (only audited) on a locked game."""
    kind_ = _kind(kind)
    try:
        with transaction.atomic():
            try:
                game, before = game_dispute_open(game=game)
            except GameLockedError:
                audit_record(
                    actor=None,
                    action=AuditAction.DISPUTE_NOT_OPENED_LOCKED,
                    obj=game,
                    new={"kind": kind_.value, "claim": claim, "evidence": evidence},
                )
                return None
            existing = Dispute.objects.filter(game=game).exclude(state=DisputeState.CLOSED).first()
            if existing is not None:
                return existing
            snapshot = {**game_snapshot(game), "state": before}
            snapshot["result_submitted_by"] = game.result_submitted_by_id
            dispute = Dispute.objects.create(
                game=game,
                kind=kind_,
                raised_by=None,
                move_number=_found_move(kind_, evidence),
                claim=claim,
                evidence={"automatic": evidence, "game": snapshot, "record": game.sgf},
            )
            audit_record(
                actor=None,
                action=AuditAction.DISPUTE_OPENED,
                obj=dispute,
                old={"game_state": before},
                new={
                    "kind": kind_.value,
                    "claim": claim,
                    "automatic": True,
                    "move_number": dispute.move_number,
                },
            )
            dispute_notify(dispute, "opened")
            return dispute
    except IntegrityError:  # a simultaneous opening won the one-open-dispute constraint
        return Dispute.objects.filter(game=game).exclude(state=DisputeState.CLOSED).first()


def dispute_open_on_contest(*, actor: Actor, game: Game, reason: str) -> Dispute:
    """The opponent contested the submitted result: a dispute of kind "result" with his
    reason as the claim, on the referee desk.  Inside the contest's transaction, the game
    already locked and disputed."""
    evidence: dict[str, Any]
    _, evidence = _gather_evidence(game, DisputeKind.RESULT, None, None, None)
    evidence["game"]["state"] = "submitted"  # what was contested
    raised_by = as_user(actor)
    if isinstance(actor, CodeHolder):
        # A slip's code acts for its player: the dispute is his (his account if he has
        # one, so his colour and his name follow), and says so without one.
        raised_by = actor.player.user if actor.player.user_id else None
        evidence["raised_with_code"] = {"player": actor.player.pk, "name": actor.player.full_name}
    dispute = Dispute(
        game=game,
        kind=DisputeKind.RESULT,
        raised_by=raised_by,
        claim=reason.strip() or "The opponent contests the submitted result.",
        evidence=evidence,
    )
    validate_and_save(dispute)
    audit_record(
        actor=actor,
        action=AuditAction.DISPUTE_OPENED,
        obj=dispute,
        old={"game_state": "submitted"},
        new={"kind": dispute.kind, "claim": dispute.claim, "contested": True},
    )
    dispute_notify(dispute, "opened")
    return dispute


def dispute_kind_set(*, actor: Actor, dispute: Dispute, kind: str) -> Dispute:
    """The referee (or a director) names what the dispute is about before the first
    ruling, e.g. a contested result that is about dead stones; the evidence is gathered
    again for the new kind."""
    tournament = dispute.game.tournament
    require(
        roles.can_rule(actor, dispute) or permissions.is_director(actor, tournament),
        "Only the tournament's referee or a director changes what a dispute is about.",
    )
    kind_ = _kind(kind)
    with transaction.atomic():
        dispute = (
            Dispute.objects.select_for_update()
            .select_related("game__tournament", "game__round", "game__black", "game__white")
            .get(pk=dispute.pk)
        )
        if dispute.state not in (DisputeState.OPEN, DisputeState.ASSIGNED):
            raise StateConflict("The dispute has been ruled on: its kind is what was ruled on.")
        old = {"kind": dispute.kind}
        if kind_ == dispute.kind:
            return dispute
        move = dispute.move_number if kind_ in (DisputeKind.ILLEGAL_MOVE,) else None
        stored = dispute.evidence.get("record") or None
        move_number, gathered = _gather_evidence(dispute.game, kind_, move, stored, None)
        gathered["game"] = dispute.evidence.get("game", gathered["game"])
        if "automatic" in dispute.evidence:
            gathered["automatic"] = dispute.evidence["automatic"]
        dispute.kind = kind_
        dispute.move_number = move_number
        dispute.evidence = gathered
        validate_and_save(dispute, update_fields=["kind", "move_number", "evidence"])
        audit_record(
            actor=actor,
            action=AuditAction.DISPUTE_KIND_CHANGED,
            obj=dispute,
            old=old,
            new={"kind": kind_},
        )
    return dispute


def _found_move(kind: DisputeKind, evidence: dict[str, Any]) -> int | None:
    """The move the engine found illegal, for a dispute about a move."""
    first = evidence.get("first_illegal")
    if kind in (DisputeKind.ILLEGAL_MOVE, DisputeKind.REPETITION) and isinstance(first, dict):
        number = first.get("number")
        return number if isinstance(number, int) and number > 0 else None
    return None


def dispute_assign(*, actor: Actor, dispute: Dispute, referee: Any) -> Dispute:
    """A director assigns a referee of the tournament, or a referee takes it himself."""
    tournament = dispute.game.tournament
    conflict = roles.conflict_of_interest(actor, dispute)
    require(conflict is None, conflict or "")
    require(
        permissions.is_director(actor, tournament)
        or (permissions.is_referee(actor, tournament) and referee == actor),
        "Only a director assigns a dispute; a referee may take one himself.",
    )
    if not permissions.is_referee(referee, tournament):
        raise ValidationError({"referee": "Assign one of the tournament's referees."})
    if permissions.is_participant(referee, dispute.game):
        raise ValidationError({"referee": "That referee plays in this game: assign another."})
    with transaction.atomic():
        dispute = Dispute.objects.select_for_update().get(pk=dispute.pk)
        if dispute.state not in (DisputeState.OPEN, DisputeState.ASSIGNED):
            raise StateConflict("Only a dispute that has not been ruled on is assigned.")
        if not permissions.is_director(actor, tournament) and dispute.assigned_referee_id not in (
            None,
            referee.pk,
        ):
            # A director's assignment stands: only a director reassigns it.
            raise PermissionDenied("A director assigned this dispute to another referee.")
        old = dispute.assigned_referee_id
        dispute.assigned_referee = referee
        dispute.state = DisputeState.ASSIGNED
        validate_and_save(dispute, update_fields=["assigned_referee", "state"])
        audit_record(
            actor=actor,
            action=AuditAction.DISPUTE_ASSIGNED,
            obj=dispute,
            old={"referee": old},
            new={"referee": referee.pk},
        )
    return dispute
