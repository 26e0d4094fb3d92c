"""Token authentication for the API: django-rest-knox's, in one query per request.

knox reads the token, then the user, then every other token of that user to delete
the expired ones.  goref deletes a user's expired tokens when he logs in
(``ops.accounts.token_create``), so a request needs only its own token, read with its
user in one join.

knox (5.0.2, as its main branch) builds that queryset inside ``authenticate_credentials``
with no hook to override, so that one method is goref's: the same loop over the
candidates, reading them through ``token_candidates``; hashing, the constant-time
comparison, ``renew_token`` and ``validate_user`` are knox's.  A proxy token model would
not do: knox's model is swappable, and naming another in ``KNOX_TOKEN_MODEL`` swaps its
table out.  tests/ops/test_token_parity.py runs knox's class and this one on the same
cases (expiry, refresh, inactive user, wrong secret) and pins the methods overridden.

gunicorn serves requests from several threads of one process (docs/operations.md,
"Threads"): nothing here touches an object another request can see.  The queryset is
built per call by ``token_candidates``; knox's model, manager and settings are only read.
"""

from __future__ import annotations

from hmac import compare_digest
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.models import get_token_model
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import exceptions


class TokenAuthentication(KnoxTokenAuthentication):
    def token_candidates(self, token_key: str) -> QuerySet[Any]:
        """The tokens whose public key prefix is ``token_key``, each with its user: one query."""
        tokens: QuerySet[Any] = get_token_model().objects.filter(token_key=token_key)
        return tokens.select_related("user")

    def authenticate_credentials(self, token: bytes) -> Any:
        """knox's own check (``knox.auth.TokenAuthentication.authenticate_credentials``),
        reading the candidates through ``token_candidates``."""
        invalid = _("Invalid token.")
        try:
            key = token.decode("utf-8")
        except UnicodeDecodeError:
            # A header of bytes that are not UTF-8 is a bad token, not a server error.
            raise exceptions.AuthenticationFailed(invalid) from None
        for auth_token in self.token_candidates(key[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            if compare_digest(hash_token(key), auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed(invalid)

    def _cleanup_token(self, auth_token: Any) -> bool:
        """This token only: expired → deleted (the user's others go at his next login)."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI security scheme of these tokens (knox's, for this subclass)."""

    target_class = "ops.auth.TokenAuthentication"
