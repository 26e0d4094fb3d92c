"""Token authentication for the API: django-rest-knox's, in one query per request.

knox reads the token, then the user, then every other token of that user to delete
the expired ones.  goref deletes a user's expired tokens when he logs in
(``ops.accounts.token_create``), so a request needs only its own token, read with its
user in one join.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.signals import token_expired


class TokenAuthentication(KnoxTokenAuthentication):
    def authenticate_credentials(self, token: bytes) -> Any:
        # knox filters its token model by ``token_key``; the user comes in the same query.
        from knox.models import get_token_model

        model = get_token_model()
        manager = model.objects
        original = manager.filter

        def filter_with_user(*args: Any, **kwargs: Any) -> Any:
            return original(*args, **kwargs).select_related("user")

        manager.filter = filter_with_user
        try:
            return super().authenticate_credentials(token)
        finally:
            del manager.filter

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
