"""A tournament's event settings: system, rounds, McMahon bar and floor, points for a round
without a game, placement criteria, categories, handicap policy, time system, EGF class.

Defaults per system are OpenGotha's (docs/tournaments.md, "Settings").  Every change is
audited with its before and after values.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from games import permissions
from games.engine.komi import game_komi, handicap_komi_default
from games.engine.rules import get_rules
from games.models import SYSTEM_CHOICES, Tournament
from games.tournament.engine.model import Settings, System
from games.tournament.engine.standings import CRITERIA
from games.tournament.engine.timesystem import TimeSystem, TimeSystemError, time_system_of
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import UNSET, Actor, StateConflict, require, validate_and_save
from ratings.ranks import HONORARY_INDEX, MAX_INDEX, MIN_INDEX, Rank, RankError

SYSTEMS = tuple(code for code, _ in SYSTEM_CHOICES)

# OpenGotha's placement criteria (its names), plus RANK, RATING and CAT.
KNOWN_CRITERIA = CRITERIA
MAX_CRITERIA = 6  # OpenGotha's placement window holds six
MAX_KOMI = 99  # the komi fields hold four digits, one after the point


def default_criteria(system: str) -> list[str]:
    """OpenGotha's placement criteria for a new tournament of ``system``."""
    return list(Settings.defaults(System(system), 1).criteria)


@dataclass(frozen=True)
class Setting:
    """One event setting under its three names."""

    model: str  # the Tournament field, which tournament_settings_update takes
    engine: str | None  # the field of engine.model.Settings (OpenGotha's parameter), if any
    api: str  # the API's key: a field of its own, or "group.key" inside a group


# The one table of the settings' names, in the order forms show them: the admin,
# the API, the standings and pairing (engine.model.Settings) and the files read it.
SETTINGS = (
    Setting("system", "system", "system"),
    Setting("number_of_rounds", "rounds", "rounds"),
    Setting("mm_bar", "mm_bar", "mm_bar"),
    Setting("mm_floor", "mm_floor", "mm_floor"),
    Setting("nbw2_absent", "nbw2_absent", "points.nbw_absent"),
    Setting("nbw2_bye", "nbw2_bye", "points.nbw_bye"),
    Setting("mms2_absent", "mms2_absent", "points.mms_absent"),
    Setting("mms2_bye", "mms2_bye", "points.mms_bye"),
    Setting("round_down", "round_down", "round_down"),
    Setting("count_not_played_as_half", "count_not_played_as_half", "count_not_played_as_half"),
    Setting("criteria", "criteria", "criteria"),
    Setting("category_limits", "category_limits", "category_limits"),
    Setting("handicap_policy", None, "handicap_policy.kind"),
    Setting("handicap_cap", "hd_ceiling", "handicap_policy.ceiling"),
    Setting("handicap_reduction", None, "handicap_policy.reduction"),
    Setting("handicap_correction", "hd_correction", "handicap_policy.correction"),
    Setting("handicap_threshold", "hd_no_hd_rank_threshold", "handicap_policy.threshold"),
    Setting("handicap_based_on_mms", "hd_based_on_mms", "handicap_policy.based_on_mms"),
    Setting("handicap_komi", None, "handicap_policy.komi"),
    Setting("time_system", None, "time_system"),
    Setting("egf_class", None, "egf_class"),
)
SETTINGS_FIELDS = tuple(s.model for s in SETTINGS)
RANK_SETTINGS = ("mm_bar", "mm_floor", "handicap_threshold")


def effective_criteria(tournament: Tournament) -> list[str]:
    """The tournament's placement criteria; none set: its system's defaults."""
    return list(tournament.criteria or default_criteria(tournament.system))


def rank_index(value: object, *, field_name: str) -> int:
    """A rank given as text ("4d") or as a ladder index (3), as an index."""
    if isinstance(value, bool):
        raise ValidationError({field_name: "Enter a rank such as 20k or 4d."})
    if isinstance(value, int):
        if MIN_INDEX <= value <= MAX_INDEX:
            return value
        raise ValidationError({field_name: f"Rank index {value} is off the ladder (30k … 9d)."})
    if isinstance(value, str):
        try:
            rank = Rank.parse(value)
        except RankError as e:
            raise ValidationError({field_name: f"{e}."}) from None
        if rank.index == HONORARY_INDEX:
            raise ValidationError({field_name: "Use a rank from 30k to 9d."})
        return rank.index
    raise ValidationError({field_name: "Enter a rank such as 20k or 4d."})


def as_komi(value: Decimal | int | float | str, *, field_name: str = "komi") -> Decimal:
    """Komi as a Decimal; floats go through ``str`` so 6.5 stays 6.5."""
    if isinstance(value, bool):
        raise ValidationError({field_name: "Komi is a number such as 6.5."})
    try:
        komi = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise ValidationError({field_name: "Komi is a number such as 6.5."}) from None
    if not komi.is_finite() or abs(komi) > MAX_KOMI:
        raise ValidationError({field_name: f"Komi is a number from -{MAX_KOMI} to {MAX_KOMI}."})
    if komi * 2 != (komi * 2).to_integral_value():
        raise ValidationError(
            {field_name: "Komi must be a whole number of half points, such as 6.5 or 7."}
        )
    return komi


