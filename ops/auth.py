"""Token authentication for the API: django-rest-knox's, in one query per request.

knox reads the token, then the user, then every other token of that user to delete
the expired ones.  Here knox's own ``authenticate_credentials`` runs unchanged; it reads
tokens through ``REST_KNOX["TOKEN_MODEL"]``, which names ``ops.models.ApiToken``, a proxy
of knox's token whose manager joins the user.  Only the sweep of the user's other tokens
is left out (``_cleanup_token``): goref deletes a user's expired tokens when he logs in
(``ops.accounts.token_create``).  So a request reads its own token with its user, once.

gunicorn serves requests from several threads of one process (docs/operations.md,
"Threads"): nothing here touches an object another request can see; knox's model,
manager and settings are only read.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.signals import token_expired
from rest_framework import exceptions


class TokenAuthentication(KnoxTokenAuthentication):
    def authenticate_credentials(self, token: bytes) -> Any:
        """knox's check; a header that is not UTF-8 is a bad token (401), where knox's
        ``token.decode`` would raise (500)."""
        try:
            token.decode("utf-8")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        return super().authenticate_credentials(token)

    def _cleanup_token(self, auth_token: Any) -> bool:
        """knox's, for this token only: expired → deleted, signalled, skipped (the user's
        other tokens go at his next login)."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI security scheme of these tokens (knox's, for this subclass)."""

    target_class = "ops.auth.TokenAuthentication"
