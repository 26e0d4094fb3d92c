"""A tournament's event settings as the API shows and takes them.

Ranks are text ("4d"), points are plain numbers (0.5), the handicap policy is one object:
``{"kind", "reduction", "ceiling", "correction", "threshold", "based_on_mms", "komi"}``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import EGF_CLASS_CHOICES, SYSTEM_CHOICES, Tournament
from games.tournament.engine.timesystem import Overtime, TimeSystem, time_system_of
from games.tournament.services.settings import SETTINGS, effective_criteria, handicap_komi
from ratings.ranks import Rank


def _group(name: str) -> dict[str, str]:
    """API key -> model field for the settings inside the API's group ``name``."""
    return {s.api.split(".", 1)[1]: s.model for s in SETTINGS if s.api.startswith(f"{name}.")}


POINTS = _group("points")
HANDICAP_KEYS = _group("handicap_policy")
# The settings that are a field of their own in the API: API name -> model field.
PLAIN = {s.api: s.model for s in SETTINGS if "." not in s.api}


class HandicapPolicySerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["nz", "egf", "mcmahon", "none"])
    reduction = serializers.IntegerField(
        min_value=0, max_value=9, required=False, help_text="egf: stones off the grade difference."
    )
    ceiling = serializers.IntegerField(
        min_value=0, max_value=25, required=False, allow_null=True, help_text="Largest handicap."
    )
    correction = serializers.IntegerField(
        min_value=-3, max_value=9, required=False, help_text="mcmahon: stones off the difference."
    )
    threshold = serializers.CharField(
        required=False, help_text="mcmahon: no handicap above this rank, such as 1d."
    )
    based_on_mms = serializers.BooleanField(
        required=False, help_text="mcmahon: from the McMahon scores rather than the ranks."
    )
    komi = serializers.DecimalField(
        max_digits=4,
        decimal_places=1,
        required=False,
        allow_null=True,
        help_text="Komi in handicap games (handicap 1 included); null: the policy's "
        "convention (0.5 mcmahon and egf; nz: 0 with 1 stone, the rules' from 2).",
    )


# The API's names of OpenGotha's complementary time systems.
OVERTIME_API = {
    "sudden_death": Overtime.SUDDEN_DEATH,
    "standard": Overtime.STANDARD,
    "canadian": Overtime.CANADIAN,
    "fischer": Overtime.FISCHER,
}
OVERTIME_OF = {v: k for k, v in OVERTIME_API.items()}


class TimeSystemSerializer(serializers.Serializer[Any]):
    """The time system (docs/tournaments.md, "Time system"); a key left out keeps
    OpenGotha's default."""

    basic_minutes = serializers.IntegerField(min_value=0, max_value=1440, required=False)
    overtime = serializers.ChoiceField(choices=list(OVERTIME_API), required=False)
    byo_yomi_seconds = serializers.IntegerField(
        min_value=0, max_value=86400, required=False, help_text="standard: each period."
    )
    byo_yomi_periods = serializers.IntegerField(
        min_value=0, max_value=100, required=False, help_text="standard: how many periods."
    )
    canadian_moves = serializers.IntegerField(
        min_value=1, max_value=1000, required=False, help_text="canadian: moves per period."
    )
    canadian_seconds = serializers.IntegerField(
        min_value=0, max_value=86400, required=False, help_text="canadian: the period."
    )
    fischer_seconds = serializers.IntegerField(
        min_value=0, max_value=86400, required=False, help_text="fischer: added per move."
    )
    online = serializers.BooleanField(required=False)


