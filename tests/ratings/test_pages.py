"""Public rating pages, the downloads, the SVG chart, and the admin recompute page."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.test import Client

from ops.models import Job
from ratings.charts import rating_chart_svg
from ratings.exports import ListRow, egd_line
from ratings.recompute import recompute
from tests.factories import ClubFactory
from tests.ratings.helpers import event, players

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def rated() -> list[Any]:
    ps = players(-12, -4, -1, 0, 3, 5)
    club = ClubFactory(name="Wellington Go Club", code="WGC")
    ps[0].club = club
    ps[0].egd_pin = "12345678"
    ps[0].save()
    for k in range(3):
        event(
            dt.date(2025, 3, 1 + k),
            [(ps[0], ps[1], "W", 0), (ps[2], ps[3], "=", 0), (ps[4], ps[5], "B", 2)],
        )
    recompute()
    return ps


def test_the_svg_chart_parses_as_xml_and_escapes_text() -> None:
    pts = [
        (dt.date(2025, 1, 1), 1800.0),
        (dt.date(2025, 2, 1), 1820.5),
        (dt.date(2025, 6, 1), 1790),
    ]
    root = ET.fromstring(rating_chart_svg(pts, title="<Alice & Bob>"))
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title").text == "<Alice & Bob>"
    assert len(root.findall(f".//{SVG}circle")) == 3
    assert (
        ET.fromstring(rating_chart_svg([])).find(f"{SVG}text").text == "No rated tournaments yet."
    )
    ET.fromstring(rating_chart_svg([(dt.date(2025, 1, 1), 2100.0)]))  # one point, no span


def test_the_player_page_shows_rating_chart_history_and_games(client: Client, rated: Any) -> None:
    r = client.get(f"/players/{rated[0].pk}/")
    html = r.content.decode()
    assert r.status_code == 200 and "<svg" in html and "provisional" in html
    assert html.count("Open ") >= 3 and "head to head" in html
    start = html.index("<svg")
    ET.fromstring(html[start : html.index("</svg>") + 6])


def test_the_rating_page_of_a_player_is_now_his_one_player_page(client: Client, rated: Any) -> None:
    r = client.get(f"/ratings/players/{rated[0].pk}/")
    assert r.status_code == 301 and r["Location"] == f"/players/{rated[0].pk}/"


def test_unknown_players_are_404(client: Client) -> None:
    assert client.get("/ratings/players/999999/", follow=True).status_code == 404


def test_search_by_name_club_and_federation_id(client: Client, rated: Any) -> None:
    name = rated[0].family_name
    assert name in client.get("/ratings/players/", {"name": name}).content.decode()
    assert name in client.get("/ratings/players/", {"club": "WGC"}).content.decode()
    assert name in client.get("/ratings/players/", {"federation_id": "12345678"}).content.decode()
    assert "No players found" in client.get("/ratings/players/", {"name": "zzzz"}).content.decode()


@pytest.mark.parametrize("kind", ["dan", "kyu"])
def test_top_lists_have_a_pinned_query_count(
    client: Client, rated: Any, kind: str, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(1):
        r = client.get(f"/ratings/top/{kind}/")
    html = r.content.decode()
    dan = [p for p in rated if p.declared_rank >= 0]
    kyu = [p for p in rated if p.declared_rank < 0]
    shown, hidden = (dan, kyu) if kind == "dan" else (kyu, dan)
    assert all(p.family_name in html for p in shown)
    assert not any(f">{p.family_name} " in html for p in hidden)


def test_the_head_to_head_page_scores_locked_games(client: Client, rated: Any) -> None:
    a, b = rated[0], rated[1]
    html = client.get("/ratings/head-to-head/", {"black": a.pk, "white": b.pk}).content.decode()
    assert "0 – 3" in html
    bad = client.get("/ratings/head-to-head/", {"black": a.pk, "white": a.pk}).content.decode()
    assert "two players" in bad


def test_the_rating_list_downloads(client: Client, rated: Any) -> None:
    csv_text = client.get("/ratings/list.csv").content.decode()
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("player_id,egd_pin") and len(lines) == 7
    txt = client.get("/ratings/list.txt").content.decode().splitlines()
    assert txt[0].startswith("goref rating list (")
    mine = next(line for line in txt if "12345678" in line)
    assert mine[1:9] == "12345678" and mine[53:57] == " WGC" and mine.split()[-3] == "3"
    assert mine.split()[-1] == "A"  # the last event's EGD class follows its code
    assert lines[0].endswith(",last_tournament_class") and lines[1].endswith(",A")


def test_the_egd_line_matches_the_reference_example() -> None:
    row = ListRow(
        1,
        "19574643",
        "Abad",
        "Jahin",
        "FR",
        "38GJ",
        "",
        "20k",
        False,
        15,
        0,
        2,
        2,
        True,
        "T200202B",
        "",
        None,
    )
    assert egd_line(row) == (
        " 19574643  Abad Jahin                            FR  38GJ   20k   --     15     2  T200202B"
    )


def test_the_handicap_calculator_and_what_if_pages(client: Client, rated: Any) -> None:
    a, b = rated[0], rated[5]
    html = client.get("/ratings/handicap/", {"black": a.pk, "white": b.pk}).content.decode()
    assert "stones, komi 0" in html and "rounded up" in html
    assert (
        "There is no player"
        in client.get("/ratings/handicap/", {"black": a.pk, "white": 999999}).content.decode()
    )
    html = client.get("/ratings/what-if/", {"black": a.pk, "white": b.pk, "winner": "black"})
    assert html.status_code == 200 and "Change" in html.content.decode()
    assert client.get("/ratings/").status_code == 200


def test_a_director_starts_a_recompute_from_the_admin(
    client: Client,
    superuser: Any,
    outsider: Any,
    monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    import ratings.tasks

    monkeypatch.setattr(ratings.tasks.ratings_recompute, "delay", lambda job_id: None)
    client.force_login(superuser)
    assert client.get("/admin/ratings/ratingrun/").status_code == 200
    assert client.get("/admin/ratings/ratingrun/recompute/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post("/admin/ratings/ratingrun/recompute/", {"from_tournament": ""})
    job = Job.objects.get(kind="ratings")
    assert r.status_code == 302 and r["Location"] == f"/admin/ops/job/{job.pk}/change/"
    client.force_login(outsider)  # not staff: the admin sends him to its login page
    r = client.post("/admin/ratings/ratingrun/recompute/")
    assert r.status_code == 302 and "/admin/login/" in r["Location"]
    assert Job.objects.filter(kind="ratings").count() == 1


def test_a_director_in_the_admin_is_told_a_full_recompute_is_not_his(
    client: Client, director: Any, tournament: Any, monkeypatch: Any, settings: Any
) -> None:
    import ratings.tasks

    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the personas' tournament ended in March
    from games.people.services.grants import director_grant_admin

    monkeypatch.setattr(ratings.tasks.ratings_recompute, "delay", lambda job_id: None)
    director_grant_admin(user=director)
    client.force_login(director)
    r = client.post("/admin/ratings/ratingrun/recompute/", {"from_tournament": ""}, follow=True)
    assert b"Only federation officials recompute every rating" in r.content
    assert not Job.objects.exists()
    own = client.post("/admin/ratings/ratingrun/recompute/", {"from_tournament": tournament.pk})
    assert own.status_code == 302 and "/admin/ops/job/" in own["Location"]
