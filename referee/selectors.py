"""Reads of disputes that are more than a get: who sees which, with what joined."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from games.engine.coords import parse_point, point_to_gtp
from games.engine.record import parse_record
from games.engine.replay import replay
from games.engine.rules import get_rules
from games.engine.scoring import score
from games.models import Game, Tournament
from games.services.deadstones import same_marking
from ops.models import AuditAction, AuditEntry
from ops.users import is_authenticated
from referee.models import (
    CommitteeVote,
    Dispute,
    DisputeState,
    Level,
    Ruling,
    TournamentOfficials,
)
from referee.roles import officials_of

_JOINED = (
    "game__tournament",
    "game__round",
    "game__black",
    "game__white",
    "raised_by",
    "assigned_referee",
)


def official_tournaments(user: Any) -> QuerySet[Tournament]:
    """Tournaments the user directs, referees, chief-referees or sits on the committee of."""
    return Tournament.objects.filter(
        Q(directors=user)
        | Q(referees=user)
        | Q(officials__chief_referee=user)
        | Q(officials__committee_1=user)
        | Q(officials__committee_2=user)
        | Q(officials__committee_3=user)
    ).values("pk")  # type: ignore[return-value]


def dispute_list(
    *,
    user: Any,
    game: int | None = None,
    tournament: int | None = None,
    state: str | None = None,
) -> QuerySet[Dispute]:
    """Disputes ``user`` may see, newest first: the public sees closed ones only,
    players their games' disputes, officials their tournaments'."""
    qs = Dispute.objects.select_related(*_JOINED)
    if not is_authenticated(user):
        qs = qs.filter(state=DisputeState.CLOSED)
    elif not user.is_superuser:
        qs = qs.filter(
            Q(state=DisputeState.CLOSED)
            | Q(game__black__user=user)
            | Q(game__white__user=user)
            | Q(game__tournament__in=official_tournaments(user))
        )
    if game is not None:
        qs = qs.filter(game_id=game)
    if tournament is not None:
        qs = qs.filter(game__tournament_id=tournament)
    if state is not None:
        qs = qs.filter(state=state)
    return qs.order_by("-created_at", "-id")


def dispute_queue(*, user: Any) -> QuerySet[Dispute]:
    """The referee desk: disputes not yet closed in the user's tournaments, oldest first."""
    if not is_authenticated(user):
        return Dispute.objects.none()
    qs = Dispute.objects.select_related(*_JOINED).exclude(state=DisputeState.CLOSED)
    if not user.is_superuser:
        qs = qs.filter(game__tournament__in=official_tournaments(user))
    return qs.order_by("created_at", "id")


def dispute_detail_queryset() -> QuerySet[Dispute]:
    return Dispute.objects.select_related(*_JOINED).prefetch_related(
        Prefetch(
            "rulings",
            queryset=Ruling.objects.select_related("decided_by")
            .prefetch_related("acceptances")
            .order_by("level"),
        ),
        Prefetch("votes", queryset=CommitteeVote.objects.select_related("member").order_by("id")),
    )


def closed_disputes_of(game: Game) -> QuerySet[Dispute]:
    """A game's closed disputes and their rulings: public with the game."""
    return (
        Dispute.objects.filter(game=game, state=DisputeState.CLOSED)
        .prefetch_related(Prefetch("rulings", queryset=Ruling.objects.select_related("decided_by")))
        .order_by("created_at", "id")
    )


def audit_for_dispute(dispute: Dispute) -> QuerySet[AuditEntry]:
    """The dispute's trail and its game's, oldest first."""
    return (
        AuditEntry.objects.filter(
            Q(object_type="referee.dispute", object_id=str(dispute.pk))
            | Q(object_type="games.game", object_id=str(dispute.game_id))
        )
        .select_related("actor")
        .order_by("created_at", "id")
    )