def time_system_from_api(value: dict[str, Any]) -> TimeSystem:
    d = TimeSystem()
    return TimeSystem(
        basic_minutes=value.get("basic_minutes", d.basic_minutes),
        overtime=OVERTIME_API[value["overtime"]] if "overtime" in value else d.overtime,
        byo_yomi_seconds=value.get("byo_yomi_seconds", d.byo_yomi_seconds),
        byo_yomi_periods=value.get("byo_yomi_periods", d.byo_yomi_periods),
        canadian_moves=value.get("canadian_moves", d.canadian_moves),
        canadian_seconds=value.get("canadian_seconds", d.canadian_seconds),
        fischer_seconds=value.get("fischer_seconds", d.fischer_seconds),
        online=value.get("online", d.online),
    )


def time_system_out(stored: dict[str, Any]) -> dict[str, Any] | None:
    """The time system as the API shows it, with what derives from it; null when none."""
    if not stored:
        return None
    t = time_system_of({str(k): str(v) for k, v in stored.items()})
    return {
        "basic_minutes": t.basic_minutes,
        "overtime": OVERTIME_OF[t.overtime],
        "byo_yomi_seconds": t.byo_yomi_seconds,
        "byo_yomi_periods": t.byo_yomi_periods,
        "canadian_moves": t.canadian_moves,
        "canadian_seconds": t.canadian_seconds,
        "fischer_seconds": t.fischer_seconds,
        "online": t.online,
        "stated_adjusted_minutes": t.stated_adjusted_minutes,
        "adjusted_minutes": t.adjusted_seconds() // 60,
        "egf_class": t.egf_class(),
        "text": t.describe(),
    }


def _points_field(help_text: str) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=2,
        decimal_places=1,
        min_value=0,
        max_value=1,
        required=False,
        help_text=help_text,
    )


class PointsSerializer(serializers.Serializer[Any]):
    """Points for a round without a game: 0, 0.5 or 1."""

    nbw_absent = _points_field("Wins counted for an absent round.")
    nbw_bye = _points_field("Wins counted for a bye.")
    mms_absent = _points_field("McMahon points for an absent round.")
    mms_bye = _points_field("McMahon points for a bye.")


class SettingsWriteSerializer(serializers.Serializer[Any]):
    """The event settings a client may send (all optional)."""

    system = serializers.ChoiceField(choices=SYSTEM_CHOICES, required=False)
    rounds = serializers.IntegerField(min_value=1, max_value=64, required=False)
    mm_bar = serializers.CharField(required=False, help_text="McMahon bar, such as 4d.")
    mm_floor = serializers.CharField(required=False, help_text="McMahon floor, such as 20k.")
    points = PointsSerializer(required=False)
    round_down = serializers.BooleanField(required=False)
    count_not_played_as_half = serializers.BooleanField(required=False)
    criteria = serializers.ListField(
        child=serializers.CharField(max_length=10), required=False, max_length=10
    )
    category_limits = serializers.ListField(
        child=serializers.CharField(max_length=10), required=False, max_length=20
    )
    handicap_policy = HandicapPolicySerializer(required=False)
    time_system = TimeSystemSerializer(
        required=False, help_text="Setting it sets the EGF class it gives, unless one is sent."
    )
    egf_class = serializers.ChoiceField(
        choices=EGF_CLASS_CHOICES, required=False, help_text="The director's class, audited."
    )


