"""Which language a page is in (docs/i18n.md, "Which language"): the visitor's choice
(the switcher's cookie), else his browser's ``Accept-Language``, else, on a tournament's
public pages, the tournament's language, else English."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

from games import cache as versions
from games.selectors import tournament_language_of
from ops.pages.cache import cached

# The routes whose page belongs to one tournament, and which keyword names it.
TOURNAMENT_PAGES = {
    "games:tournament": "pk",
    "games:round": "pk",
    "games:round-where": "pk",
    "games:standings": "pk",
}
GAME_PAGES = {"games:game": "pk", "games:report": "game_id"}
EVENT_PAGES = {*TOURNAMENT_PAGES, *GAME_PAGES}


def chosen_language(request: HttpRequest) -> str | None:
    """The language the visitor asked for (cookie, then ``Accept-Language``), if goref has it."""
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [cookie] if cookie else []
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    candidates += [code for code, _ in parse_accept_lang_header(header) if code != "*"]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return None


class LanguageMiddleware(LocaleMiddleware):
    """Django's ``LocaleMiddleware`` (cookie, ``Accept-Language``, ``Vary``), with the
    tournament's language before English on its pages."""

    def process_request(self, request: HttpRequest) -> None:
        if _prefixed(request):
            super().process_request(request)
            return
        # No URL carries a language: Django's choice without looking at the path, whose
        # first segment ("api", "tournaments") Django tried as a language on every request.
        translation.activate(translation.get_language_from_request(request))
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if _prefixed(request):
            return super().process_response(request, response)
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        match = request.resolver_match
        if match is None or match.view_name not in EVENT_PAGES:
            return
        if chosen_language(request) is not None:  # the visitor's own choice comes first
            return
        try:
            language = _event_language(match.view_name, kwargs)
        except DatabaseError:  # the page itself says so (a 503), or comes from the cache
            return
        if language and language != request.LANGUAGE_CODE:
            translation.activate(language)
            request.LANGUAGE_CODE = language


def _prefixed(request: HttpRequest) -> bool:
    """Whether the request's URLs carry a language (``i18n_patterns``; goref's do not):
    then Django's own middleware decides."""
    urlconf = getattr(request, "urlconf", settings.ROOT_URLCONF)
    return bool(is_language_prefix_patterns_used(urlconf)[0])


def _event_language(name: str, kwargs: dict[str, Any]) -> str | None:
    """The language of the tournament whose page route ``name`` shows, if it is one."""
    if name in TOURNAMENT_PAGES:
        pk = kwargs.get(TOURNAMENT_PAGES[name])
        # Under the event's version: a visitor's cached page costs no query.
        found: str | None = cached(
            f"language:tournament:{pk}",
            [versions.tournament(pk)],
            lambda: tournament_language_of(tournament_id=pk),
        )
        return found
    if name in GAME_PAGES:
        pk = kwargs.get(GAME_PAGES[name])
        found = cached(
            f"language:game:{pk}",
            [versions.TOURNAMENTS],
            lambda: tournament_language_of(game_id=pk),
        )
        return found
    return None
