"""Small things a visitor notices: counts in words, the admin's plural names, the site
icon, a crosstable on a phone, a rating chart of one event."""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.test import Client

from ratings.charts import rating_chart_svg
from ratings.models import RatingHistory, RatingRun

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


def test_one_rated_tournament_is_one_tournament(client: Client) -> None:
    RatingRun.objects.create(
        algorithm="egf",
        version="1",
        mode="full",
        state="done",
        events=1,
        games=1,
        finished_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
    )
    html = client.get("/ratings/").content.decode()
    assert "1 tournament, 1 game)" in html


def test_the_admin_says_rating_histories() -> None:
    assert RatingHistory._meta.verbose_name_plural == "rating histories"


def test_the_site_icon_is_served_and_linked(client: Client) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon["Content-Type"] == "image/svg+xml"
    ET.fromstring(icon.content)
    assert 'rel="icon" href="/favicon.ico"' in client.get("/").content.decode()


def test_the_crosstable_scrolls_inside_a_narrow_screen(client: Client) -> None:
    css = client.get("/").content.decode()
    rule = re.search(r"table\.crosstable[^{]*\{([^}]*)\}", css)
    assert rule is not None and "overflow-x: auto" in rule.group(1)


def _circles_and_labels(svg: str) -> tuple[list[float], list[float]]:
    root = ET.fromstring(svg)
    circles = [float(c.get("cy")) for c in root.iter(f"{SVG}circle")]
    labels = [
        float(t.get("y")) - 4
        for t in root.iter(f"{SVG}text")
        if t.get("text-anchor") == "end" and (t.text or "").strip().isdigit()
    ]
    return circles, labels


def test_a_one_event_history_is_one_point_between_the_labels() -> None:
    day = dt.date(2026, 3, 1)
    svg = rating_chart_svg([(day, 2000.0), (day, 2031.0)])
    root = ET.fromstring(svg)
    circles, labels = _circles_and_labels(svg)
    assert len(circles) == 1 and root.find(f"{SVG}polyline") is None  # a point, not a stick
    assert min(labels) <= circles[0] <= max(labels)  # inside the labelled axis


@pytest.mark.parametrize(
    "points",
    [
        [(dt.date(2025, 1, 1), 1800.0), (dt.date(2025, 6, 1), 1987.0)],
        [(dt.date(2025, 1, 1), 2455.0), (dt.date(2025, 2, 1), 2461.0)],
    ],
)
def test_every_point_lies_between_the_highest_and_lowest_label(points: Any) -> None:
    circles, labels = _circles_and_labels(rating_chart_svg(points))
    assert all(min(labels) <= c <= max(labels) for c in circles)


def test_the_chart_names_its_axes() -> None:
    texts = [
        t.text
        for t in ET.fromstring(rating_chart_svg([(dt.date(2025, 1, 1), 1800.0)])).iter(f"{SVG}text")
    ]
    assert "Rating" in texts and "Tournament end date" in texts
