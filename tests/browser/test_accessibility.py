"""axe-core on the public and player pages, in English and in Japanese: no violation of
any impact (docs/i18n.md, "Accessibility").  axe-core is npm's ``axe-core`` package,
installed by ``make browser`` under ``var/axe/`` (or named by ``$GOREF_AXE``); without
it these tests skip (in CI they fail)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.services.codes import report_code
from games.tournament.services import game_create
from tests.browser.conftest import ROOT, _missing
from tests.factories import entered_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(os.environ.get("GOREF_AXE") or ROOT / "var/axe/node_modules/axe-core/axe.min.js")


def _pages(game: Any, slip: tuple[Any, str]) -> list[str]:
    t, pair = game.tournament_id, f"?black={game.black_id}&white={game.white_id}"
    return [
        reverse("games:home"),
        reverse("games:tournaments"),
        reverse("games:tournament", args=[t]),
        reverse("games:round", args=[t, 1]),
        reverse("games:round-where", args=[t, 1]),
        reverse("games:standings", args=[t]),
        reverse("games:player", args=[game.black_id]),
        reverse("games:game", args=[game.pk]),
        reverse("games:report", args=[slip[0].pk, slip[1]]),
        reverse("ratings:index"),
        reverse("ratings:search") + "?name=Liddell",
        reverse("ratings:handicap") + pair,
        reverse("ratings:head-to-head") + pair,
        reverse("ratings:promotions"),
        reverse("login"),
    ]


def _violations(page: Any, script: str) -> list[str]:
    page.add_script_tag(content=script)
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => `${v.impact} ${v.id}: ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)"
    )
    return list(found)


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_public_pages_have_no_accessibility_violation(
    browser: Any, live_server: Any, game: Any, director: Any, alice: Any, locale: str
) -> None:
    if not AXE.exists():
        _missing(f"axe-core is missing ({AXE}): make browser installs it")
    services.game_result_enter(actor=director, game=game, result="B+R")
    services.game_finalise(actor=director, game=game)
    # A slip code works while its game has no final result: a second game's.
    black, white = (entered_player(game.tournament, declared_rank=r) for r in (-5, -6))
    other = game_create(
        actor=None, tournament=game.tournament, round_number=1, black=black, white=white, table=2
    )
    code = report_code(other, black.pk)
    # The pages' Content-Security-Policy allows only their own scripts: axe is let in.
    context = browser.new_context(
        locale=locale, extra_http_headers={"Accept-Language": locale}, bypass_csp=True
    )
    try:
        page = context.new_page()
        script = AXE.read_text()
        problems = {}
        for path in _pages(game, (other, code)):
            assert page.goto(f"{live_server.url}{path}").status == 200, path
            assert page.get_attribute("html", "lang") == locale[:2]
            found = _violations(page, script)
            if found:
                problems[path] = found
        assert not problems, "\n".join(f"{p}: {v}" for p, v in problems.items())
    finally:
        context.close()
