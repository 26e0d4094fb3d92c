"""The home page: the latest tournaments, a step from everything else."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.models import Tournament

RECENT_TOURNAMENTS = 10


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.order_by("-start_date", "name")[:RECENT_TOURNAMENTS]
    return render(request, "games/home.html", {"tournaments": tournaments})
