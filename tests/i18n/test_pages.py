"""The players' and visitors' pages in their language (docs/i18n.md): chosen with the
switcher (a cookie), else the browser's Accept-Language, else the tournament's language
on its pages, else English; ranks as each locale writes them; the printed slips in the
tournament's language; the page cache never serves one language's copy to another."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from games.people.services.grants import director_grant_admin
from games.services.codes import report_code
from games.tournament.services.settings import tournament_settings_update
from ops.models import AuditAction, AuditEntry
from tests.games import sgf_samples

pytestmark = pytest.mark.django_db

# One phrase of each page's interface, per language.
STANDINGS = {
    "en": "Standings after round 1",
    "fr": "Classement après la ronde 1",
    "ja": "第1回戦終了時の順位表",
    "ko": "1라운드 후 순위",
    "zh-hans": "第1轮后排名",
}
# Alice is 3 kyu: her rank in each locale's words.
THREE_KYU = {"fr": "3k", "ja": "3級", "ko": "3급", "zh-hans": "3级"}


def lang_of(body: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', body)
    assert found, "no <html lang>"
    return found.group(1)


def visit(url: str, language: str | None = None, client: Client | None = None) -> str:
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    response = (client or Client()).get(url, **headers)
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.fixture
def finished(game: Game, director: Any) -> Game:
    services.game_result_enter(actor=director, game=game, result="B+R")
    return services.game_finalise(actor=director, game=game)


def public_urls(game: Game) -> list[str]:
    t = game.tournament_id
    return [
        reverse("games:home"),
        reverse("games:tournaments"),
        reverse("games:tournament", args=[t]),
        reverse("games:round", args=[t, 1]),
        reverse("games:round-where", args=[t, 1]),
        reverse("games:standings", args=[t]),
        reverse("games:player", args=[game.black_id]),
        reverse("games:game", args=[game.pk]),
        reverse("ratings:index"),
        reverse("ratings:search") + "?name=Liddell",
        reverse("ratings:handicap") + f"?black={game.black_id}&white={game.white_id}",
        reverse("ratings:head-to-head") + f"?black={game.black_id}&white={game.white_id}",
        reverse("ratings:promotions"),
        reverse("login"),
    ]


@pytest.mark.parametrize("language", ["fr", "ja", "ko", "zh-hans"])
def test_every_public_page_comes_in_the_browsers_language(language: str, finished: Game) -> None:
    for url in public_urls(finished):
        english = visit(url, "en")
        body = visit(url, language)
        assert lang_of(english) == "en" and lang_of(body) == language, url
        # The switcher, on every page, names each language in its own words.
        assert 'action="/i18n/setlang/"' in body and "日本語" in body and "Français" in body
        # The interface is translated: the header's words differ from the English page's.
        assert "Tournaments" in english and "Tournaments" not in body, url


@pytest.mark.parametrize("language", ["ja", "ko", "zh-hans"])
def test_the_standings_write_ranks_in_the_locales_words(language: str, finished: Game) -> None:
    for url in (
        reverse("games:standings", args=[finished.tournament_id]),
        reverse("games:tournament", args=[finished.tournament_id]),
    ):
        body = visit(url, language)
        assert STANDINGS[language] in body
        assert f"<td>{THREE_KYU[language]}</td>" in body, url


def test_results_read_as_words(finished: Game) -> None:
    body = visit(reverse("games:round", args=[finished.tournament_id, 1]), "ja")
    assert "黒の中押し勝ち" in body and 'title="B+R"' in body


def test_a_visitor_who_asks_for_nothing_gets_the_tournaments_language(finished: Game) -> None:
    tournament_settings_update(actor=None, tournament=finished.tournament, language="ja")
    url = reverse("games:standings", args=[finished.tournament_id])
    assert lang_of(visit(url)) == "ja"
    assert STANDINGS["ja"] in visit(url)
    # His browser's language comes first; pages of no tournament stay English.
    assert lang_of(visit(url, "fr")) == "fr"
    assert lang_of(visit(reverse("games:home"))) == "en"
    game_page = visit(reverse("games:game", args=[finished.pk]))
    assert lang_of(game_page) == "ja"


def test_the_switcher_is_remembered_over_the_browsers_language(finished: Game) -> None:
    client = Client()
    here = reverse("games:standings", args=[finished.tournament_id])
    answer = client.post(reverse("set_language"), {"language": "ko", "next": here})
    assert answer.status_code == 302 and answer["Location"] == here
    cookie = answer.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "ko" and cookie["max-age"] == settings.LANGUAGE_COOKIE_AGE
    assert lang_of(visit(here, "fr", client)) == "ko"
    # A language goref does not have changes nothing; a foreign "next" goes home.
    client.post(reverse("set_language"), {"language": "xx", "next": "https://evil.example/"})
    assert lang_of(visit(here, "fr", client)) == "ko"


def test_the_page_cache_keeps_a_copy_per_language(finished: Game) -> None:
    url = reverse("games:standings", args=[finished.tournament_id])
    for language in ("ja", "fr", "ja", "en", "ko"):
        body = visit(url, language)
        assert lang_of(body) == language and STANDINGS[language] in body


def test_a_slip_printed_for_a_japanese_tournament_is_in_japanese(game: Game, director: Any) -> None:
    tournament_settings_update(actor=director, tournament=game.tournament, language="ja")
    director_grant_admin(user=director)
    client = Client()
    client.force_login(director)
    url = reverse("admin:games_tournament_pairing_print", args=[game.tournament_id, 1])
    response = client.get(url, {"by": "slips"}, HTTP_ACCEPT_LANGUAGE="en")
    body = response.content.decode()
    assert response["Content-Language"] == "ja" and lang_of(body) == "ja"
    assert "Wellington Open、第1回戦、1番台" in body
    assert "黒：Liddell Alice（3級）の勝ち" in body and "スマートフォンから報告" in body
    # The QR codes carry a text alternative, in the slip's language.
    assert body.count("<title>QR コード：http://testserver/r/") == 2
    by_table = client.get(url, {"by": "table"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<th>対局台</th>" in by_table


def test_the_slip_code_page_is_in_the_players_language(game: Game, alice: Any) -> None:
    code = report_code(game, alice.pk)
    body = visit(reverse("games:report", args=[game.pk, code]), "ko")
    assert lang_of(body) == "ko" and "흑 불계승" in body  # the result buttons, in words


def test_the_language_setting_is_audited_and_checked(tournament: Any, director: Any) -> None:
    tournament_settings_update(actor=director, tournament=tournament, language="zh-hans")
    entry = AuditEntry.objects.get(action=AuditAction.TOURNAMENT_SETTINGS_CHANGED)
    assert entry.old_value == {"language": "en"} and entry.new_value == {"language": "zh-hans"}
    with pytest.raises(ValidationError):
        tournament_settings_update(actor=director, tournament=tournament, language="xx")
    tournament.refresh_from_db()
    assert tournament.language == "zh-hans"


def test_the_api_sets_and_shows_the_language(api: Any, tournament: Any, director: Any) -> None:
    api.force_authenticate(director)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    answer = api.patch(url, {"language": "fr"}, format="json")
    assert answer.status_code == 200, answer.content
    assert api.get(url).json()["language"] == "fr"
    refused = api.patch(url, {"language": "tlh"}, format="json")
    assert refused.status_code == 400


def test_a_changed_claim_is_mailed_in_the_tournaments_language(
    game: Game, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    bob.user.email = "bob@example.org"
    bob.user.save()
    tournament_settings_update(actor=None, tournament=game.tournament, language="fr")
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    with django_capture_on_commit_callbacks(execute=True):
        services.game_result_submit(actor=alice.user, game=game, result="W+R")
    sent = mail.outbox[-1]
    assert "a modifié le résultat déclaré" in sent.subject
    assert "de « Noir gagne par abandon » à « Blanc gagne par abandon »" in sent.body


@pytest.mark.parametrize(
    ("language", "not_found", "required"),
    [
        ("fr", "Introuvable.", "Ce champ est obligatoire."),
        ("ja", "見つかりません。", "この項目は必須です。"),
        ("ko", "찾을 수 없습니다.", "이 항목은 필수입니다."),
        ("zh-hans", "未找到。", "此字段为必填项。"),
    ],
)
def test_the_apis_messages_are_in_the_clients_language_its_names_stay_english(
    api: Any, director: Any, language: str, not_found: str, required: str
) -> None:
    api.force_authenticate(director)
    missing = api.get("/api/v1/tournaments/999999/", HTTP_ACCEPT_LANGUAGE=language)
    assert missing.status_code == 404 and missing.json()["message"] == not_found
    refused = api.post("/api/v1/tournaments/", {}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert refused.status_code == 400
    fields = refused.json()["extra"]["fields"]
    assert fields["name"] == required  # the field's name is the API's, in English


def test_the_board_diagram_has_a_text_alternative_in_the_readers_language(
    game: Game, director: Any
) -> None:
    # A game without a record draws no board, so this one has six moves.
    services.game_result_enter(actor=director, game=game, result="B+R", sgf=sgf_samples.SIMPLE)
    body = visit(reverse("games:game", args=[game.pk]), "ja")
    assert 'role="img" aria-label="19×19 の碁盤、石 6 個"' in body


def test_a_name_in_its_own_script_is_written_as_that_script_writes_it(
    tournament: Any,
) -> None:
    from tests.factories import PlayerFactory, enter

    lee = PlayerFactory(family_name="이", given_name="창호", declared_rank=8)
    iyama = PlayerFactory(family_name="井山", given_name="裕太", declared_rank=8)
    mixed = PlayerFactory(family_name="Lee", given_name="Changho", declared_rank=8)
    enter(tournament, lee, iyama, mixed)
    assert (lee.full_name, iyama.full_name, mixed.full_name) == (
        "이창호",
        "井山裕太",
        "Lee Changho",
    )
    body = visit(reverse("games:standings", args=[tournament.pk]), "ko")
    assert ">이창호</a>" in body and ">井山裕太</a>" in body and "<td>9단</td>" in body


def test_the_worker_warms_the_copies_in_the_tournaments_language(tournament: Any) -> None:
    from games.tournament import pages

    tournament_settings_update(actor=None, tournament=tournament, language="ko")
    entries = pages.warmed_entries(f"{pages.PREFIX}{tournament.pk}")
    assert len(entries) == 4 and all(".ko." in name for name in entries)


def test_an_outage_while_looking_up_the_events_language_is_the_pages_503(
    tournament: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError
    from django.db.models.sql.compiler import SQLCompiler

    def refuse(*args: object, **kwargs: object) -> None:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(SQLCompiler, "execute_sql", refuse)
    client = Client(raise_request_exception=False)
    response = client.get(reverse("games:standings", args=[tournament.pk]))
    assert response.status_code == 503
    assert b"unavailable for a moment" in response.content


def test_a_score_the_phone_cannot_read_is_explained_in_the_players_language(
    game: Game, alice: Any
) -> None:
    code = report_code(game, alice.pk)
    url = reverse("games:report", args=[game.pk, code])
    bad = Client().post(url, {"action": "report", "score": "B+banana"}, HTTP_ACCEPT_LANGUAGE="ja")
    assert bad.status_code == 400
    assert "記入票と同じ書き方で結果を入力してください" in bad.content.decode()
    assert Game.objects.get(pk=game.pk).result_display == ""


@pytest.mark.parametrize(
    ("language", "cup", "teams"),
    [
        ("fr", "Le tableau est tiré des inscrits", "pas encore un tournoi par équipes"),
        ("ja", "組み合わせ表は第1回戦の組み合わせ時に", "まだ団体戦ではありません"),
    ],
)
def test_the_cup_and_teams_pages_are_in_the_readers_language(
    tournament: Any, director: Any, language: str, cup: str, teams: str
) -> None:
    directing = Client()
    directing.force_login(director)  # only a director sees a team event not yet made
    assert teams in visit(reverse("games:teams", args=[tournament.pk]), language, directing)
    tournament.system = "cup"  # a cup has no teams page
    tournament.save()
    bracket = visit(reverse("games:cup", args=[tournament.pk]), language)
    assert lang_of(bracket) == language and cup in bracket
