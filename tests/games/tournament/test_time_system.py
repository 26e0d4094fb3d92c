"""The time system is a tournament setting: a director sets it through the API (or the
admin), the EGF class and adjusted time follow from it as OpenGotha derives them, a class
the director gives stands and is audited, and every file writes it (docs/tournaments.md,
"Time system")."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.people.services.grants import director_grant_admin
from games.tournament import selectors as day_selectors
from games.tournament.engine.formats import opengotha
from games.tournament.engine.timesystem import Overtime, TimeSystem, time_system_of
from ops.models import AuditEntry
from tests.games.api_helpers import assert_error

URL = "/api/v1/tournaments/"


@pytest.mark.parametrize(
    ("times", "adjusted", "cls"),
    [
        # EGD rating system: A needs basic >= 60 and adjusted >= 75 min over the board.
        (TimeSystem(basic_minutes=60, overtime=Overtime.STANDARD, byo_yomi_seconds=30), 82, "A"),
        (TimeSystem(basic_minutes=60, overtime=Overtime.CANADIAN), 80, "A"),
        (TimeSystem(basic_minutes=40, overtime=Overtime.CANADIAN), 60, "B"),
        (TimeSystem(basic_minutes=50, overtime=Overtime.SUDDEN_DEATH), 50, "B"),
        (TimeSystem(basic_minutes=25, overtime=Overtime.SUDDEN_DEATH), 25, "X"),
        # Fischer's limits are lower: basic 45 and 120 increments of 15 s is 75 min.
        (TimeSystem(basic_minutes=45, overtime=Overtime.FISCHER, fischer_seconds=15), 75, "A"),
        (TimeSystem(basic_minutes=40, overtime=Overtime.CANADIAN, online=True), 60, "D"),
        (TimeSystem(basic_minutes=30, overtime=Overtime.CANADIAN, online=True), 50, "X"),
    ],
)
def test_the_class_and_adjusted_time_follow_the_egd_rules(
    times: TimeSystem, adjusted: int, cls: str
) -> None:
    assert (times.adjusted_seconds() // 60, times.egf_class()) == (adjusted, cls)
    assert TimeSystem.from_mapping(times.to_mapping()) == times


def test_opengothas_files_give_the_class_opengotha_wrote_in_their_h9() -> None:
    from pathlib import Path

    data = Path(__file__).resolve().parents[2] / "data" / "opengotha"
    event = opengotha.read((data / "juvisy-2019.xml").read_bytes())
    times = time_system_of(event.extra)
    h9 = (data / "juvisy-2019.h9").read_text("latin-1")
    assert f"; TM[{times.adjusted_seconds() // 60}]" in h9 and f"; CL[{times.egf_class()}]" in h9


def test_a_director_sets_the_time_system_and_the_class_follows(
    api_as: Any, director: Any, tournament: Any
) -> None:
    url = f"{URL}{tournament.pk}/"
    sent = {"basic_minutes": 40, "overtime": "standard", "byo_yomi_seconds": 30}
    response = api_as(director).patch(url, {"time_system": sent}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["egf_class"] == "B"
    shown = body["time_system"]
    assert (shown["overtime"], shown["byo_yomi_periods"], shown["adjusted_minutes"]) == (
        "standard",
        5,
        62,
    )
    assert shown["text"] == "40 min + 5 × 30 s byo-yomi" and shown["egf_class"] == "B"
    audit = AuditEntry.objects.filter(object_id=str(tournament.pk)).latest("id")
    assert audit.old_value["egf_class"] == "A" and audit.new_value["egf_class"] == "B"
    assert (
        audit.new_value["time_system"]["basicTime"] == "40" and audit.old_value["time_system"] == {}
    )

    # The director's own class stands, audited, until the time system changes again.
    body = api_as(director).patch(url, {"egf_class": "C"}, format="json").json()
    assert body["egf_class"] == "C" and body["time_system"]["egf_class"] == "B"
    audit = AuditEntry.objects.filter(object_id=str(tournament.pk)).latest("id")
    assert (audit.old_value, audit.new_value) == ({"egf_class": "B"}, {"egf_class": "C"})
    sent = {"basic_minutes": 60, "overtime": "fischer", "fischer_seconds": 30}
    assert (
        api_as(director).patch(url, {"time_system": sent}, format="json").json()["egf_class"] == "A"
    )
    both = {"time_system": {"basic_minutes": 90}, "egf_class": "B"}
    assert api_as(director).patch(url, both, format="json").json()["egf_class"] == "B"


def test_bad_time_systems_are_400_and_only_directors_set_one(
    api_as: Any, director: Any, outsider: Any, tournament: Any
) -> None:
    url = f"{URL}{tournament.pk}/"
    for bad in (
        {"overtime": "hourglass"},
        {"basic_minutes": -5},
        {"canadian_moves": 0},
        {"basic_minutes": "soon"},
    ):
        assert_error(api_as(director).patch(url, {"time_system": bad}, format="json"), 400)
    assert api_as(outsider).patch(url, {"time_system": {}}, format="json").status_code == 403
    tournament.refresh_from_db()
    assert tournament.time_system == {}


def test_the_files_carry_the_time_system(api_as: Any, director: Any, game: Any) -> None:
    t = game.tournament
    url = f"{URL}{t.pk}/"
    sent = {
        "basic_minutes": 45,
        "overtime": "canadian",
        "canadian_moves": 20,
        "canadian_seconds": 600,
    }
    api_as(director).patch(url, {"time_system": sent}, format="json")
    t.refresh_from_db()
    # 45 min + 60 moves at 30 s = 75 min: class B (basic under 60), as OpenGotha derives it.
    h9 = day_selectors.export(t, "egf").decode()
    assert "; TM[75]" in h9 and "; CL[B]" in h9 and "; CM[Canadian byo-yomi]" in h9
    tou = day_selectors.export(t, "ffg").decode("iso8859_15")
    assert ";time=45+b\n;ta=75\n" in tou
    xml = opengotha.read(day_selectors.export(t, "opengotha"))
    assert time_system_of(xml.extra) == time_system_of(t.time_system)


def test_the_printed_pairing_shows_the_time_system(client: Any, director: Any, game: Any) -> None:
    from games.tournament.services import tournament_settings_update

    t = game.tournament
    times = TimeSystem(basic_minutes=60, overtime=Overtime.FISCHER, fischer_seconds=20)
    tournament_settings_update(actor=director, tournament=t, time_system=times)
    director_grant_admin(user=director)
    client.force_login(director)
    page = client.get(reverse("admin:games_tournament_pairing_print", args=[t.pk, 1]))
    assert page.status_code == 200, page.status_code
    assert "Time: 60 min + Fischer + 20 s a move" in page.content.decode()


def test_a_director_sets_the_time_system_in_the_admin(director: Any, tournament: Any) -> None:
    from django.test import Client

    from tests.games.test_admin import _form_data

    director_grant_admin(user=director)
    c = Client()
    c.force_login(director)
    url = reverse("admin:games_tournament_change", args=[tournament.pk])
    page = c.get(url)
    assert "time system, as read" in page.content.decode().lower()
    # Overtime, basic minutes, byo-yomi s, periods, Canadian moves and s, Fischer s, online.
    fields = ["STDBYOYOMI", "60", "30", "3", "15", "300", "10"]
    data = _form_data(page, **{f"time_system_{k}": v for k, v in enumerate(fields)})
    data.pop("time_system", None)
    response = c.post(url, data, follow=True)
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.time_system["complementaryTimeSystem"] == "STDBYOYOMI"
    assert tournament.time_system["byoYomiPeriods"] == "3" and tournament.egf_class == "A"
    assert AuditEntry.objects.filter(
        action="tournament.settings_changed", new_value__time_system__basicTime="60"
    ).exists()
    page = c.get(url).content.decode()
    assert "60 min + 3 × 30 s byo-yomi: adjusted time 82 min, class A" in page


def test_a_time_too_short_for_a_rated_class_asks_to_unset_rated(
    api_as: Any, director: Any, tournament: Any
) -> None:
    url = f"{URL}{tournament.pk}/"
    blitz = {"basic_minutes": 20, "overtime": "sudden_death"}
    body = assert_error(api_as(director).patch(url, {"time_system": blitz}, format="json"), 400)
    assert "not rated" in body["message"]
    response = api_as(director).patch(url, {"time_system": blitz, "rated": False}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["egf_class"] == "X" and response.json()["rated"] is False
