"""Promotion policies: criteria per rank band, how they combine, and the caps on every decision.

A ``PromotionPolicy`` is a frozen value, stored as JSON through ``to_dict`` /
``from_dict`` (which validates).  Bands, "any"/"all", the caps and
``DEFAULT_POLICY``: docs/promotions.md §3.  Pure module: standard library only.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias

from ratings.promotion.engine.criteria import (
    CRITERIA,
    MAX_EVENTS,
    MAX_MARGIN,
    Criterion,
    JsonDict,
    PolicyError,
    RatingThreshold,
    check_bool,
    check_list,
    check_object,
    check_whole,
    criterion_from_dict,
    criterion_to_dict,
    read_rank,
)
from ratings.ranks import MAX_INDEX, MIN_INDEX, Rank

POLICY_VERSION = 1
Combine: TypeAlias = Literal["any", "all"]
COMBINES: tuple[Combine, ...] = ("any", "all")


class Band(enum.Enum):
    KYU = "kyu"
    LOW_DAN = "low_dan"
    HIGH_DAN = "high_dan"


DEFAULT_HIGH_DAN_FROM = Rank.dan(5)


def band_of(rank: Rank, high_dan_from: Rank = DEFAULT_HIGH_DAN_FROM) -> Band:
    """The band of ``rank``: kyu, low dan (1d up to ``high_dan_from``), high dan (the rest)."""
    if rank.is_kyu:
        return Band.KYU
    if rank < high_dan_from:
        return Band.LOW_DAN
    return Band.HIGH_DAN


@dataclass(frozen=True, slots=True)
class BandRule:
    """The criteria of one band and how they combine (``"any"`` or ``"all"``)."""

    criteria: tuple[Criterion, ...] = ()
    combine: Combine = "any"

    def __post_init__(self) -> None:
        if not isinstance(self.criteria, tuple):
            raise PolicyError("criteria", f"must be a tuple, not {type(self.criteria).__name__}")
        for i, criterion in enumerate(self.criteria):
            if not isinstance(criterion, CRITERIA):
                raise PolicyError(f"criteria[{i}]", f"is not a criterion: {criterion!r}")
        if self.combine not in COMBINES:
            raise PolicyError("combine", f"must be 'any' or 'all', not {self.combine!r}")

    def to_dict(self) -> JsonDict:
        return {"combine": self.combine, "criteria": [criterion_to_dict(c) for c in self.criteria]}

    @classmethod
    def from_dict(cls, data: object, where: str) -> BandRule:
        rule = check_object(data, where, ("combine", "criteria"))
        combine = rule.get("combine", "any")
        if combine not in COMBINES:
            raise PolicyError(f"{where}.combine", f"must be 'any' or 'all', not {combine!r}")
        raw = check_list(rule.get("criteria", []), f"{where}.criteria")
        criteria = tuple(
            criterion_from_dict(c, f"{where}.criteria[{i}]") for i, c in enumerate(raw)
        )
        return cls(criteria, "any" if combine == "any" else "all")


@dataclass(frozen=True, slots=True)
class KyuDemotion:
    """Demote after the GoR stays ``margin`` below the band for ``events`` events at the rank.

    The Czech variant is ``margin=50`` (docs/promotions.md §3).
    """

    margin: int = 0
    events: int = 1

    def __post_init__(self) -> None:
        check_whole(self.margin, "kyu_demotion.margin", 0, MAX_MARGIN)
        check_whole(self.events, "kyu_demotion.events", 1, MAX_EVENTS)

    def to_dict(self) -> JsonDict:
        return {"margin": self.margin, "events": self.events}


_RATING_THRESHOLD_RULE = BandRule((RatingThreshold(),))


@dataclass(frozen=True, slots=True)
class PromotionPolicy:
    """Criteria per band plus the caps; see the module docstring for the semantics."""

    kyu: BandRule = _RATING_THRESHOLD_RULE
    low_dan: BandRule = _RATING_THRESHOLD_RULE
    high_dan: BandRule = _RATING_THRESHOLD_RULE
    high_dan_from: Rank = DEFAULT_HIGH_DAN_FROM
    max_grades_per_event: int = 2
    revoke_dan: bool = False
    kyu_demotion: KyuDemotion | None = None

    def __post_init__(self) -> None:
        for band in Band:
            rule = getattr(self, band.value)
            if not isinstance(rule, BandRule):
                raise PolicyError(f"bands.{band.value}", f"must be a BandRule, not {rule!r}")
        if not isinstance(self.high_dan_from, Rank) or not (
            Rank.dan(2) <= self.high_dan_from <= Rank(MAX_INDEX)
        ):
            raise PolicyError(
                "high_dan_from", f"must be a dan rank from 2d to 9d, not {self.high_dan_from!r}"
            )
        check_whole(self.max_grades_per_event, "max_grades_per_event", 1, MAX_INDEX - MIN_INDEX)
        check_bool(self.revoke_dan, "revoke_dan")
        if self.kyu_demotion is not None and not isinstance(self.kyu_demotion, KyuDemotion):
            raise PolicyError(
                "kyu_demotion", f"must be a KyuDemotion or None, not {self.kyu_demotion!r}"
            )

    def band_of(self, rank: Rank) -> Band:
        return band_of(rank, self.high_dan_from)

    def rule_for(self, band: Band) -> BandRule:
        rule: BandRule = getattr(self, band.value)
        return rule

    def to_dict(self) -> JsonDict:
        """A JSON-ready dict; ``from_dict(p.to_dict()) == p``."""
        return {
            "version": POLICY_VERSION,
            "bands": {band.value: self.rule_for(band).to_dict() for band in Band},
            "high_dan_from": str(self.high_dan_from),
            "max_grades_per_event": self.max_grades_per_event,
            "revoke_dan": self.revoke_dan,
            "kyu_demotion": None if self.kyu_demotion is None else self.kyu_demotion.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: object) -> PromotionPolicy:
        """Read and validate a stored policy; missing keys take the defaults.

        Raises ``PolicyError`` naming the parameter, e.g.
        ``bands.kyu.criteria[0].wins_at_rank.window: must be at least wins (3)``.
        """
        top = check_object(
            data,
            "",
            (
                "version",
                "bands",
                "high_dan_from",
                "max_grades_per_event",
                "revoke_dan",
                "kyu_demotion",
            ),
        )
        version = top.get("version", POLICY_VERSION)
        if version != POLICY_VERSION:
            raise PolicyError("version", f"must be {POLICY_VERSION}, not {version!r}")
        bands = check_object(top.get("bands", {}), "bands", tuple(b.value for b in Band))
        rules = {
            band: BandRule.from_dict(bands[band.value], f"bands.{band.value}")
            if band.value in bands
            else _RATING_THRESHOLD_RULE
            for band in Band
        }
        return cls(
            kyu=rules[Band.KYU],
            low_dan=rules[Band.LOW_DAN],
            high_dan=rules[Band.HIGH_DAN],
            high_dan_from=_high_dan_from(top.get("high_dan_from", str(DEFAULT_HIGH_DAN_FROM))),
            max_grades_per_event=check_whole(
                top.get("max_grades_per_event", 2), "max_grades_per_event", 1, MAX_INDEX - MIN_INDEX
            ),
            revoke_dan=check_bool(top.get("revoke_dan", False), "revoke_dan"),
            kyu_demotion=_kyu_demotion(top.get("kyu_demotion")),
        )


def _high_dan_from(value: object) -> Rank:
    rank = read_rank(value, "high_dan_from")
    if not rank.is_dan or rank < Rank.dan(2):
        raise PolicyError("high_dan_from", f"must be a dan rank from 2d to 9d, not {rank}")
    return rank


def _kyu_demotion(value: object) -> KyuDemotion | None:
    if value is None:
        return None
    data: Mapping[str, object] = check_object(value, "kyu_demotion", ("margin", "events"))
    return KyuDemotion(
        margin=check_whole(data.get("margin", 0), "kyu_demotion.margin", 0, MAX_MARGIN),
        events=check_whole(data.get("events", 1), "kyu_demotion.events", 1, MAX_EVENTS),
    )


DEFAULT_POLICY = PromotionPolicy()
"""A fresh install's policy: the grade the GoR reaches at the end of one rated event, no
margin, at most two grades per event, dan never revoked, no demotion."""
