"""Ruling, appealing and closing a dispute (the life cycle is in ``referee.services``)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import permissions
from games.engine.record import parse_record, write_record
from games.engine.replay import replay
from games.engine.rules import get_rules
from games.engine.scoring import score
from games.engine.types import Color
from games.models import Game, Player
from games.services import records
from games.services.codes import CodeHolder
from games.services.common import ACCEPTED_FINAL_MESSAGE, COMMITTEE_FINAL_MESSAGE
from games.services.disputes import game_dispute_settle, game_ruling_apply, game_snapshot
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, StateConflict, as_user, require, validate_and_save
from referee import remedies, roles
from referee.emails import dispute_notify
from referee.models import (
    CommitteeVote,
    Decision,
    Dispute,
    DisputeKind,
    DisputeState,
    Level,
    Ruling,
    RulingAcceptance,
)
from referee.selectors import agreed_marking, appeal_deadline
from referee.services.opening import RESULT_KINDS

MAJORITY = 2  # of the committee's three (goref's choice: the WMSG 2008 rules name no number)


def _locked(dispute: Dispute) -> Dispute:
    """The dispute again, row-locked, with its game and the game's event and players.
    Inside the caller's transaction."""
    return (
        Dispute.objects.select_for_update()
        .select_related("game__tournament", "game__round", "game__black", "game__white")
        .get(pk=dispute.pk)
    )


def _claimant_colour(dispute: Dispute, game: Game) -> Color | None:
    player = permissions.player_for(dispute.raised_by)
    if player is None:
        return None
    if player.pk == game.black_id:
        return Color.BLACK
    return Color.WHITE if player.pk == game.white_id else None


def _result_text(value: object) -> str:
    return records.parse_result(value).to_sgf()


Outcome = tuple[dict[str, Any], str, list[str]]
"""The game after a ruling, the result the ruling names ("" if none), the continuation."""


def _outcome(
    dispute: Dispute,
    game: Game,
    base: dict[str, Any],
    *,
    decision: str,
    result: str | None,
    moves: list[Any] | None,
    standing: str = "",
) -> Outcome:
    """The game's result, record and dead stones after this decision (docs/referee.md),
    the result the ruling names ("" if none) and the dead-stones continuation.

    ``standing``: the result an upheld ruling below set; an upheld appeal ruling that
    names none keeps it (the ruling below stands), never the result before the dispute."""
    if decision == Decision.DISMISSED:
        return dict(base), "", []
    named = _result_text(result) if result not in (None, "") else standing
    return _UPHELD[dispute.kind](dispute, game, dict(base), named, result, moves)


def _result_set(
    dispute: Dispute,
    game: Game,
    after: dict[str, Any],
    named: str,
    result: str | None,
    moves: list[Any] | None,
) -> Outcome:
    """A claim about the result: the ruling names the result that stands."""
    if not named:
        raise ValidationError(
            {
                "result": "An upheld claim of this kind names the result (RE), e.g. W+T, B+R, B+F or B+6.5."
            }
        )
    after["result"] = named
    return after, named, []


def _record_restored(
    dispute: Dispute,
    game: Game,
    after: dict[str, Any],
    named: str,
    result: str | None,
    moves: list[Any] | None,
) -> Outcome:
    """Repetition or illegal move: the move in dispute is replaced by a pass and play
    goes on from the restored record; without a record the offender forfeits."""
    text = dispute.evidence.get("record") or ""
    rules = get_rules(game.rules)
    if dispute.kind == DisputeKind.ILLEGAL_MOVE and not text:
        # "If it is not possible to restore the board the offender should forfeit."
        if not named:
            claimant = _claimant_colour(dispute, game)
            if claimant is None:
                raise ValidationError(
                    {"result": "There is no record to restore: name the forfeit, B+F or W+F."}
                )
            named = f"{claimant.letter}+F"
        if not named.endswith("+F"):
            raise ValidationError({"result": "Without a record the offender forfeits: B+F or W+F."})
        after["result"] = named
        return after, named, []
    record = parse_record(text)
    # The move in dispute, never simply the last one: a player names it, and an
    # automatic dispute carries the one the engine found.
    number = dispute.move_number or _first_illegal(record, rules, dispute.kind)
    new = remedies.restore_with_pass(record, number, rules)
    # The ruling may name the result reached afterwards; otherwise the result stays.
    if named:
        after["result"] = named
    after.update(sgf=write_record(new, result=after["result"] or None), dead_stones=[])
    return after, named, []


