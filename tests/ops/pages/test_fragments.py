"""``{% values_cache %}``: a fragment kept by the values it shows, and a short answer left
uncompressed (``ops.middleware.GZipMiddleware``)."""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from django.http import HttpResponse
from django.template import Context, Template
from django.test import RequestFactory

from ops.middleware import GZIP_MIN_BYTES, GZipMiddleware
from ops.pages.responses import FRAGMENTS

TEMPLATE = Template(
    '{% load page_cache %}{% values_cache "t" who %}<b>{{ who }} {{ count }}</b>'
    "{% endvalues_cache %}"
)


def _render(**values: Any) -> str:
    return TEMPLATE.render(Context({FRAGMENTS: None, **values}))


def test_a_fragment_is_kept_by_its_values_and_changes_with_them() -> None:
    assert _render(who="ann-fragment-test", count=1) == "<b>ann-fragment-test 1</b>"
    # What the fragment shows beyond its values is what it showed first: the template
    # names every value it shows.
    assert _render(who="ann-fragment-test", count=2) == "<b>ann-fragment-test 1</b>"
    assert _render(who="bob-fragment-test", count=2) == "<b>bob-fragment-test 2</b>"


def test_a_fragment_takes_each_requests_nonce() -> None:
    template = Template(
        '{% load page_cache %}{% values_cache "n" 1 %}<style nonce="{{ request.csp_nonce }}">'
        "{% endvalues_cache %}"
    )
    pages = []
    for nonce in ("first-nonce-abc", "second-nonce-xyz"):
        request = RequestFactory().get("/")
        request.csp_nonce = nonce  # type: ignore[attr-defined]
        pages.append(template.render(Context({FRAGMENTS: None, "request": request})))
    assert pages == ['<style nonce="first-nonce-abc">', '<style nonce="second-nonce-xyz">']


@pytest.mark.parametrize(("size", "packed"), [(GZIP_MIN_BYTES - 1, False), (5000, True)])
def test_only_answers_worth_it_are_compressed(size: int, packed: bool) -> None:
    body = b"x" * size
    middleware = GZipMiddleware(lambda request: HttpResponse(body))
    response = middleware(RequestFactory().get("/", HTTP_ACCEPT_ENCODING="gzip"))
    assert (response.get("Content-Encoding") == "gzip") is packed
    assert (gzip.decompress(response.content) if packed else response.content) == body
