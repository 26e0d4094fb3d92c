"""The pure promotion-criteria engine (issue 7; ratings.md §7).

- ``criteria``: one frozen dataclass per family (``RatingThreshold``,
  ``WinsAtRank``, ``NetWinLadder``, ``ResultTable``) and ``PolicyError``.
- ``policy``: ``Band``, ``BandRule``, ``KyuDemotion``, ``PromotionPolicy``
  (criteria per band plus the caps, ``to_dict``/``from_dict``) and
  ``DEFAULT_POLICY``.
- ``evaluate``: ``PlayerHistory`` / ``EventRecord`` / ``GameRecordLite`` in,
  ``Decision`` (with ``Evidence`` and an ``idempotency_key``) out.

The honorary 9p+ is awarded by hand with a reason, never by a criterion.

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
