"""The pure promotion engine: criteria (``criteria``), policies (``policy``), ``evaluate``.

What each family does, how policies combine them and how a history is judged:
docs/promotions.md.  The honorary 9p+ is awarded by hand, never by a criterion.
Pure package: standard library only (no Django, DRF or Celery).
"""

from ratings.promotion.engine.criteria import (
    CGA_TABLE,
    GRONINGEN_STEPS,
    Criterion,
    LadderStep,
    NetWinLadder,
    PolicyError,
    RatingThreshold,
    ResultTable,
    TableRow,
    WinsAtRank,
    criterion_from_dict,
    criterion_to_dict,
)
from ratings.promotion.engine.evaluate import (
    Decision,
    EventRecord,
    Evidence,
    GameRecordLite,
    PlayerHistory,
    evaluate,
)
from ratings.promotion.engine.policy import (
    DEFAULT_POLICY,
    Band,
    BandRule,
    KyuDemotion,
    PromotionPolicy,
    band_of,
)

__all__ = [
    "CGA_TABLE",
    "DEFAULT_POLICY",
    "GRONINGEN_STEPS",
    "Band",
    "BandRule",
    "Criterion",
    "Decision",
    "EventRecord",
    "Evidence",
    "GameRecordLite",
    "KyuDemotion",
    "LadderStep",
    "NetWinLadder",
    "PlayerHistory",
    "PolicyError",
    "PromotionPolicy",
    "RatingThreshold",
    "ResultTable",
    "TableRow",
    "WinsAtRank",
    "band_of",
    "criterion_from_dict",
    "criterion_to_dict",
    "evaluate",
]
