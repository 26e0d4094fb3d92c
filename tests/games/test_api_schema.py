"""The OpenAPI schema and the docs page, served without any CDN."""

from __future__ import annotations

import re

from django.core.management import call_command


def test_the_schema_is_served(client, db):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/v1/games/{id}/result/" in response.content


def test_the_docs_page_loads_nothing_from_another_host(client, db):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    urls = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html)
    assert urls, html[:500]
    external = [
        u
        for u in urls + re.findall(r"https?://[^\s\"'<>]+", html)
        if u.startswith(("http://", "https://", "//"))
    ]
    assert external == [], external


def test_the_schema_generates_without_warnings(db, tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
    assert (tmp_path / "s.yml").read_text().startswith("openapi:")
