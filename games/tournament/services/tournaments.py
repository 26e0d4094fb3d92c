"""Tournaments and their rounds."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import cache as page_cache
from games import permissions
from games.engine.rules import Rules, UnknownRules, get_rules
from games.models import Round, Tournament
from games.tournament.services.settings import (
    apply_settings,
    as_komi,
    tournament_settings_update,
)
from ops.audit import audit_record
from ops.models import AuditAction
from ops.pages import cache
from ops.services import UNSET, Actor, Unset, as_user, require, validate_and_save
from ops.text import check_visible_text

# What tournament_create / tournament_update take, in the order forms show them.
TOURNAMENT_FIELDS = (
    "name",
    "start_date",
    "end_date",
    "venue",
    "rules",
    "board_size",
    "komi",
    "time_control",
    "rated",
)


def tournament_audit_value(tournament: Tournament) -> dict[str, object]:
    """What the audit trail keeps of a tournament's settings."""
    return {
        "name": tournament.name,
        "start_date": str(tournament.start_date),
        "end_date": str(tournament.end_date),
        "venue": tournament.venue,
        "rules": tournament.rules,
        "board_size": tournament.board_size,
        "komi": str(tournament.komi),
        "time_control": tournament.time_control,
        "rated": tournament.rated,
    }


def tournament_referees_set(*, actor: Actor, tournament: Tournament, referees: list[Any]) -> None:
    """A director names the tournament's referees (they rule on its disputes)."""
    if actor is not None:
        require(
            permissions.is_director(actor, tournament),
            "Only its directors name a tournament's referees.",
        )
    with transaction.atomic():
        old = sorted(tournament.referees.values_list("pk", flat=True))
        tournament.referees.set(referees)
        new = sorted(u.pk for u in referees)
        if old != new:
            # Their headers show the referee desk, or no longer do.
            cache.touch(*page_cache.users(set(old) ^ set(new)))
            audit_record(
                actor=actor,
                action=AuditAction.TOURNAMENT_REFEREES_SET,
                obj=tournament,
                old={"referees": old},
                new={"referees": new},
            )


def rules_named(name: object, *, field_name: str = "rules") -> Rules:
    if not isinstance(name, str):
        raise ValidationError({field_name: "Choose one of the rules presets."})
    try:
        return get_rules(name)
    except UnknownRules as e:
        raise ValidationError({field_name: f"{e}."}) from None


def rated_window_start() -> dt.date:
    """The earliest end date a director may give a rated tournament:
    ``GOREF_RATED_BACKDATE_DAYS`` ago, a fixed window nobody's close moves.  Each
    player's own floor (his last rated event) is checked when the event closes
    (``lifecycle.tournament_close``).  Federation officials date one earlier
    (docs/games.md, "A director's reach")."""
    return timezone.localdate() - dt.timedelta(days=django_settings.GOREF_RATED_BACKDATE_DAYS)


def before_window(tournament: Tournament) -> bool:
    """A rated tournament ending before the window."""
    return tournament.rated and tournament.end_date < rated_window_start()


def past_for_director(actor: Actor, tournament: Tournament) -> bool:
    """A rated tournament ending before the window, and the actor no official."""
    if actor is None or permissions.is_federation_official(actor):
        return False
    return before_window(tournament)


def _check_rated_dates(actor: Actor, tournament: Tournament) -> None:
    if past_for_director(actor, tournament):
        limit = rated_window_start()
        raise ValidationError(
            {
                "end_date": f"A rated tournament ends on {limit} or later "
                f"({django_settings.GOREF_RATED_BACKDATE_DAYS} days ago at most).  Ask a "
                "federation official to date it earlier, or import its file: the import "
                "is then held for an official's release."
            }
        )


@transaction.atomic
def tournament_create(
    *,
    actor: Actor,
    name: str,
    start_date: dt.date,
    end_date: dt.date,
    rules: str,
    board_size: int = 19,
    komi: Decimal | int | str | None = None,
    venue: str = "",
    time_control: str = "",
    rated: bool = True,
    settings: dict[str, Any] | None = None,
    short_name: str = "",
    director_name: str = "",
    time_system: dict[str, str] | None = None,
    past_held: bool = False,
) -> Tournament:
    """Create a tournament; the actor becomes its first director.

    ``past_held``: the caller (an import) holds a rated event dated before the window
    for an official's release instead of refusing its date.

    Without ``komi`` the preset's even-game komi is used (docs/rules.md, "The presets");
    ``settings`` are event settings (``games.tournament.services.settings``), the rest default.
    """
    if actor is not None:
        require(
            permissions.can_create_tournament(actor),
            "Only staff or users allowed to add tournaments can create one.",
        )
    check_visible_text(name=name, venue=venue)
    preset = rules_named(rules)
    tournament = Tournament(
        name=(name or "").strip(),
        start_date=start_date,
        end_date=end_date,
        rules=preset.name,
        board_size=board_size,
        komi=preset.komi_for(0) if komi is None else as_komi(komi),
        venue=venue,
        time_control=time_control,
        rated=rated,
        short_name=short_name,
        director_name=director_name,
        time_system=time_system or {},
    )
    apply_settings(tournament, settings or {})
    if not past_held:
        _check_rated_dates(actor, tournament)
    validate_and_save(tournament)
    creator = as_user(actor)
    if creator is not None:
        tournament.directors.add(creator)
        cache.touch(page_cache.user(creator.pk))  # his header shows the referee desk
    audit_record(
        actor=actor,
        action=AuditAction.TOURNAMENT_CREATED,
        obj=tournament,
        new=tournament_audit_value(tournament),
    )
    return tournament


