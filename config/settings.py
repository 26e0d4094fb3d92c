"""goref settings: one module, driven by the environment (README, Configuration).

With nothing set it boots for development (DEBUG, SQLite and a file-system
Celery broker in ``var/``); ``DEBUG=0`` switches on the production defaults.
A malformed value stops start-up with a ``ConfigError`` (docs/operations.md §5).
"""

from __future__ import annotations

from datetime import timedelta
from ipaddress import ip_network
from pathlib import Path

import dj_database_url
import django_stubs_ext
from csp.constants import NONCE, NONE, SELF
from kombu import Queue

from ops.languages import LANGUAGES as PAGE_LANGUAGES
from ratings.systems import DEFAULT_SYSTEM, SYSTEMS

from .env import ConfigError, check_url, env_bool, env_int, env_list, env_str, site_name

# Generic admin and form classes (ModelAdmin[Game]) at run time, as mypy --strict reads them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("GOREF_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", True)
# Set by `make serve` when SECRET_KEY came from this host's var/secret-key rather than
# the environment: `check --deploy` warns (ops.checks), since every host must share one.
GOREF_SECRET_KEY_FILE = env_str("GOREF_SECRET_KEY_FILE")

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ConfigError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
elif not DEBUG and (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5):
    raise ConfigError("SECRET_KEY is too weak: use at least 50 characters with 5 distinct ones")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ConfigError("ALLOWED_HOSTS must be set when DEBUG is off (comma-separated host names)")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    "csp",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "games",
    "ratings",
    "referee",
    "ops",
]

MIDDLEWARE = [
    # First: an oversized body is refused before anything reads it.
    "ops.middleware.BodySizeLimitMiddleware",
    # Next, so it compresses what every other middleware wrote; a cached visitor page
    # arrives already compressed (ops.pages.compress), which it leaves alone.  BREACH: see
    # docs/operations.md, "Compression".
    "ops.middleware.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "ops.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Each page-cache version read once per request, the user's with the first read.
    "ops.middleware.RequestVersionsMiddleware",
    # The page's language: the visitor's choice (cookie), his Accept-Language, the
    # tournament's language on its pages, English (docs/i18n.md).
    "config.locale.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A view's database error becomes a 503 (process_exception runs for any position).
    "ops.unavailable.DatabaseUnavailableMiddleware",
    # A race lost on a database constraint (IntegrityError) becomes a 409.
    "ops.conflicts.RaceConflictMiddleware",
    # Last, as django-axes asks: it answers a locked-out login form with 429.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.navigation.header",
            ],
            # {% versioned_cache %}: the page cache's fragments, kept with the rest of it.
            "libraries": {"page_cache": "ops.pages.fragments"},
        },
    },
]

# --- Database -------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    check_url("DATABASE_URL", DATABASE_URL, ("postgres", "postgresql", "sqlite"))
    try:
        # Keep a connection for a minute: opening one per request cost more than
        # the lookups themselves; the health check replaces a connection the
        # server closed (a restart) before the request uses it.
        _db = dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=env_int("DB_CONN_MAX_AGE", 60, minimum=0),
            conn_health_checks=env_bool("DB_CONN_HEALTH_CHECKS", True),
        )
    except ValueError as exc:
        raise ConfigError(f"DATABASE_URL is malformed: {exc}") from None
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    _db = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(VAR_DIR / "goref.sqlite3")}
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (web, worker) share the file: wait for locks instead of failing.
    _db.setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The site's name: the prefix of every key it keeps in Redis (cache and broker), so
# that two sites on one Redis DB (a staging copy, a second federation) never read
# each other's pages nor run each other's tasks.  By default the database's name;
# start-up refuses a Redis DB already serving this name for another database
# (config.startup.site_problem; docs/operations.md, "Several sites on one Redis").
GOREF_SITE = site_name(env_str("GOREF_SITE"), str(_db.get("NAME") or ""))

# --- Redis, Celery and the cache -------------------------------------------
REDIS_URL = env_str("REDIS_URL")
# The embedded broker (no Redis): kombu's file-system transport.  It needs no host, but
# kombu logs "No hostname was supplied" as a warning for a URL without one, which reads
# like a failure in `make run` and `seed_demo`; naming localhost says nothing more.
EMBEDDED_BROKER_URL = "filesystem://localhost/"
if REDIS_URL:
    check_url("REDIS_URL", REDIS_URL, ("redis", "rediss"))

