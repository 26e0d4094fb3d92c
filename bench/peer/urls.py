"""One JSON view, keyed as goref's lookups are (a different key each request)."""

from django.http import HttpRequest, JsonResponse
from django.urls import path


def bare(request: HttpRequest, key: int) -> JsonResponse:
    return JsonResponse({"id": key, "ok": True})


urlpatterns = [path("bare/<int:key>/", bare)]
