"""``{% versioned_cache "name" arg ... %}``: a fragment kept until one of the page's versions
is bumped, rebuilt by one thread at a time (``ops.pages.cache.single_flight``), kept compressed
and spliced into the page as it is (``ops.pages.responses.render_spliced``).  Loaded as
``{% load page_cache %}`` (settings, ``TEMPLATES`` ``libraries``).

Django's ``{% cache %}`` reads and writes its key with no lock, so right after a write
every thread that missed rendered the fragment at once.  The key is the name, the
arguments and the context's ``versions`` (``ops.pages.cache.versions`` of what it shows).

``{% values_cache "name" value ... %}``: a fragment that shows nothing but the values it
names (and the language), kept in this process under those values: the signed-in
header, the same for a user on every page until what it shows changes.  Nothing to
bump, nothing shared; whatever the fragment shows must be among its values.
"""

from __future__ import annotations

import hashlib

from django import template
from django.core.cache.backends.locmem import LocMemCache
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.safestring import SafeString

from ops.pages import cache
from ops.pages.compress import Page
from ops.pages.responses import FRAGMENTS, csp_nonce, fragment_entry, splice_mark

register = template.Library()


class VersionedCacheNode(template.Node):
    def __init__(self, nodelist: NodeList, parts: list[FilterExpression]) -> None:
        self.nodelist = nodelist
        self.parts = parts

    def render(self, context: template.Context) -> SafeString:
        name = ".".join(str(p.resolve(context)) for p in self.parts)
        key = f"{fragment_entry(name)}@{context['versions']}"

        def build() -> Page:
            # A fragment inside this one is written into it, not left as a mark.
            with context.push({FRAGMENTS: None}):
                return Page.of(str(self.nodelist.render(context)))

        return splice_mark(context, cache.single_flight(key, build))


def _parts(parser: Parser, token: Token) -> tuple[NodeList, list[FilterExpression]]:
    """A fragment tag's body, up to its end tag, and its name and arguments."""
    tag, *bits = token.split_contents()
    if not bits:
        raise template.TemplateSyntaxError(f"{tag} needs a fragment name.")
    nodelist = parser.parse((f"end{tag}",))
    parser.delete_first_token()
    return nodelist, [parser.compile_filter(b) for b in bits]


@register.tag("versioned_cache")
def do_versioned_cache(parser: Parser, token: Token) -> VersionedCacheNode:
    return VersionedCacheNode(*_parts(parser, token))


# Fragments by the values they show: small, rebuilt at will, this process's own.
_by_values = LocMemCache("goref-value-fragments", {"MAX_ENTRIES": 5000, "TIMEOUT": 3600})


class ValuesCacheNode(VersionedCacheNode):
    def render(self, context: template.Context) -> SafeString:
        values = repr([p.resolve(context) for p in self.parts])
        digest = hashlib.blake2b(values.encode(), digest_size=16).hexdigest()
        key = fragment_entry(f"values.{digest}")
        fragment = _by_values.get(key)
        if fragment is None:
            request = context.get("request")
            with context.push({FRAGMENTS: None}):
                text = str(self.nodelist.render(context))
            # Cut at this request's CSP nonce, which each request puts back its own.
            fragment = Page.of(text, csp_nonce(request) if request is not None else "")
            _by_values.set(key, fragment)
        return splice_mark(context, fragment)


@register.tag("values_cache")
def do_values_cache(parser: Parser, token: Token) -> ValuesCacheNode:
    return ValuesCacheNode(*_parts(parser, token))