# Tasks must finish well inside the broker's visibility timeout, or Redis
# would hand a still-running task to a second worker.
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=60)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 600, minimum=10)
if CELERY_TASK_TIME_LIMIT >= CELERY_VISIBILITY_TIMEOUT:
    raise ConfigError("CELERY_TASK_TIME_LIMIT must be below CELERY_VISIBILITY_TIMEOUT")

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
        # A publish tries to connect once: a refused port fails in a millisecond
        # instead of sleeping out the connection timeout between two attempts.
        # The worker's own connection retries on its own terms (below).
        "max_retries": 0,
        # Queues, unacknowledged messages and remote control, all under the site's name.
        "global_keyprefix": f"{GOREF_SITE}:",
    }
    # The cache shares the broker's Redis; it must never slow or fail a write
    # while that Redis is down: short socket timeouts, errors read as misses.
    CACHES = {
        "default": {
            "BACKEND": "ops.pages.backends.ForgivingRedisCache",
            "LOCATION": REDIS_URL,
            "TIMEOUT": 300,
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
            "KEY_PREFIX": GOREF_SITE,
        }
    }
else:
    # Embedded broker: Kombu's file-system transport, no server needed.
    _broker_dir = VAR_DIR / "broker"
    # Kombu's file-system transport does not create its folders.
    for _sub in ("queue", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = EMBEDDED_BROKER_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Entries keyed by the versions of what they show, kept in each process too (ops.pages).
CACHES["versioned"] = {
    "BACKEND": "ops.pages.backends.VersionedEntries",
    "TIMEOUT": 300,
    "OPTIONS": {"MAX_ENTRIES": 2000},
}

# One queue per kind of work, so that none waits behind another's pile: page
# rebuilds (many, short, at most one waiting per event), re-scoring of submitted
# records, rating jobs, the sweeps that re-queue lost work, and the rest.  A worker
# consumes them all unless started with -Q (README, "More than one machine").
CELERY_TASK_QUEUES = [
    Queue(name, routing_key=name) for name in ("pages", "scoring", "ratings", "sweeps", "default")
]
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {
    "games.pages_warm": {"queue": "pages"},
    "games.rescore_game": {"queue": "scoring"},
    "games.rescore_chunk": {"queue": "scoring"},
    "games.sweep_pending": {"queue": "sweeps"},
    "ratings.sweep": {"queue": "sweeps"},
    "ratings.*": {"queue": "ratings"},
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_TIME_LIMIT - 5
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A submission must not hang on a dead broker: fail fast, the sweep re-queues.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY = False
# After a failed publish, this process skips the broker for this many seconds
# (ops.tasks_common.broker_down): requests do not each wait on a dead broker.
GOREF_BROKER_DOWN_SECONDS = env_int("GOREF_BROKER_DOWN_SECONDS", 5, minimum=0)
# The sweep (every GOREF_SWEEP_SECONDS) publishes again a pending run queued
# longer ago than GOREF_REQUEUE_AFTER whose message the broker no longer holds
# (games.services.scoring.sweep_pending; docs/operations.md, "Re-scoring runs").
# A visitor (no session, no token) may see a write this many seconds late: each
# process trusts the cache versions it read that recently (ops.pages.cache.versions).
GOREF_VISITOR_STALE_SECONDS = env_int("GOREF_VISITOR_STALE_SECONDS", 1, minimum=0)
# After a write, the worker rebuilds an event's tournament page and standings
# (games.tournament.pages); meanwhile readers get the copy built before it, for at most
# this many seconds (then a web process rebuilds it, as with no worker).  Only where the
# cache is shared with the worker (Redis): `make run`'s local memory is per process.
GOREF_WARM_PAGES = env_bool("GOREF_WARM_PAGES", bool(REDIS_URL))
if GOREF_WARM_PAGES and not REDIS_URL:
    raise ConfigError("GOREF_WARM_PAGES=1 needs REDIS_URL: the worker's pages must reach the web")
GOREF_WARM_SECONDS = env_int("GOREF_WARM_SECONDS", 10, minimum=1)
# A write bumps the versions of the cached pages it changes once it commits
# (ops.pages.cache.touch); True: at the write itself, for tests, whose transaction
# never commits (tests/conftest.py).
GOREF_CACHE_BUMP_AT_WRITE = False
GOREF_SWEEP_SECONDS = env_int("GOREF_SWEEP_SECONDS", 30, minimum=1)
GOREF_REQUEUE_AFTER = env_int("GOREF_REQUEUE_AFTER", 60, minimum=1)

# --- Auth, REST framework ---------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a locked-out username or address before the
    # password is even checked.
    "axes.backends.AxesStandaloneBackend",
    # Then the username's pace over every address (ops.logins): a paced try is refused
    # before the password is checked, as axes refuses a locked one.
    "ops.logins.LoginPaceBackend",
    # Passwords, and a session's user from this process's memory while his account is
    # unchanged (ops.accounts): no query per signed-in request.
    "ops.accounts.CachedModelBackend",
    # The sessions opened before it named Django's own: they stay signed in.
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "ops.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # JSON with a nesting-depth limit and no NUL characters (ops.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "ops.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "ops.api.Pagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "ops.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "goref API",
    "DESCRIPTION": "Go tournament results, referee rulings, ratings and handicaps.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # "kind" and "state" name choice sets in both the games and the referee app.
    "ENUM_NAME_OVERRIDES": {
        "GameStateEnum": "games.models.GameState",
        "DisputeKindEnum": "referee.models.DisputeKind",
        "DisputeStateEnum": "referee.models.DisputeState",
        "PromotionCandidateStateEnum": "ratings.models.CandidateState",
        "RankChangeKindEnum": "ratings.models.RankChangeKind",
    },
}

# --- I18N, static, e-mail -----------------------------------------------------
LANGUAGE_CODE = "en"
# The languages of the players' and visitors' pages (docs/i18n.md says how to add one).
LANGUAGES = list(PAGE_LANGUAGES)
# The catalogues of the project's templates; each app keeps its own under <app>/locale/.
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switcher's choice is remembered a year, and read by no script.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Project-level static files, namespaced by app as the templates are (static/<app>/).
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic writes (make serve runs it); whitenoise serves it with DEBUG=0.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "goref@localhost")
# A mail server that does not answer fails the send (a clear error) instead of holding
# the request, and the player's row lock an invitation takes, without end.
EMAIL_TIMEOUT = 10