def officials_of_tournament(tournament_id: int) -> TournamentOfficials:
    """The tournament's officials with their users and its referees (two queries), an
    unsaved empty row when none are named yet; ``Tournament.DoesNotExist`` if unknown."""
    tournament = (
        Tournament.objects.prefetch_related("referees")
        .select_related(
            "officials__chief_referee",
            "officials__committee_1",
            "officials__committee_2",
            "officials__committee_3",
        )
        .get(pk=tournament_id)
    )
    try:
        officials: TournamentOfficials = tournament.officials
    except TournamentOfficials.DoesNotExist:
        officials = TournamentOfficials(tournament=tournament)
    return officials


LEVEL_NAMES = {1: "the referee", 2: "the chief referee", 3: "the committee"}


@dataclass(frozen=True)
class AgreedMarking:
    """Both players marked these stones dead in the stone removal; ``count`` is the
    dispute's record counted with them (the game's rules and komi)."""

    stones: list[str]
    count: str


def agreed_marking(dispute: Dispute) -> AgreedMarking | None:
    """The dead stones both players marked, when a dead-stone dispute came from a stone
    removal where their markings were the same (only the claim was contradicted);
    ``None`` otherwise, and for a record or marking that cannot be read."""
    if dispute.kind != "dead-stones":
        return None
    markings = (dispute.evidence.get("automatic") or {}).get("markings") or {}
    black, white = markings.get("B"), markings.get("W")
    if not isinstance(black, list) or not isinstance(white, list):
        return None
    game = dispute.game
    try:
        record = parse_record(dispute.evidence.get("record") or "")
        if not same_marking(black, white, record.size):
            return None
        dead = {parse_point(label, record.size) for label in black}
    except ValueError:  # the engine's reading errors (SGF, coordinates) are ValueErrors
        return None
    played = replay(record, get_rules(game.rules), strict=False)
    counted = score(played, dead=dead, komi=Decimal(game.komi)).result.to_sgf()
    stones = [point_to_gtp(p, record.size) for p in sorted(dead, key=lambda p: (p[1], p[0]))]
    return AgreedMarking(stones=stones, count=counted)


def ruling_choices(dispute: Dispute, agreed: AgreedMarking | None) -> dict[str, str]:
    """What each decision does to the game's result at the dispute's level, in words
    that cannot be read the other way (docs/referee.md, "What a ruling does"): a
    decision is always about the original claim; dismissing it puts back the result
    before the dispute, upholding it keeps or sets the result the claim asks for.
    ``agreed``: the dispute's ``agreed_marking`` (the caller has it already)."""
    rulings = sorted(dispute.rulings.all(), key=lambda r: r.level)
    first = rulings[0] if rulings else None
    before = (first.effect.get("base") or {}).get("result") if first else None
    if before is None:
        before = dispute.game.result_display
    before_text = before or "no result"
    below = next((r for r in rulings if r.level == dispute.level - 1), None)
    claimant = dispute.raised_by.get_username() if dispute.raised_by else "the system"
    if not dispute.raised_by and dispute.evidence.get("raised_with_code"):
        claimant = dispute.evidence["raised_with_code"]["name"]
    claim = f"the claim ({claimant}'s, {dispute.get_kind_display()})"
    if agreed is not None:
        new = (
            f"the count with the stones both players marked dead, {agreed.count} "
            "(or of the position played out below)"
        )
    elif dispute.kind == "dead-stones":
        new = "the count of the position played out below"
    elif dispute.kind in ("repetition", "illegal-move"):
        new = "the position restored, play going on; the result you name below, if any"
    else:
        new = "the result you name below"
    if below is None:
        return {
            "upheld": f"Uphold {claim}: the result becomes {new} (now {before_text}).",
            "dismissed": f"Dismiss {claim}: the result stays {before_text}.",
        }
    who = LEVEL_NAMES.get(below.level, "the level below")
    if below.decision == "upheld":
        kept = below.result or new
        return {
            "upheld": f"Uphold {claim}, as {who} did: keep {kept} ({who}'s ruling), "
            "or the result you name below.",
            "dismissed": f"Dismiss {claim}, reversing {who}: back to {before_text}, "
            "the result before the dispute.",
        }
    return {
        "upheld": f"Uphold {claim}, reversing {who}: the result becomes {new} (now {before_text}).",
        "dismissed": f"Dismiss {claim}, as {who} did: keep {before_text}, the result "
        "before the dispute.",
    }