@transaction.atomic
def tournament_update(
    *,
    actor: Actor,
    tournament: Tournament,
    name: str | Unset = UNSET,
    start_date: dt.date | Unset = UNSET,
    end_date: dt.date | Unset = UNSET,
    rules: str | Unset = UNSET,
    board_size: int | Unset = UNSET,
    komi: Decimal | int | str | Unset = UNSET,
    venue: str | Unset = UNSET,
    time_control: str | Unset = UNSET,
    rated: bool | Unset = UNSET,
    settings: dict[str, Any] | None = None,
) -> Tournament:
    """Change the given fields.  Games keep the rules and komi they were paired with.

    ``settings`` go through ``tournament_settings_update`` (audited)."""
    if actor is not None:
        require(
            permissions.is_director(actor, tournament), "Only its directors can edit a tournament."
        )
    check_visible_text(name=name, venue=venue)
    old = tournament_audit_value(Tournament.objects.get(pk=tournament.pk))
    changed: list[str] = []
    if rules is not UNSET:
        old_preset = get_rules(tournament.rules)
        preset = rules_named(rules)
        tournament.rules = preset.name
        changed.append("rules")
        # Komi follows the rules, as on creation, unless it was set apart from them
        # (a komi that is not the old preset's own stays) or is given with them.
        if komi is UNSET and Decimal(tournament.komi) == old_preset.komi_for(0):
            komi = preset.komi_for(0)
    if board_size is not UNSET:
        if board_size != tournament.board_size and tournament.games.exclude(sgf="").exists():
            raise ValidationError(
                {"board_size": "Games of this tournament already have records on this board size."}
            )
        tournament.board_size = board_size
        changed.append("board_size")
    if komi is not UNSET:
        tournament.komi = as_komi(komi)
        changed.append("komi")
    for field_name, value in (
        ("name", name),
        ("start_date", start_date),
        ("end_date", end_date),
        ("venue", venue),
        ("time_control", time_control),
        ("rated", rated),
    ):
        if value is not UNSET:
            setattr(tournament, field_name, value.strip() if isinstance(value, str) else value)
            changed.append(field_name)
    if changed:
        if {"start_date", "end_date", "rated"} & set(changed):
            _check_rated_dates(actor, tournament)
        validate_and_save(tournament, update_fields=changed)
        new = tournament_audit_value(tournament)
        diff = [k for k in new if new[k] != old[k]]
        if diff:
            audit_record(
                actor=actor,
                action=AuditAction.TOURNAMENT_UPDATED,
                obj=tournament,
                old={k: old[k] for k in diff},
                new={k: new[k] for k in diff},
            )
    if settings:
        tournament = tournament_settings_update(actor=actor, tournament=tournament, **settings)
    return tournament


def round_get_or_create(*, actor: Actor, tournament: Tournament, number: int) -> Round:
    """The tournament's round ``number``, created on first use."""
    if actor is not None:
        require(permissions.is_director(actor, tournament), "Only its directors can add rounds.")
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValidationError({"round_number": "A round number is a whole number from 1."})
    if number > 32767:
        raise ValidationError({"round_number": "That round number is too large."})
    existing = Round.objects.filter(tournament=tournament, number=number).first()
    if existing is not None:
        return existing
    try:
        # A savepoint: a concurrent request may create the same round first.
        with transaction.atomic():
            rnd = Round(tournament=tournament, number=number)
            validate_and_save(rnd)
            return rnd
    except IntegrityError:
        return Round.objects.get(tournament=tournament, number=number)


@transaction.atomic
def tournament_officials_set(
    *,
    actor: Actor,
    tournament: Tournament,
    directors: Iterable[Any] | Unset = UNSET,
    referees: Iterable[Any] | Unset = UNSET,
) -> Tournament:
    """Name the tournament's co-directors and referees (users); audited with before and
    after.  A tournament always keeps at least one director."""
    if actor is not None:
        require(
            permissions.is_director(actor, tournament),
            "Only its directors can name a tournament's directors and referees.",
        )
    old: dict[str, list[int]] = {}
    new: dict[str, list[int]] = {}
    for name, users in (("directors", directors), ("referees", referees)):
        if users is UNSET:
            continue
        wanted = sorted({u.pk for u in users})
        relation = getattr(tournament, name)
        before = sorted(relation.values_list("pk", flat=True))
        if wanted == before:
            continue
        if name == "directors" and not wanted:
            raise ValidationError({"directors": "A tournament needs at least one director."})
        relation.set(wanted)
        old[name], new[name] = before, wanted
        cache.touch(*page_cache.users(set(before) ^ set(wanted)))  # their headers' desk link
        if name == "directors":  # the tournament page keeps its directors with its row
            cache.touch(page_cache.tournament(tournament.pk))
    if new:
        audit_record(
            actor=actor,
            action=AuditAction.TOURNAMENT_OFFICIALS_CHANGED,
            obj=tournament,
            old=old,
            new=new,
        )
    return tournament
