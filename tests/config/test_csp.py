"""Every page carries a Content-Security-Policy: no inline script or style runs unless it
carries the page's nonce."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from csp.exceptions import CSPNonceError
from django.test import Client


@pytest.mark.parametrize(
    "url", ["/", "/accounts/login/", "/accounts/password_reset/", "/ratings/", "/tournaments/"]
)
def test_pages_send_a_strict_policy_and_their_inline_style_has_its_nonce(
    db: Any, client: Client, url: str
) -> None:
    response = client.get(url)
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "object-src 'none'" in policy
    assert "unsafe-inline" not in policy
    nonce = re.search(r"'nonce-([^']+)'", policy)
    assert nonce is not None
    html = response.content.decode()
    # Every inline <style> and <script> carries the nonce; none is bare.
    for tag in re.findall(r"<(?:style|script)\b[^>]*>", html):
        assert f'nonce="{nonce.group(1)}"' in tag or "src=" in tag, tag
    assert "javascript:" not in html
    assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers


def test_the_api_docs_alone_allow_their_inline_bootstrap(db: Any, client: Client) -> None:
    policy = client.get("/api/docs/")["Content-Security-Policy"]
    assert "script-src 'self' 'unsafe-inline'" in policy


@pytest.mark.django_db
def test_a_page_served_from_the_visitors_cache_carries_its_own_working_nonce(client):  # type: ignore[no-untyped-def]

    from tests.factories import TournamentFactory

    t = TournamentFactory()
    seen = []
    for _ in range(2):  # the second answer comes from the whole-page cache
        response = client.get(f"/tournaments/{t.pk}/")
        (nonce,) = set(re.findall(r'nonce="([^"]*)"', response.content.decode()))
        assert nonce and f"'nonce-{nonce}'" in response.headers["Content-Security-Policy"]
        seen.append(nonce)
    assert seen[0] != seen[1]


@pytest.mark.parametrize("nonce_used", [False, True])
def test_the_policy_built_once_is_the_librarys(nonce_used: bool) -> None:
    # ops.middleware.CSPMiddleware gives the site's own policy without building it per
    # response: the same header django-csp's middleware writes.
    from csp.middleware import CSPMiddleware as Library
    from django.http import HttpResponse
    from django.test import RequestFactory

    from ops.middleware import CSPMiddleware

    headers = []
    for middleware in (CSPMiddleware, Library):
        handler = middleware(lambda request: HttpResponse("ok"))
        request = RequestFactory().get("/")
        handler.process_request(request)
        if nonce_used:
            str(request.csp_nonce)
            request._csp_nonce = "fixed-nonce=="  # type: ignore[attr-defined]
        headers.append(
            handler.process_response(request, HttpResponse("ok"))["Content-Security-Policy"]
        )
        with contextlib.nullcontext() if nonce_used else pytest.raises(CSPNonceError):
            str(request.csp_nonce)  # asked for after the header was written
    assert headers[0] == headers[1]
    assert ("'nonce-fixed-nonce=='" in headers[0]) is nonce_used