def settings_from_api(data: dict[str, Any]) -> dict[str, Any]:
    """The service's settings (model names, points doubled) from validated API input."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key == "points":
            for api_key, number in value.items():
                doubled = Decimal(number) * 2
                if doubled != doubled.to_integral_value():
                    raise serializers.ValidationError({"points": {api_key: "Use 0, 0.5 or 1."}})
                out[POINTS[api_key]] = int(doubled)
        elif key == "time_system":
            out["time_system"] = time_system_from_api(value)
        elif key == "handicap_policy":
            for api_key, name in HANDICAP_KEYS.items():
                if api_key in value:
                    out[name] = value[api_key]
        elif key in PLAIN:
            out[PLAIN[key]] = value
    return out


SETTINGS_API_FIELDS = tuple(SettingsWriteSerializer._declared_fields)


def _half(doubled: int) -> float:
    return doubled / 2


class HandicapPolicyOut(serializers.Serializer[Any]):
    kind = serializers.CharField()
    reduction = serializers.IntegerField()
    ceiling = serializers.IntegerField(allow_null=True)
    correction = serializers.IntegerField()
    threshold = serializers.CharField()
    based_on_mms = serializers.BooleanField()
    komi = serializers.DecimalField(
        max_digits=4, decimal_places=1, help_text="Komi in games of 2 stones or more, as paired."
    )
    komi_one_stone = serializers.DecimalField(
        max_digits=4, decimal_places=1, help_text="Komi with handicap 1, as paired."
    )
    komi_set = serializers.BooleanField(help_text="false: komi is the policy's convention.")


class SettingsOutMixin(serializers.Serializer[Any]):
    """The settings fields of the tournament serializer."""

    system = serializers.CharField(read_only=True)
    rounds = serializers.IntegerField(source="number_of_rounds", read_only=True)
    mm_bar = serializers.SerializerMethodField()
    mm_floor = serializers.SerializerMethodField()
    points = serializers.SerializerMethodField()
    round_down = serializers.BooleanField(read_only=True)
    count_not_played_as_half = serializers.BooleanField(read_only=True)
    criteria = serializers.SerializerMethodField()
    category_limits = serializers.SerializerMethodField()
    handicap_policy = serializers.SerializerMethodField()
    egf_class = serializers.CharField(read_only=True)
    time_system = serializers.SerializerMethodField()
    pairing_params = serializers.JSONField(read_only=True)
    state = serializers.SerializerMethodField()
    started_at = serializers.DateTimeField(read_only=True)
    closed_at = serializers.DateTimeField(read_only=True)

    @extend_schema_field(TimeSystemSerializer(allow_null=True))
    def get_time_system(self, obj: Tournament) -> dict[str, Any] | None:
        """Plus what derives from it: ``adjusted_minutes``, ``egf_class`` (the class it
        gives; the tournament's ``egf_class`` may be the director's), ``text``."""
        return time_system_out(obj.time_system)

    def get_mm_bar(self, obj: Tournament) -> str:
        return str(Rank(obj.mm_bar))

    def get_mm_floor(self, obj: Tournament) -> str:
        return str(Rank(obj.mm_floor))

    @extend_schema_field(
        {
            "type": "object",
            "properties": {k: {"type": "number"} for k in POINTS},
            "description": "Points for a round without a game (absent, bye).",
        }
    )
    def get_points(self, obj: Tournament) -> dict[str, float]:
        return {key: _half(getattr(obj, name)) for key, name in POINTS.items()}

    def get_criteria(self, obj: Tournament) -> list[str]:
        """Placement criteria in order (the system's defaults when none are set)."""
        return effective_criteria(obj)

    def get_category_limits(self, obj: Tournament) -> list[str]:
        return [str(Rank(i)) for i in obj.category_limits]

    @extend_schema_field(HandicapPolicyOut)
    def get_handicap_policy(self, obj: Tournament) -> dict[str, Any]:
        return {
            "kind": obj.handicap_policy,
            "reduction": obj.handicap_reduction,
            "ceiling": obj.handicap_cap,
            "correction": obj.handicap_correction,
            "threshold": str(Rank(obj.handicap_threshold)),
            "based_on_mms": obj.handicap_based_on_mms,
            "komi": str(handicap_komi(obj, 2)),
            "komi_one_stone": str(handicap_komi(obj, 1)),
            "komi_set": obj.handicap_komi is not None,
        }

    def get_state(self, obj: Tournament) -> str:
        """open or closed."""
        return "closed" if obj.is_closed else "open"


SETTINGS_OUT_FIELDS = tuple(SettingsOutMixin._declared_fields)

# A service error on a model name, reported under the API's name.
SETTINGS_RENAME = {s.model: s.api for s in SETTINGS if s.api != s.model}
