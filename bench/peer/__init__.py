"""The peer of bench/web.py: a bare Django project (``django-admin startproject``'s
settings and middleware, one JSON view), served by the same gunicorn settings as goref."""
