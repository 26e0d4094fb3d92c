"""Every page carries a Content-Security-Policy: no inline script or style runs unless it
carries the page's nonce."""

from __future__ import annotations

import re
from typing import Any

import pytest
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
