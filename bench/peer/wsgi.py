"""The peer's WSGI application."""

import os

from django.core.wsgi import get_wsgi_application

os.environ["DJANGO_SETTINGS_MODULE"] = "bench.peer.settings"
application = get_wsgi_application()
