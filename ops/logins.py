"""Login throttling: whose address a login comes from, how one username is paced
across addresses, and what a refused login sees.

Too many failed logins for one username from one address lock that pair out for
``AXES_COOLOFF_TIME`` (django-axes); the right password is refused too until then.  The
same username from another address, and other usernames from the same address, are not
affected.  One username guessed at from many addresses is paced instead
(``LoginPaceBackend``): past ``GOREF_LOGIN_FREE_FAILURES`` failures, it is tried at most
once per 2, 4, 8 ... seconds, up to ``GOREF_LOGIN_PACE_MAX_SECONDS``, from any address it
has never logged in from.  Never a lockout: its owner logs in from his own addresses
unpaced, and from a new one after at most the pace (a password reset logs him in too).
README, "Security".

The address is ``REMOTE_ADDR`` unless that is one of the proxies the deployment names
in ``GOREF_TRUSTED_PROXIES``: then ``X-Forwarded-For`` is read from its right end (the
hop the trusted proxy appended) leftwards, past further trusted proxies, to the first
address no trusted proxy is: the client.  Whatever a client writes into the header
himself lies to the left of that and is never read.
"""

from __future__ import annotations

import hashlib
import math
import time
from ipaddress import IPv4Address, IPv6Address, ip_address, ip_network
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

LOCKED_MESSAGE = (
    "Too many failed logins for this account from this address: try again in {minutes} minutes."
)
PACED_MESSAGE = (
    "Too many failed logins for this account: try again in {seconds} seconds, "
    "or reset your password by e-mail."
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


def locked_message(request: HttpRequest | None = None) -> str:
    """Why a login was refused unchecked: the pair's lockout, or the username's pace."""
    wait = getattr(request, "goref_login_wait", None)
    if wait:
        return PACED_MESSAGE.format(seconds=wait)
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return LOCKED_MESSAGE.format(minutes=minutes)


# --------------------------------------------------------------------------- pace


def _key(kind: str, *parts: str) -> str:
    # Hashed: a username is whatever a client typed.  Case-folded: "Alice" and "alice"
    # are one name to a guesser, and one count.
    text = "\0".join(p.casefold() for p in parts)
    return f"logins:{kind}:" + hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]


def pace_seconds(failures: int) -> int:
    """How long one username waits between tries after ``failures`` failed logins."""
    over = failures - settings.GOREF_LOGIN_FREE_FAILURES
    if over < 0:
        return 0
    return int(min(settings.GOREF_LOGIN_PACE_MAX_SECONDS, 2 ** min(over + 1, 30)))


def login_pace_claim(request: HttpRequest, username: str) -> int:
    """0 when this try at ``username`` may go on (and, when paced, takes the username's
    turn), or the seconds until the next turn."""
    pace = pace_seconds(cache.get(_key("failed", username), 0))
    if not pace or cache.get(_key("known", username, client_address(request) or "")):
        return 0
    turn = _key("turn", username)
    now = time.time()
    if cache.add(turn, now + pace, timeout=pace):
        return 0
    until = cache.get(turn)
    return max(1, math.ceil(until - now)) if isinstance(until, float) else 1


class LoginPaceBackend:
    """Authenticates nobody: refuses a try at a paced username before any password is
    checked, through django-axes' refusal (its middleware answers ``lockout_response``).
    No ``get_user`` (nor ``BaseBackend``'s): no session is ever this backend's."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kw: Any
    ) -> None:
        if request is None or not username:
            return None
        wait = login_pace_claim(request, username)
        if wait:
            request.axes_locked_out = True  # axes neither counts it nor restarts a lockout
            request.goref_login_wait = wait
            raise PermissionDenied
        request.goref_password_checked = True  # the model backend checks it next
        return None


@receiver(user_login_failed, dispatch_uid="ops.logins.count_failure")
def _count_failure(
    sender: Any, credentials: dict[str, Any], request: Any = None, **kw: Any
) -> None:
    """A password checked and wrong: one more failure for the username, from anywhere.
    A try refused unchecked (locked or paced) tells the guesser nothing, and is not one;
    the failure that locks a pair (axes marks it locked at once) was checked, and is."""
    username = credentials.get("username")
    if not username or not getattr(request, "goref_password_checked", False):
        return
    key = _key("failed", str(username))
    cache.add(key, 0, timeout=settings.GOREF_LOGIN_FAILURE_HOURS * 3600)
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, timeout=settings.GOREF_LOGIN_FAILURE_HOURS * 3600)


def login_remembered(request: HttpRequest, user: Any) -> None:
    """The address ``user`` just logged in from is his: his username is never paced from
    it (a session login calls this through ``user_logged_in``, the API's token login
    directly)."""
    address = client_address(request) or ""
    key = _key("known", user.get_username(), address)
    cache.set(key, True, timeout=settings.GOREF_LOGIN_KNOWN_DAYS * 86400)


@receiver(user_logged_in, dispatch_uid="ops.logins.remember_address")
def _remember_address(sender: Any, request: Any = None, user: Any = None, **kw: Any) -> None:
    if request is not None and user is not None:
        login_remembered(request, user)


def lockout_response(
    request: HttpRequest,
    response: HttpResponse | None = None,
    credentials: Any = None,
    *args: Any,
    **kwargs: Any,
) -> HttpResponse:
    """429: JSON for the API, the login page with the reason for a browser."""
    wait = getattr(request, "goref_login_wait", None)
    message = locked_message(request)
    if request.path.startswith("/api/"):
        answer: HttpResponse = JsonResponse({"message": message, "extra": {}}, status=429)
    else:
        # Rendered now: the middleware that calls this runs after the template-response phase.
        answer = render(request, "registration/locked_out.html", {"message": message}, status=429)
    if wait:
        answer["Retry-After"] = str(wait)
    return answer