# --- Security (production) ----------------------------------------------------
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
# Sessions read from the shared cache, written through to the database (ops.sessions):
# a signed-in page costs no session query.  Only with Redis: a per-process memory cache
# would keep a session another process logged out.
SESSION_ENGINE = "ops.sessions" if REDIS_URL else "django.contrib.sessions.backends.db"
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A 404's record names its path: a slip's code is masked in it (config.logmask).
    "filters": {"mask_codes": {"()": "config.logmask.MaskCodes"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["mask_codes"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# --- goref ------------------------------------------------------------------
# The rating system (ratings.systems.SYSTEMS: egf2021, egf1998, glicko2, ogs) and
# how many rated games a player plays before his rating stops being provisional.
GOREF_RATING_SYSTEM = env_str("GOREF_RATING_SYSTEM", DEFAULT_SYSTEM)
if GOREF_RATING_SYSTEM not in SYSTEMS:
    raise ConfigError(
        f"GOREF_RATING_SYSTEM={GOREF_RATING_SYSTEM!r} is not a rating system: "
        f"use one of {', '.join(SYSTEMS)}"
    )
GOREF_PROVISIONAL_GAMES = env_int("GOREF_PROVISIONAL_GAMES", 10, minimum=0)
# A director dates a rated tournament (and asks a recompute from one) no earlier than
# this many days ago, nor before the last rated event; earlier is a federation
# official's (games.tournament.services.tournaments, ratings.services).
GOREF_RATED_BACKDATE_DAYS = env_int("GOREF_RATED_BACKDATE_DAYS", 90, minimum=0)
# How long an import waits for another one identifying the same players (a name key or
# federation id in common) before it answers 409 (ops.conflicts.take_turns_on).
GOREF_TURN_WAIT_SECONDS = env_int("GOREF_TURN_WAIT_SECONDS", 10, minimum=1)
# Pairing a round of more entered players than this (or naming more) runs as a
# background job, on the API and in the admin: 1,100 players cost about 24 CPU-seconds,
# and no request may take 10 (games.tournament.services.pairing_jobs).
GOREF_PAIRING_JOB_PLAYERS = env_int("GOREF_PAIRING_JOB_PLAYERS", 300, minimum=2)
# A tournament file of more players than this imports as a background job through the
# API (games.tournament.services.import_jobs): no request holds a thread for it.
GOREF_IMPORT_JOB_PLAYERS = env_int("GOREF_IMPORT_JOB_PLAYERS", 300, minimum=1)
# A party appeals a ruling within this many minutes of it (0: no window); the slip's
# page and the desk say until when (docs/referee.md, "Levels, rulings and appeals").
GOREF_APPEAL_MINUTES = env_int("GOREF_APPEAL_MINUTES", 30, minimum=0)
# Upper bound for an SGF record accepted on a form or the API (the engine's own limit).
GOREF_SGF_MAX_BYTES = 1_000_000


# --- Request limits, logins, tokens, CSP (README, "Security") -----------------
# The largest request body accepted, in bytes: above the SGF limit (a record in
# JSON grows a little), the player CSV limit and a form's overhead.  Larger bodies
# get 413 before anything reads them (ops.middleware).
GOREF_MAX_REQUEST_BYTES = env_int("GOREF_MAX_REQUEST_BYTES", 4_000_000, minimum=1_500_000)
if GOREF_MAX_REQUEST_BYTES > 30_000_000:
    raise ConfigError("GOREF_MAX_REQUEST_BYTES is at most 30000000 (30 MB)")
DATA_UPLOAD_MAX_MEMORY_SIZE = GOREF_MAX_REQUEST_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = GOREF_MAX_REQUEST_BYTES
# How deep a JSON body may nest (objects and arrays); none of goref's needs more than 4.
GOREF_MAX_JSON_DEPTH = 32

# django-axes: 10 failed logins for one username from one address within 15 minutes
# lock that pair out for 15 minutes, the right password included.  A username alone
# or an address alone is never locked: officials' usernames are public, and a venue's
# players share one address (README, "Security").
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = False  # a success does not wipe the failures an attacker piled up
# A try during a lockout does not restart it: it ends when the message says it does.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "ops.logins.lockout_response"
AXES_ENABLE_ADMIN = True
AXES_VERBOSE = False
# The client's address: REMOTE_ADDR, or behind a proxy the deployment names in
# GOREF_TRUSTED_PROXIES the nearest untrusted hop of X-Forwarded-For (ops.logins).
AXES_CLIENT_IP_CALLABLE = "ops.logins.client_address"
# One username's failed logins from any number of addresses: past the first 10 within
# 24 hours, that username is tried at most once per 2, 4, 8 ... seconds (at most once per
# 5 minutes) from addresses it never logged in from; its owner's own addresses are never
# paced, and a password reset by e-mail logs him in (ops.logins, README "Security").
GOREF_LOGIN_FREE_FAILURES = env_int("GOREF_LOGIN_FREE_FAILURES", 10, minimum=1)
GOREF_LOGIN_PACE_MAX_SECONDS = env_int("GOREF_LOGIN_PACE_MAX_SECONDS", 300, minimum=1)
GOREF_LOGIN_FAILURE_HOURS = 24
GOREF_LOGIN_KNOWN_DAYS = 60
# Password-reset e-mails: at most 5 asked from one address, and 3 sent to one account,
# per hour (ops.accounts); past that the page says so or, for an account, sends nothing.
GOREF_RESET_PER_ADDRESS = env_int("GOREF_RESET_PER_ADDRESS", 5, minimum=1)
GOREF_RESET_PER_ACCOUNT = env_int("GOREF_RESET_PER_ACCOUNT", 3, minimum=1)
# The result slips' report codes (README, "The tournament day"): 20 wrong codes on one
# game, or one code tried 20 times on other games, within 15 minutes: further wrong
# codes on it answer 429 and the game is flagged to its directors (ops.guesses).  Never
# per address (a hall shares one), and never the right code: 40 bits stay 40 bits.
GOREF_CODE_GUESS_LIMIT = env_int("GOREF_CODE_GUESS_LIMIT", 20, minimum=1)
GOREF_CODE_GUESS_MINUTES = env_int("GOREF_CODE_GUESS_MINUTES", 15, minimum=1)
GOREF_TRUSTED_PROXIES = env_list("GOREF_TRUSTED_PROXIES", [])
for _proxy in GOREF_TRUSTED_PROXIES:
    try:
        ip_network(_proxy, strict=False)
    except ValueError:
        raise ConfigError(
            f"GOREF_TRUSTED_PROXIES: {_proxy!r} is not an IP address or network (10.0.0.0/8)"
        ) from None

# django-rest-knox: a new token per login, stored hashed, expiring.
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=env_int("GOREF_TOKEN_TTL_HOURS", 24 * 7, minimum=1)),
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
    "TOKEN_LIMIT_PER_USER": 20,
    # knox's own model, read with its user in one query (ops.models.ApiToken, a proxy).
    "TOKEN_MODEL": "ops.ApiToken",
}

# django-csp: scripts and styles only from this site, or inline with the page's nonce
# (``<style nonce="{{ request.csp_nonce }}">``); no inline event handlers or javascript: links.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}