def _played_out(
    dispute: Dispute,
    game: Game,
    after: dict[str, Any],
    named: str,
    result: str | None,
    moves: list[Any] | None,
) -> Outcome:
    """Dead stones: the ruling's moves played out, the owner first, then counted."""
    rules = get_rules(game.rules)
    record = parse_record(dispute.evidence.get("record") or "")
    agreed = agreed_marking(dispute)
    if agreed is not None and not moves:
        # Both players marked the same stones: nothing is in doubt but the count,
        # so the ruling is the record counted with their marking (no play-out).
        if result not in (None, "") and _result_text(result) != agreed.count:
            raise ValidationError(
                {
                    "result": f"With the stones both players marked dead the game counts "
                    f"{agreed.count}: rule that, or give the moves played out."
                }
            )
        after.update(result=agreed.count, dead_stones=agreed.stones)
        return after, agreed.count, []
    if not isinstance(moves, list) or not moves:
        raise ValidationError(
            {
                "moves": 'Give the moves played out, e.g. ["D4", "pass", "E5"], the owner of the stones first.'
            }
        )
    try:
        points = remedies.parse_continuation(moves, record.size)
    except remedies.RulingError as e:
        raise ValidationError({"moves": remedies.sentence(e)}) from None
    owner = Color.from_letter(dispute.evidence.get("owner", "B"))
    # New Zealand Rules: the owner moves first whoever's turn it was; the other
    # player's pass is written first so the stored record is in turn (a pass
    # changes no count here).
    to_move = replay(record, rules, strict=False).to_move
    new = remedies.append_continuation(record, points, owner=owner, to_move=to_move)
    start = remedies.move_count(record) + (0 if to_move is owner else 1)
    for v in replay(new, rules, strict=False).violations:
        if v.number > start:
            raise ValidationError(
                {
                    "moves": f"Move {v.number - start} of the continuation is illegal ({v.describe()})."
                }
            )
    counted = score(replay(new, rules, strict=False), komi=Decimal(game.komi))
    named = counted.result.to_sgf()
    continuation = ["pass" if p is None else p for p in _labels(points, record.size)]
    after.update(result=named, dead_stones=[], sgf=write_record(new, result=named))
    return after, named, continuation


# What an upheld claim does to the game, by the dispute's kind (docs/referee.md).
_UPHELD: dict[
    str,
    Callable[[Dispute, Game, dict[str, Any], str, str | None, list[Any] | None], Outcome],
] = {
    **dict.fromkeys(RESULT_KINDS, _result_set),
    DisputeKind.REPETITION: _record_restored,
    DisputeKind.ILLEGAL_MOVE: _record_restored,
    DisputeKind.DEAD_STONES: _played_out,
}


def standing_result(dispute: Dispute) -> str:
    """The result the ruling under appeal set, if it was upheld and named one."""
    if dispute.level == Level.REFEREE:
        return ""
    below = next((r for r in dispute.rulings.all() if r.level == dispute.level - 1), None)
    if below is None or below.decision != Decision.UPHELD:
        return ""
    return below.result or ""


def _first_illegal(record: Any, rules: Any, kind: str) -> int:
    """The move a dispute without a move number is about: the engine's first illegal
    move (disputes opened before the number was kept), never simply the last move."""
    if kind == DisputeKind.DEAD_STONES:
        return remedies.move_count(record)
    first = remedies.legality_report(record, rules)["first_illegal"]
    if first is None:
        raise ValidationError(
            {"move_number": "The engine finds no illegal move in the record: nothing to undo."}
        )
    return int(first["number"])


def _labels(points: list[Any], size: int) -> list[str | None]:
    return [None if p is None else records.points_to_labels([p], size)[0] for p in points]


def _vote_key(decision: str, result: str, moves: list[str]) -> tuple[str, str, tuple[str, ...]]:
    if decision == Decision.DISMISSED:
        return (decision, "", ())
    return (decision, result, tuple(moves))


