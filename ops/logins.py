"""Login throttling (django-axes): whose address a login comes from, and what a
locked-out login sees.

Too many failed logins for one username from one address lock that pair out for
``AXES_COOLOFF_TIME``; the right password is refused too until then.  The same
username from another address, and other usernames from the same address, are not
affected (README, "Security").

The address is ``REMOTE_ADDR`` unless that is one of the proxies the deployment names
in ``GOREF_TRUSTED_PROXIES``: then ``X-Forwarded-For`` is read from its right end (the
hop the trusted proxy appended) leftwards, past further trusted proxies, to the first
address no trusted proxy is: the client.  Whatever a client writes into the header
himself lies to the left of that and is never read.
"""

from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address, ip_address, ip_network
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

LOCKED_MESSAGE = (
    "Too many failed logins for this account from this address: try again in {minutes} minutes."
)


def _address(text: str | None) -> IPv4Address | IPv6Address | None:
    if not text:
        return None
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]:443", as some proxies write it
        text = text[1 : text.index("]")]
    try:
        found = ip_address(text)
    except ValueError:
        return None
    if isinstance(found, IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped  # "::ffff:192.0.2.1" is 192.0.2.1
    return found


def client_address(request: HttpRequest) -> str | None:
    """The address django-axes counts a login against (``AXES_CLIENT_IP_CALLABLE``)."""
    remote = request.META.get("REMOTE_ADDR")
    current = _address(remote)
    if current is None:
        return remote or None
    trusted = [ip_network(p, strict=False) for p in settings.GOREF_TRUSTED_PROXIES]

    def is_trusted(address: IPv4Address | IPv6Address) -> bool:
        return any(address.version == net.version and address in net for net in trusted)

    if not is_trusted(current):
        return str(current)
    hops = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            # Not an address: the trusted hop that passed it on is the best we know.
            break
        if not is_trusted(address):
            return str(address)
        current = address
    return str(current)


def locked_message() -> str:
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return LOCKED_MESSAGE.format(minutes=minutes)


def lockout_response(
    request: HttpRequest,
    response: HttpResponse | None = None,
    credentials: Any = None,
    *args: Any,
    **kwargs: Any,
) -> HttpResponse:
    """429: JSON for the API, the login page with the reason for a browser."""
    message = locked_message()
    if request.path.startswith("/api/"):
        return JsonResponse({"message": message, "extra": {}}, status=429)
    # Rendered now: the middleware that calls this runs after the template-response phase.
    return render(request, "registration/locked_out.html", {"message": message}, status=429)