def handicap_komi(tournament: Tournament, handicap: int = 2) -> Decimal:
    """The komi of the tournament's games with ``handicap`` (>= 1) stones: its setting,
    else its policy's convention (docs/tournaments.md, "Komi in handicap games")."""
    if tournament.handicap_komi is not None:
        return Decimal(tournament.handicap_komi)
    preset = get_rules(tournament.rules)
    return handicap_komi_default(tournament.handicap_policy, preset.handicap_komi, handicap)


def komi_for_game(tournament: Tournament, handicap: int) -> Decimal:
    """The komi a game of this tournament with ``handicap`` stones is paired with."""
    return game_komi(
        handicap,
        even=Decimal(tournament.komi),
        with_handicap=handicap_komi(tournament, max(handicap, 1)),
    )


def _criteria(value: object) -> list[str]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValidationError({"criteria": "Give the criteria as a list of names."})
    names = [v.strip().upper() for v in value]
    unknown = [n for n in names if n not in KNOWN_CRITERIA]
    if unknown:
        raise ValidationError(
            {
                "criteria": f"Unknown criterion {', '.join(unknown)}; "
                f"known: {', '.join(KNOWN_CRITERIA)}."
            }
        )
    if len(set(names)) != len(names):
        raise ValidationError({"criteria": "A criterion appears twice."})
    if len(names) > MAX_CRITERIA:
        raise ValidationError({"criteria": f"At most {MAX_CRITERIA} criteria."})
    return names


def _category_limits(value: object) -> list[int]:
    if not isinstance(value, list | tuple):
        raise ValidationError({"category_limits": "Give the category limits as a list of ranks."})
    limits = [rank_index(v, field_name="category_limits") for v in value]
    if limits != sorted(set(limits), reverse=True):
        raise ValidationError(
            {"category_limits": "List each limit once, strongest first (such as 1d, 10k)."}
        )
    return limits


def _clean(name: str, value: Any) -> Any:
    if name in RANK_SETTINGS:
        return rank_index(value, field_name=name)
    if name == "criteria":
        return _criteria(value)
    if name == "handicap_komi":
        return None if value is None or value == "" else as_komi(value, field_name=name)
    if name == "category_limits":
        return _category_limits(value)
    if name == "time_system":
        return _time_system(value)
    if name == "system" and value not in SYSTEMS:
        raise ValidationError({"system": f"Choose one of {', '.join(SYSTEMS)}."})
    return value


def _time_system(value: object) -> dict[str, str]:
    """OpenGotha's time attributes (docs/tournaments.md, "Time system"), checked and
    written out whole; a time system stated by a file alone (its adjusted time) stays so."""
    if isinstance(value, TimeSystem):
        return value.to_mapping()
    if not isinstance(value, dict):
        raise ValidationError({"time_system": "Give the time system as an object."})
    if not value:
        return {}  # none: the files write OpenGotha's defaults
    try:
        return TimeSystem.from_mapping(value).to_mapping()
    except TimeSystemError as error:
        raise ValidationError({"time_system": str(error)}) from None


def derived_class(tournament: Tournament) -> str:
    """The EGF class the tournament's time system gives (EGD rating system, as OpenGotha
    derives it); no time system: its class as it stands."""
    if not tournament.time_system:
        return tournament.egf_class
    return time_system_of(tournament.time_system).egf_class()


def _json(value: Any) -> Any:
    return str(value) if isinstance(value, Decimal) else value


def settings_of(tournament: Tournament) -> dict[str, Any]:
    """The settings as the audit trail keeps them (a komi as text)."""
    return {name: _json(getattr(tournament, name)) for name in SETTINGS_FIELDS}


def apply_settings(tournament: Tournament, values: dict[str, Any]) -> list[str]:
    """Set the given settings on ``tournament`` (not saved); the names that changed.

    A new system without new criteria brings that system's default criteria."""
    changed: list[str] = []
    for name, value in values.items():
        if value is UNSET:
            continue
        if name not in SETTINGS_FIELDS:
            raise ValidationError({name: "Not a tournament setting."})
        clean = _clean(name, value)
        if getattr(tournament, name) != clean:
            setattr(tournament, name, clean)
            changed.append(name)
    # The class follows a new time system unless given with it: the director's own class
    # stands until the time system changes again.
    if "time_system" in changed and values.get("egf_class", UNSET) is UNSET:
        derived = derived_class(tournament)
        if derived != tournament.egf_class:
            tournament.egf_class = derived
            changed.append("egf_class")
    if "system" in changed and values.get("criteria", UNSET) is UNSET and tournament.criteria:
        tournament.criteria = default_criteria(tournament.system)
        changed.append("criteria")
    if tournament.mm_floor > tournament.mm_bar:
        raise ValidationError({"mm_floor": "The McMahon floor cannot be above the bar."})
    return changed


@transaction.atomic
def tournament_settings_update(
    *, actor: Actor, tournament: Tournament, **values: Any
) -> Tournament:
    """Change the tournament's event settings; audited with before and after values.

    A closed tournament's settings no longer change."""
    if actor is not None:
        require(
            permissions.is_director(actor, tournament), "Only its directors can edit a tournament."
        )
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = settings_of(tournament)
    changed = apply_settings(tournament, values)
    if not changed:
        return tournament
    if tournament.is_closed:
        raise StateConflict("This tournament is closed: its settings no longer change.")
    validate_and_save(tournament, update_fields=changed)
    audit_record(
        actor=actor,
        action=AuditAction.TOURNAMENT_SETTINGS_CHANGED,
        obj=tournament,
        old={name: before[name] for name in changed},
        new={name: _json(getattr(tournament, name)) for name in changed},
    )
    return tournament