def _committee_vote(
    actor: Actor, dispute: Dispute, *, decision: str, named: str, moves: list[str], reasons: str
) -> list[dict[str, Any]] | None:
    """Record a committee member's vote; the seated members' votes once ``MAJORITY`` of
    them agree with it (they make the ruling), else None. Inside the ruling's transaction."""
    member = as_user(actor)
    assert member is not None  # can_rule: a committee member, logged in
    try:
        with transaction.atomic():
            CommitteeVote.objects.create(
                dispute=dispute,
                member=member,
                decision=decision,
                result=named,
                moves=moves,
                reasons=reasons,
            )
    except IntegrityError:
        raise StateConflict("You have already voted on this appeal.") from None
    audit_record(
        actor=actor,
        action=AuditAction.DISPUTE_VOTE,
        obj=dispute,
        new={"decision": decision, "result": named, "moves": moves},
    )
    # Only the votes of the committee's present members count (a member
    # replaced before the appeal was heard has no say in it).
    officials = roles.officials_of(dispute.game.tournament)
    seated = set(officials.committee_ids) if officials is not None else set()
    cast = [v for v in dispute.votes.all() if v.member_id in seated]
    key = _vote_key(decision, named, moves)
    if sum(1 for v in cast if _vote_key(v.decision, v.result, v.moves) == key) < MAJORITY:
        return None
    return [
        {
            "member": v.member_id,
            "decision": v.decision,
            "result": v.result,
            "moves": v.moves,
            "reasons": v.reasons,
        }
        for v in cast
    ]