# --------------------------------------------------------------------------- slip pages


def appeal_deadline(ruling: Ruling) -> datetime | None:
    """Until when a party may appeal ``ruling``: ``GOREF_APPEAL_MINUTES`` after it
    (``None``: no window, the setting is 0)."""
    minutes = settings.GOREF_APPEAL_MINUTES
    return ruling.created_at + timedelta(minutes=minutes) if minutes else None


@dataclass(frozen=True)
class SlipStep:
    """One ruling or appeal, as a slip's page lists it (oldest first)."""

    kind: str  # "ruling" or "appeal"
    level: str  # the level that ruled, or the one appealed to
    at: datetime
    decision: str = ""  # a ruling's "upheld" or "dismissed"
    result: str = ""  # the RE string the ruling left the game with
    reasons: str = ""  # a ruling's reasons, an appeal's reason
    mine: bool = False  # an appeal: made by the page's player


@dataclass(frozen=True)
class SlipRuling:
    """A game's latest dispute as a slip's code holder sees it: the claim, each ruling
    and appeal, and what he may do now.  Values only: the page words them."""

    state: str
    kind: str
    claim: str
    hearing: str  # the level that rules next (open or appealed), else ""
    steps: list[SlipStep]
    accepted: bool  # the page's player accepted the standing ruling
    opponent_accepted: bool
    can_accept: bool
    can_appeal: bool
    appeal_to: str  # the next level's name, "" when there is none
    appeal_until: datetime | None
    window_closed: bool  # there is a level to appeal to but the window has passed


def slip_ruling(game: Game, player_id: int, *, now: datetime | None = None) -> SlipRuling | None:
    """The game's latest dispute for a slip's page, or ``None`` (four queries)."""
    dispute = Dispute.objects.filter(game=game).order_by("-created_at", "-id").first()
    if dispute is None:
        return None
    now = now or timezone.now()
    rulings = list(dispute.rulings.order_by("level", "id").prefetch_related("acceptances"))
    appeals = AuditEntry.objects.filter(
        object_type="referee.dispute",
        object_id=str(dispute.pk),
        action=AuditAction.DISPUTE_APPEALED,
    ).order_by("created_at", "id")
    steps = [
        SlipStep(
            "ruling",
            Level(r.level).label,
            r.created_at,
            decision=r.decision,
            result=str((r.effect.get("after") or {}).get("result") or r.result or ""),
            reasons=r.reasons,
        )
        for r in rulings
    ]
    for a in appeals:
        new = a.new_value or {}
        steps.append(
            SlipStep(
                "appeal",
                Level(int(new.get("level", 2))).label,
                a.created_at,
                reasons=str(new.get("reason", "")),
                mine=new.get("player") == player_id,
            )
        )
    steps.sort(key=lambda s: s.at)
    standing = rulings[-1] if rulings and dispute.state == DisputeState.RULED else None
    accepted_by = {a.player_id for a in standing.acceptances.all()} if standing else set()
    opponent = game.white_id if player_id == game.black_id else game.black_id
    officials = officials_of(game.tournament)
    next_named = standing is not None and (
        (standing.level == Level.REFEREE and officials is not None and officials.chief_referee_id)
        or (standing.level == Level.CHIEF and officials is not None and officials.has_committee)
    )
    until = appeal_deadline(standing) if standing is not None else None
    in_time = until is None or now <= until
    mine = player_id in accepted_by
    return SlipRuling(
        state=dispute.state,
        kind=dispute.get_kind_display(),
        claim=dispute.claim,
        hearing=Level(dispute.level).label
        if dispute.state in (DisputeState.OPEN, DisputeState.ASSIGNED, DisputeState.APPEALED)
        else "",
        steps=steps,
        accepted=mine,
        opponent_accepted=opponent in accepted_by,
        can_accept=standing is not None and not mine,
        can_appeal=bool(next_named) and in_time and not mine,
        appeal_to=Level(standing.level + 1).label if next_named and standing else "",
        appeal_until=until if next_named else None,
        window_closed=bool(next_named) and not in_time and not mine,
    )
