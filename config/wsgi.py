"""The WSGI application (gunicorn: ``config/gunicorn.py``).

Start-up runs the static manifest check: with ``DEBUG=0`` and no
``collectstatic``, refusing to start beats answering 500 on every page.
"""

import os

from django.core.checks import run_checks
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

from ops.checks import STATIC_TAG

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def _refuse_without_static() -> None:
    errors = run_checks(tags=[STATIC_TAG])
    if errors:
        raise ImproperlyConfigured("; ".join(str(e) for e in errors))


_refuse_without_static()
