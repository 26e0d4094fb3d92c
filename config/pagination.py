"""The API's one paginator: ``?limit=&offset=``, bounded.

DRF's ``LimitOffsetPagination`` has no ceiling by default and hands any
offset to the database; a limit or offset of 25 digits overflowed SQLite's
integers into a 500 (found by fuzzing).  Here the limit is capped at
``max_limit`` and the offset at ``MAX_OFFSET`` (past every real row count, so
the page is simply empty).
"""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

MAX_OFFSET = 2**31 - 1


class Pagination(LimitOffsetPagination):
    max_limit = 1000

    def get_offset(self, request: Request) -> int:
        return min(super().get_offset(request), MAX_OFFSET)
