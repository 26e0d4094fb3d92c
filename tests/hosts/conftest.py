"""The multi-host tests' fixtures from elsewhere: the collected static files."""

from tests.ops.test_gunicorn_attacks import static_root  # noqa: F401
