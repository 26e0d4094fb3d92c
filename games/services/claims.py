"""A counter-claim: a player reports his own result over his opponent's claim before
answering it.  It replaces the claim (his opponent then confirms or contests it), and
it is a visible step: audited, told to the first reporter by e-mail, and named on his
pages ("your opponent reports W+R instead").  docs/games.md, "The life of a game"."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction

from games.models import Game, GameState, Player, ResultSubmission, SubmissionKind
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor


def is_counter_claim(game: Game, player: Player) -> bool:
    """``player``'s report would replace his opponent's claim (the caller holds the lock)."""
    return (
        game.state == GameState.SUBMITTED
        and game.result_submitted_by_id is not None
        and game.result_submitted_by_id != player.pk
    )


def counter_claim_record(
    *, actor: Actor, game: Game, player: Player, old_result: str | None, old_by: int
) -> None:
    """Audit the counter-claim and tell the first reporter (on commit, if he has an
    address); called inside the report's transaction, after the new claim is stored."""
    audit_record(
        actor=actor,
        action=AuditAction.GAME_COUNTER_CLAIMED,
        obj=game,
        old={"result": old_result, "claimed_by": old_by},
        new={"result": game.result_display, "claimed_by": player.pk},
    )
    first = game.black if old_by == game.black_id else game.white
    email = getattr(first.user, "email", "") if first.user_id else ""
    if not email:
        return
    subject = f"goref: {player.full_name} reports another result for your game"
    body = (
        f"You reported {old_result or 'a result'} for your game in {game.tournament.name}, "
        f"round {game.round.number}; {player.full_name} reports {game.result_display} "
        "instead. Confirm it, or contest it: a referee then decides."
    )
    transaction.on_commit(
        lambda: send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [email], fail_silently=True)
    )


def countered_claim(game: Game, viewer: Player) -> ResultSubmission | None:
    """``viewer``'s own claim that his opponent's current claim replaced (the page then
    says "your opponent reports ... instead"), or ``None``.  One query."""
    if game.state != GameState.SUBMITTED or game.result_submitted_by_id in (None, viewer.pk):
        return None
    latest = list(ResultSubmission.objects.filter(game=game).order_by("-created_at", "-id")[:2])
    if len(latest) < 2:
        return None
    current, before = latest
    if (
        current.kind == SubmissionKind.SUBMIT
        and before.kind == SubmissionKind.SUBMIT
        and before.player_id == viewer.pk
    ):
        return before
    return None
