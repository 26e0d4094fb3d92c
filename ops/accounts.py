"""API tokens (django-rest-knox): one new token per login, expiring, revocable, and every
one of a user's tokens deleted when his password changes, however it is changed.
Password-reset e-mails, limited per asking address and per account.  A session's user
read from this process's memory while his account is unchanged (``CachedModelBackend``).

Knox stores only a digest of each token, so a database dump holds no usable key.
How clients use them: README, "Security".
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import PasswordResetForm
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.core.exceptions import PermissionDenied
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver
from django.utils import timezone
from knox.models import AuthToken
from knox.settings import knox_settings

from ops.audit import audit_record
from ops.logins import client_address
from ops.models import AuditAction
from ops.pages import cache as pages_cache
from ops.users import version as user_version

RESET_HOUR = 3600


def token_create(*, user: Any) -> tuple[str, dt.datetime | None]:
    """A new token for ``user`` (a login): its key, shown once, and when it expires.
    Expired tokens are dropped, and past ``TOKEN_LIMIT_PER_USER`` the oldest go."""
    AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()
    limit = knox_settings.TOKEN_LIMIT_PER_USER
    if limit:
        keep = AuthToken.objects.filter(user=user).order_by("-created")[: limit - 1]
        AuthToken.objects.filter(user=user).exclude(
            pk__in=list(keep.values_list("pk", flat=True))
        ).delete()
    instance, key = AuthToken.objects.create(user=user)
    return key, instance.expiry


def token_revoke(*, token: AuthToken) -> None:
    """Delete the token a request was authenticated with (a logout)."""
    token.delete()


def tokens_revoke_all(*, user: Any) -> int:
    """Delete every token of ``user``; returns how many there were."""
    count, _ = AuthToken.objects.filter(user=user).delete()
    return int(count)


User = get_user_model()


@receiver(pre_save, sender=User, dispatch_uid="ops.accounts.password_watch")
def _watch_password(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    """Note whether this save changes the stored password hash (``set_password`` in any
    form: the admin, a reset, the shell), for ``_revoke_on_password_change``."""
    instance._goref_password_changed = False
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    instance._goref_password_changed = stored is not None and stored != instance.password


@receiver(post_save, sender=User, dispatch_uid="ops.accounts.password_revoke")
def _revoke_on_password_change(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if created or not getattr(instance, "_goref_password_changed", False):
        return
    instance._goref_password_changed = False
    revoked = tokens_revoke_all(user=instance)
    audit_record(
        actor=None,
        action=AuditAction.USER_PASSWORD_CHANGED,
        obj=instance,
        new={"tokens_revoked": revoked},
    )


# --------------------------------------------------------------------------- password reset


def _reset_counted(kind: str, who: str, limit: int) -> bool:
    """One more reset asked for ``who`` this hour; whether it is still within ``limit``."""
    key = f"resets:{kind}:" + hashlib.sha256(who.encode("utf-8", "replace")).hexdigest()[:32]
    cache.add(key, 0, timeout=RESET_HOUR)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, timeout=RESET_HOUR)
        count = 1
    return count <= limit


class LimitedPasswordResetForm(PasswordResetForm):
    """Django's form, mailing each account at most ``GOREF_RESET_PER_ACCOUNT`` times an
    hour.  Past that it mails nothing and the page reads as always: whether an address
    has an account is nobody's to learn from it."""

    def get_users(self, email: str) -> Iterator[Any]:
        for user in super().get_users(email):
            if _reset_counted("account", str(user.pk), settings.GOREF_RESET_PER_ACCOUNT):
                yield user


class LimitedPasswordResetView(auth_views.PasswordResetView):
    """Django's view; one address asks at most ``GOREF_RESET_PER_ADDRESS`` resets an
    hour (a hall's players share one address, and forget a password rarely)."""

    form_class = LimitedPasswordResetForm

    def form_valid(self, form: Any) -> Any:
        address = client_address(self.request) or ""
        if not _reset_counted("address", address, settings.GOREF_RESET_PER_ADDRESS):
            return self.render_to_response(
                self.get_context_data(form=form, refused=True), status=429
            )
        return super().form_valid(form)


# Signed-in users as loaded, keyed by id and the account's version: this process's memory
# only, so that no password hash is copied into the shared cache.
_users = LocMemCache("goref-session-users", {"MAX_ENTRIES": 5000, "TIMEOUT": 300})


class CachedModelBackend(ModelBackend):
    """Django's ``ModelBackend``, with a session's user loaded from this process's memory
    while his ``user:<id>`` version stands, instead of one query per request.  Every
    save or delete of the account bumps that version (``_account_changed``): a new
    password, a deactivation or a new flag is read at the next request, as before.  The
    version is read with the request's other versions, in one round trip
    (``ops.pages.cache.reading_versions``)."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and password is not None:
            # Stop here: the ModelBackend listed after this one (for sessions made before
            # it) would check the same password again, at twice the cost of a guess.
            raise PermissionDenied
        return user

    def get_user(self, user_id: Any) -> Any:
        key = f"{user_id}@{pages_cache.versions([user_version(user_id)])}"
        user = _users.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is not None:
                _users.set(key, user)
        return user if user is not None and self.user_can_authenticate(user) else None


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="ops.accounts.saved")
@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="ops.accounts.deleted")
def _account_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Whatever saved or deleted the account (the admin, a password change, a login's
    ``last_login``): its sessions read it afresh, and its header too."""
    pages_cache.touch(user_version(instance.pk))
