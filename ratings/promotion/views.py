"""Public promotion pages: recent promotions, and a printable certificate per promotion.

Both are public and read-only: a promotion, like a rating, is published
(candidates are not, and have no page here: directors decide them in the
admin or through the API).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from ratings.models import RankChange, RankChangeKind
from ratings.promotion import selectors

PAGE_SIZE = selectors.RECENT_SIZE


@require_GET
def promotions(request: HttpRequest) -> HttpResponse:
    rows = list(selectors.recent_promotions()[:PAGE_SIZE])
    return render(request, "ratings/promotions.html", {"rows": rows})


@require_GET
def certificate(request: HttpRequest, pk: int) -> HttpResponse:
    """A promotion's (or the honorary title's) certificate, laid out for printing."""
    change = get_object_or_404(
        RankChange.objects.select_related("player", "player__club", "tournament", "changed_by"),
        pk=pk,
        kind__in=[RankChangeKind.PROMOTION, RankChangeKind.HONORARY],
    )
    return render(request, "ratings/certificate.html", {"change": change})
