"""Disputes, rulings, appeals: the one write path of the referee app.

Raising (``opening``), ruling, appealing, accepting and closing (``deciding``).  The
life of a dispute, what an upheld ruling does per kind and who may act at each level:
docs/referee.md.  Every step writes an audit entry.
"""

from referee.services.deciding import (
    appeal_possible,
    dispute_accept,
    dispute_answer_from_slip,
    dispute_appeal,
    dispute_close,
    dispute_rule,
    player_records_merged,
    standing_result,
)
from referee.services.opening import (
    RECORD_KINDS,
    RESULT_KINDS,
    dispute_assign,
    dispute_kind_set,
    dispute_open,
    dispute_open_automatic,
    dispute_open_on_contest,
    officials_check,
    tournament_officials_set,
)

__all__ = [
    "RECORD_KINDS",
    "RESULT_KINDS",
    "appeal_possible",
    "dispute_accept",
    "dispute_answer_from_slip",
    "dispute_appeal",
    "dispute_assign",
    "dispute_close",
    "dispute_kind_set",
    "dispute_open",
    "dispute_open_automatic",
    "dispute_open_on_contest",
    "dispute_rule",
    "officials_check",
    "player_records_merged",
    "standing_result",
    "tournament_officials_set",
]
