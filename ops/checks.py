"""System checks for a production start (registered by ``OpsConfig.ready``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register

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
