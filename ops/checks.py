"""System checks for a production start (registered by ``OpsConfig.ready``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

STATIC_TAG = "goref_static"


@register(STATIC_TAG)
def static_manifest_check(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """With manifest storage (``DEBUG=0``) every page that names a static file
    fails until ``collectstatic`` has written the manifest: refuse to start."""
    from django.contrib.staticfiles.storage import ManifestFilesMixin
    from django.core.files.storage import storages

    storage = storages["staticfiles"]
    if not isinstance(storage, ManifestFilesMixin):
        return []
    if storage.exists(storage.manifest_name):
        return []
    return [
        Error(
            f"The static files manifest {settings.STATIC_ROOT}/{storage.manifest_name} is missing: "
            "every page would answer 500.",
            hint="Run `manage.py collectstatic --noinput` (make serve does) before starting.",
            id="goref.E001",
        )
    ]


@register(Tags.security, deploy=True)
def trusted_proxy_check(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """Behind a proxy (``SECURE_PROXY_SSL_HEADER``) with no proxy named, every login
    comes from the proxy's address: the login lockout then covers everyone."""
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None) and not settings.GOREF_TRUSTED_PROXIES:
        return [
            Warning(
                "SECURE_PROXY_SSL_HEADER is on but GOREF_TRUSTED_PROXIES is empty: every login "
                "counts against the proxy's address, so ten failures for one username "
                "lock it out for every client behind the proxy.",
                hint="Set GOREF_TRUSTED_PROXIES to the proxy's address (README, Deploying).",
                id="goref.W001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def shared_secret_key_check(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """Sessions and signed links are signed with ``SECRET_KEY``: a host with a key of
    its own logs out, on it, everyone who signed in on another host."""
    if not settings.GOREF_SECRET_KEY_FILE:
        return []
    return [
        Warning(
            f"SECRET_KEY comes from this host's {settings.GOREF_SECRET_KEY_FILE}, not from "
            "the environment: with a second host behind the same site, a user signed in on "
            "one host is signed out on the other.",
            hint="Give every host the same SECRET_KEY in its environment (README, Deploying).",
            id="goref.W002",
        )
    ]