def _effect(base: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What a ruling did to the game, kept with it: the game before the dispute's first
    ruling (``base``), just before this one, and after it."""
    return {"base": base, "before": before, "after": after, "changed": before != after}


def dispute_rule(
    *,
    actor: Actor,
    dispute: Dispute,
    decision: str,
    reasons: str,
    result: str | None = None,
    moves: list[Any] | None = None,
) -> Dispute:
    """The official of the dispute's level rules on the claim, ``upheld`` or ``dismissed``
    (a committee member votes; two agreeing votes make the ruling)."""
    conflict = roles.conflict_of_interest(actor, dispute)
    require(conflict is None, conflict or "")
    require(roles.can_rule(actor, dispute), roles.who_rules(dispute))
    if decision not in Decision.values:
        raise ValidationError({"decision": "Either upheld or dismissed."})
    if not isinstance(reasons, str) or not reasons.strip():
        raise ValidationError({"reasons": "Give the reasons for the ruling."})
    with transaction.atomic():
        dispute = _locked(dispute)
        expected = DisputeState.APPEALED if dispute.level > Level.REFEREE else None
        if dispute.state == DisputeState.CLOSED:
            raise StateConflict("This dispute is closed.")
        if (expected and dispute.state != expected) or (
            not expected and dispute.state not in (DisputeState.OPEN, DisputeState.ASSIGNED)
        ):
            raise StateConflict(
                "This level has ruled: a party may appeal, or an official close it."
            )
        game = dispute.game
        first = dispute.rulings.order_by("level").first()
        before = game_snapshot(game)
        base = first.effect["base"] if first is not None else before
        after, named, continuation = _outcome(
            dispute,
            game,
            base,
            decision=decision,
            result=result,
            moves=moves,
            standing=standing_result(dispute),
        )
        votes: list[dict[str, Any]] = []
        if dispute.level == Level.COMMITTEE:
            majority = _committee_vote(
                actor, dispute, decision=decision, named=named, moves=continuation, reasons=reasons
            )
            if majority is None:
                return dispute
            votes = majority
        reason = f"dispute {dispute.pk}: {dispute.get_level_display()} ruling, {decision}"
        game = game_ruling_apply(actor=actor, game=game, after=after, reason=reason)
        ruling = Ruling(
            dispute=dispute,
            level=dispute.level,
            # The committee decides as a body (its votes are kept with the ruling),
            # not the member whose vote made the majority.
            decided_by=None if dispute.level == Level.COMMITTEE else as_user(actor),
            decision=decision,
            reasons=reasons.strip(),
            result=named,
            moves=continuation,
            votes=votes,
            effect=_effect(base, before, game_snapshot(game)),
        )
        validate_and_save(ruling, exclude=["decided_by"])
        dispute.state = DisputeState.RULED
        validate_and_save(dispute, update_fields=["state"])
        audit_record(
            actor=actor,
            action=AuditAction.DISPUTE_RULED,
            obj=dispute,
            old={
                "result": before["result"],
                "sgf": before["sgf"],
                "dead_stones": before["dead_stones"],
            },
            new={
                "level": ruling.level,
                "decision": decision,
                "reasons": ruling.reasons,
                "result": game.result_display,
                "sgf": game.sgf,
                "dead_stones": game.dead_stones,
            },
        )
        dispute_notify(dispute, "ruled", note=f"Decision: {decision}. {ruling.reasons}")
        if dispute.level == Level.COMMITTEE:  # the last word: nothing left to appeal
            _close(
                None,
                dispute,
                "the arbitration committee's ruling is final",
                final=COMMITTEE_FINAL_MESSAGE,
            )
    return dispute


def _party(actor: Actor, dispute: Dispute, verb: str) -> Player:
    """The player who acts: a slip code's (on its own game only) or an account's."""
    if isinstance(actor, CodeHolder):
        if actor.game_id != dispute.game_id:
            raise PermissionDenied("This code is for another game.")
        return actor.player
    require(roles.is_party(actor, dispute.game), f"Only the players of this game {verb} a ruling.")
    player = permissions.player_for(actor)
    assert player is not None  # a party has a player profile
    return player


def _by_code(actor: Actor) -> dict[str, Any]:
    """A step taken with a slip's code has no account: the audit row keeps the address."""
    return {"by_code": True, "address": actor.address} if isinstance(actor, CodeHolder) else {}


def dispute_appeal(*, actor: Actor, dispute: Dispute, reason: str = "") -> Dispute:
    """A party appeals the standing ruling to the next level (once per level), within
    ``GOREF_APPEAL_MINUTES`` of it; from a slip's code, with his reason."""
    player = _party(actor, dispute, "appeal")
    reason = reason.strip()
    if isinstance(actor, CodeHolder) and not reason:
        raise ValidationError({"reason": "Say why you appeal: the next level reads it."})
    with transaction.atomic():
        dispute = Dispute.objects.select_for_update().get(pk=dispute.pk)
        if dispute.state != DisputeState.RULED:
            raise StateConflict(
                "There is no ruling to appeal."
                if dispute.state != DisputeState.APPEALED
                else "This ruling has been appealed already."
            )
        if dispute.level >= Level.COMMITTEE:
            raise StateConflict("The arbitration committee's ruling is final.")
        if RulingAcceptance.objects.filter(
            ruling__dispute=dispute, ruling__level=dispute.level, player=player
        ).exists():
            raise StateConflict("You have accepted this ruling: you may not appeal it.")
        until = appeal_deadline(Ruling.objects.get(dispute=dispute, level=dispute.level))
        if until is not None and timezone.now() > until:
            raise StateConflict(
                f"The time to appeal this ruling ended at {timezone.localtime(until):%H:%M} "
                f"({settings.GOREF_APPEAL_MINUTES} minutes after it)."
            )
        officials = roles.officials_of(dispute.game.tournament)
        if dispute.level == Level.REFEREE and (
            officials is None or officials.chief_referee_id is None
        ):
            raise StateConflict("This tournament has no chief referee to hear an appeal.")
        if dispute.level == Level.CHIEF and (officials is None or not officials.has_committee):
            raise StateConflict("This tournament has no arbitration committee to hear an appeal.")
        old = {"level": dispute.level, "state": dispute.state}
        dispute.level += 1
        dispute.state = DisputeState.APPEALED
        validate_and_save(dispute, update_fields=["level", "state"])
        audit_record(
            actor=actor,
            action=AuditAction.DISPUTE_APPEALED,
            obj=dispute,
            old=old,
            new={
                "level": dispute.level,
                "state": dispute.state,
                "reason": reason,
                "player": player.pk,
                **_by_code(actor),
            },
        )
        dispute_notify(dispute, "appealed", note=reason)
    return dispute


def appeal_possible(dispute: Dispute) -> bool:
    """A party could still appeal the standing ruling: there is a level above it with
    its officials named (the chief referee; the committee of three)."""
    if dispute.state != DisputeState.RULED or dispute.level >= Level.COMMITTEE:
        return False
    officials = roles.officials_of(dispute.game.tournament)
    if officials is None:
        return False
    if dispute.level == Level.REFEREE:
        return officials.chief_referee_id is not None
    return officials.has_committee


def dispute_accept(*, actor: Actor, dispute: Dispute) -> Dispute:
    """A party accepts the standing ruling, giving up his appeal of it; the dispute
    closes when both have, or one has and no appeal is left (docs/referee.md)."""
    player = _party(actor, dispute, "accept")
    with transaction.atomic():
        dispute = _locked(dispute)
        if dispute.state == DisputeState.CLOSED:
            raise StateConflict("This dispute is closed already.")
        if dispute.state == DisputeState.APPEALED:
            raise StateConflict("This ruling has been appealed: the next level rules first.")
        if dispute.state != DisputeState.RULED:
            raise StateConflict("There is no ruling to accept yet.")
        ruling = Ruling.objects.get(dispute=dispute, level=dispute.level)
        if RulingAcceptance.objects.filter(ruling=ruling, player=player).exists():
            raise StateConflict("You have accepted this ruling already.")
        RulingAcceptance.objects.create(ruling=ruling, player=player)
        accepted = set(ruling.acceptances.values_list("player_id", flat=True))
        both = {dispute.game.black_id, dispute.game.white_id} <= accepted
        audit_record(
            actor=actor,
            action=AuditAction.DISPUTE_ACCEPTED,
            obj=dispute,
            new={
                "ruling": ruling.pk,
                "level": ruling.level,
                "player": player.pk,
                "accepted_by": sorted(accepted),
                **_by_code(actor),
            },
        )
        if both:
            # Both players agree to the ruling's result, as an opponent's confirmation
            # agrees to a claim: it is locked, not left for a director to finalise.
            _close(actor, dispute, "both parties accepted the ruling", final=ACCEPTED_FINAL_MESSAGE)
        elif not appeal_possible(dispute):
            _close(actor, dispute, "a party accepted the ruling; no appeal is left")
        else:
            dispute_notify(dispute, "accepted", note=f"{player} accepts the ruling.")
    return dispute


def dispute_answer_from_slip(
    *, actor: CodeHolder, game: Game, answer: str, reason: str = ""
) -> Dispute:
    """A slip's code holder accepts (``"accept"``) or appeals (``"appeal"``) the standing
    ruling of ``game``'s open dispute, as a signed-in party would."""
    dispute = Dispute.objects.filter(game=game).exclude(state=DisputeState.CLOSED).first()
    if dispute is None:
        raise StateConflict("This game has no open dispute.")
    if answer == "accept":
        return dispute_accept(actor=actor, dispute=dispute)
    if answer == "appeal":
        return dispute_appeal(actor=actor, dispute=dispute, reason=reason)
    raise ValidationError("Accept the ruling or appeal it.")


def dispute_close(*, actor: Actor, dispute: Dispute) -> Dispute:
    """An official closes a ruled dispute nobody appealed; the game may then be settled."""
    conflict = roles.conflict_of_interest(actor, dispute)
    require(conflict is None, conflict or "")
    if not roles.can_close(actor, dispute):
        raise PermissionDenied(
            "Only the tournament's referees, chief referee or directors close a dispute."
        )
    with transaction.atomic():
        dispute = _locked(dispute)
        if dispute.state == DisputeState.CLOSED:
            raise StateConflict("This dispute is closed already.")
        if dispute.state != DisputeState.RULED:
            raise StateConflict("Only a ruled dispute, with no appeal pending, is closed.")
        _close(actor, dispute, "closed by an official")
    return dispute


def _close(actor: Actor, dispute: Dispute, why: str, *, final: str = "") -> None:
    """Close the dispute and settle its game; ``final`` (a reason from
    ``RULING_FINAL_MESSAGES``) locks the game's result at once."""
    game = dispute.game
    game.refresh_from_db()
    original = dispute.evidence.get("game", {})
    # The claim stands as it was submitted: it is again that player's claim
    # (his opponent may confirm it).  Otherwise it is an official's result.
    submitter: Player | None = None
    if game.result_display == original.get("result") and original.get("result_submitted_by"):
        submitter = Player.objects.filter(pk=original["result_submitted_by"]).first()
    game_dispute_settle(
        actor=actor,
        game=game,
        submitted_by=submitter,
        reason=f"dispute {dispute.pk} {why}",
        final=final,
    )
    dispute.state = DisputeState.CLOSED
    dispute.closed_at = timezone.now()
    validate_and_save(dispute, update_fields=["state", "closed_at"])
    audit_record(
        actor=actor,
        action=AuditAction.DISPUTE_CLOSED,
        obj=dispute,
        new={"why": why, "result": game.result_display},
    )
    dispute_notify(dispute, "closed", note=f"Result: {game.result_display or 'none yet'}.")


__all__ = [
    "appeal_possible",
    "dispute_accept",
    "dispute_answer_from_slip",
    "dispute_appeal",
    "dispute_close",
    "dispute_rule",
    "standing_result",
]


def player_records_merged(*, kept: Any, gone: Any) -> None:
    """Two player records became one (``games.services.outbound.players_merged``): the
    acceptances ``gone`` gave are ``kept``'s (one per ruling: a duplicate is dropped)."""
    already = set(RulingAcceptance.objects.filter(player=kept).values_list("ruling", flat=True))
    RulingAcceptance.objects.filter(player=gone, ruling__in=already).delete()
    RulingAcceptance.objects.filter(player=gone).update(player=kept)
