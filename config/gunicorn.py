"""gunicorn's settings for ``make serve`` (``gunicorn -c config/gunicorn.py config.wsgi``).

Threaded workers keep connections alive (a proxy or a client reuses them)
and one slow request does not hold a whole process; every value can be
overridden from the environment.
"""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", str(min(4, (os.cpu_count() or 1) * 2))))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "4"))
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
keepalive = 5
accesslog = os.environ.get("WEB_ACCESS_LOG") or None
# The access log never holds a result slip's code (config.logmask).
logger_class = "config.logmask.CodeMaskingLogger"
errorlog = "-"


def on_starting(server: object) -> None:
    """Refuse to start, in one line naming DATABASE_URL, when the database cannot be
    reached (``config.startup``); the workers are not forked yet."""
    from config.startup import gunicorn_starting

    gunicorn_starting()


def post_worker_init(worker: object) -> None:
    """Keep what the worker loaded with the application (modules, settings, URL patterns:
    alive as long as the process) out of the garbage collector's scans (``gc.freeze``):
    a full collection otherwise walks all of it again, a few times a second under load."""
    import gc

    gc.freeze()
