"""Who acts: the one test of a signed-in user, shared by the services, the permissions and
the page cache (which the services write through, so it cannot import them)."""

from __future__ import annotations


def is_authenticated(user: object) -> bool:
    """A signed-in user (not ``None``, not ``AnonymousUser``)."""
    return bool(user is not None and getattr(user, "is_authenticated", False))


def version(pk: object) -> str:
    """The page cache's version name of an account: bumped by every save or delete of the
    account (``ops.accounts``), and by the services that change what its header shows."""
    return f"user:{pk}"
