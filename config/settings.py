"""Django settings, read from the environment.

With no environment variables at all the service runs on embedded defaults:
SQLite in the repository, the in-memory channel layer, and a Celery worker
inside the server process on the in-memory transport (every timer runs
through the same task code). Set ``DATABASE_URL`` and ``REDIS_URL`` to run
on PostgreSQL and Redis, with separate worker and beat processes.
"""

import os
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


env = environ.Env()

# --- Core --------------------------------------------------------------------

DJANGO_ENV = env.str("DJANGO_ENV", default="development")
"""``production`` turns on every protection ``manage.py check --deploy``
asks for (HTTPS only, secure cookies, HSTS, JSON logs) and requires a real
``SECRET_KEY``; each stays a variable of its own to override.  Anything
else is the zero-config development profile of ``make run``."""
if DJANGO_ENV not in ("development", "production"):
    raise ImproperlyConfigured(f"DJANGO_ENV is {DJANGO_ENV!r}: development or production")
PRODUCTION = DJANGO_ENV == "production"

# A dev key, never to be used in production: setting SECRET_KEY also turns
# DEBUG off unless DEBUG is set explicitly.
_INSECURE_DEV_SECRET_KEY = "django-insecure-dev-only-do-not-use-in-production"
# Keys are read as they are: django-environ would take one that starts with
# "$" ("$k9x..." -- one random key in fifty) for the name of another variable.
SECRET_KEY = os.environ.get("SECRET_KEY", "") or _INSECURE_DEV_SECRET_KEY
if PRODUCTION and SECRET_KEY == _INSECURE_DEV_SECRET_KEY:
    raise ImproperlyConfigured("DJANGO_ENV=production needs SECRET_KEY in the environment")
SECRET_KEY_FALLBACKS = [k for k in os.environ.get("SECRET_KEY_FALLBACKS", "").split(",") if k]
"""Keys retired by a rotation (docs/operations.md): sessions, password-reset
links and other signatures made with them stay valid until they are dropped."""
LEDGER_KEY = os.environ.get("LEDGER_KEY", "")
"""The key of the ledger's own transfer ids (``accounts.ledger.transfer_id_for``);
empty: ``SECRET_KEY``.  Pin it to the old key before rotating ``SECRET_KEY``."""
DEBUG = env.bool("DEBUG", default=SECRET_KEY == _INSECURE_DEV_SECRET_KEY)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# HTTPS.  TLS ends at the proxy (deploy/nginx.conf), which says so in
# X-Forwarded-Proto; only trust that header behind such a proxy.
if env.bool("BEHIND_TLS_PROXY", default=PRODUCTION):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=PRODUCTION)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if PRODUCTION else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=PRODUCTION)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=PRODUCTION)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=PRODUCTION)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=PRODUCTION)

INSTALLED_APPS = [
    "daphne",  # first, so that `manage.py runserver` serves ASGI
    "config.apps.RoomAdminConfig",  # django.contrib.admin: login throttled, second factor
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",  # API tokens: one per device, hashed, expiring, revoked one by one
    "django_otp",  # the staff's second factor (accounts.second_factor)
    "django_otp.plugins.otp_totp",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc as static files: no CDN
    "channels",
    "kernel",  # below every app: the clocks
    "poker",
    "casino",  # beside poker: the house-banked tables
    "tournaments",
    "accounts",
    "reports",
    "client",  # the browser client at / (a page, ES modules and CSS; no models)
]

MIDDLEWARE = [
    # /healthz, /readyz, /metrics: answered before the Host check and the
    # HTTPS redirect (probes reach a server by its address, in plain HTTP).
    "config.probes.middleware",
    "django.middleware.security.SecurityMiddleware",
    # /api/: 413 JSON for a body over the limit; Cache-Control: no-store, Vary: Authorization.
    "config.middleware.api_paths",
    # Static files (the admin's, Swagger UI's) from the server itself, with
    # DEBUG on or off: nothing else serves them under daphne.
    "config.middleware.StaticFiles",  # WhiteNoise
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",  # request.user.is_verified()
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ----------------------------------------------------------------

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded defaults write from two threads (requests and the clocks'
    # worker): each transaction takes the write lock when it begins (a read
    # lock upgraded later fails at once with "database is locked"), waits up
    # to 20 s for it, and readers do not block the writer (WAL).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

DB_THREADS = env.int(
    "DB_THREADS", default=1 if DATABASES["default"]["ENGINE"].endswith("sqlite3") else 4
)
"""Threads (each with its connection) a server's sockets reach the database
from (``kernel/dbthreads.py``); one on SQLite, whose writers queue anyway."""

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and Celery -----------------------------------------

REDIS_URL = env.str("REDIS_URL", default="")

if REDIS_URL:
    # Redis keys belong to a database, pub/sub channels to the whole server:
    # the default prefix names the database, so that deployments (or test
    # runs) on separate databases of one server never hear each other's frames.
    _redis_db = urlsplit(REDIS_URL).path.strip("/") or "0"
    CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
        "default": {
            # Redis pub/sub (kernel.layer): a group message is one PUBLISH,
            # each server process subscribed once per group and handing it to
            # its own sockets; nothing is kept for a server not listening
            # (its sockets catch up from the event store by position).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL}],
                "prefix": env.str("CHANNEL_LAYER_PREFIX", default=f"asgi{_redis_db}."),
                # msgpack, each message decoded once per process (config.layer_format).
                "serializer_format": "msgpack-shared",
            },
        },
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"  # Redis, outliving its restarts
    CELERY_RESULT_BACKEND = REDIS_URL
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"

# Timers are tasks with an ETA, never run eagerly: they must wait their time.
# (Celery's defaults hold otherwise: JSON only, times in UTC.)
CELERY_TASK_ALWAYS_EAGER = False
# A timer is acknowledged only after it ran; a worker that dies gives its
# timers back to the broker, which hands them out again once the visibility
# timeout passes (the sweep below fires any that are due before that).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker's process keeps its database connection from one timer to the
# next, for WORKER_CONN_MAX_AGE seconds (config.celery): most timers read
# one row and find the table moved on, and a connection of their own each
# (a PostgreSQL backend forked and authenticated) cost the worker and the
# database more than the timer.  Celery's Django fix-up would close every
# connection around each task unless told to reuse it this many times: the
# age and health checks of config.celery decide instead.
WORKER_CONN_MAX_AGE = env.int("WORKER_CONN_MAX_AGE", default=60)
CELERY_DB_REUSE_MAX = 2**31
# Redis restarts (a deploy, a failover): the worker and beat wait for it,
# however long (never exit after 100 tries), and take a Redis error reply
# while it loads its data (a channel error) as a lost connection too.
# Timers running when the connection went cannot be acknowledged: they are
# stopped and handed out again (a timer run twice does nothing the second
# time), as Celery 6 will do by default.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_CHANNEL_ERROR_RETRY = True
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_RESULT_BACKEND_ALWAYS_RETRY = True
CELERY_REDIS_BACKEND_HEALTH_CHECK_INTERVAL = 10
CELERY_REDIS_RETRY_ON_TIMEOUT = True
CELERY_REDIS_SOCKET_KEEPALIVE = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # A connection to a Redis that went away is noticed within 10 s (a
    # ping on a connection idle that long) rather than at its next use.
    "health_check_interval": 10,
    "socket_keepalive": True,
    "retry_on_timeout": True,
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
    # How often a worker looks for timers a dead worker held past the
    # visibility timeout (kombu scans only every 10th look by default, so
    # ~100 s would pass; one scan of an index per look is cheap).
    "unacked_restore_interval": env.int("CELERY_RESTORE_SECONDS", default=10),
    "unacked_restore_throttle": 1,
}
CLOCK_QUEUE = env.str("CLOCK_QUEUE", default="clocks")
"""The queue of the table clocks' timers."""
CELERY_TASK_DEFAULT_QUEUE = CLOCK_QUEUE
CLOCKS_ENABLED = env.bool("CLOCKS_ENABLED", default=True)
"""Whether commands write their clocks (off in the tests' settings, where tests that
run a worker turn it on)."""
CLOCK_SWEEP_SECONDS = env.int("CLOCK_SWEEP_SECONDS", default=5)
CLOCK_SAFETY_POLL_SECONDS = env.float("CLOCK_SAFETY_POLL_SECONDS", default=5.0)
"""On PostgreSQL, the longest a clock waker sleeps without reading the clocks'
index: it wakes for the nearest clock or a notification (``kernel.waker``),
and this covers one a lost connection missed."""
SCHEDULE_SECONDS = env.int("SCHEDULE_SECONDS", default=60)
"""How often beat has the tournament schedules create what their horizons
cover (``tournaments.schedules``)."""
CELERY_BEAT_SCHEDULER = "celery.beat:Scheduler"  # the schedule is fixed: nothing to keep
CELERY_BEAT_SCHEDULE = {
    # The clocks need no beat: each worker's waker sends the kernel's drain
    # when the nearest clock comes due (kernel.waker).  This sweep reports
    # the hands a dead process left unreported to their tournament.
    "tournament-sweep": {
        "task": "tournaments.tasks.tournament_sweep",
        "schedule": CLOCK_SWEEP_SECONDS,
    },
    "tournament-schedules": {
        "task": "tournaments.tasks.tournament_schedules",
        "schedule": SCHEDULE_SECONDS,
    },
}
EMBEDDED_WORKER = env.bool("EMBEDDED_WORKER", default=not REDIS_URL and CLOCKS_ENABLED)
"""Run a Celery worker and beat in threads of the server process, on the
in-memory transport: ``make run`` needs nothing else."""

# --- Auth --------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- API ---------------------------------------------------------------------

REST_FRAMEWORK = {
    # Token first: its WWW-Authenticate header makes "not authenticated" a 401.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # knox's and DRF's, refusing a staff account's unverified credentials.
        "config.auth.TokenAuthentication",
        "config.auth.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON with limits: too deep a body is malformed, too large a one too_large.
    "DEFAULT_PARSER_CLASSES": ["kernel.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.ApiSchema",
    "EXCEPTION_HANDLER": "kernel.api_errors.exception_handler",
    # Every unsafe request of a logged-in player counts against his commands;
    # the login, token, registration and password views set their own.
    "DEFAULT_THROTTLE_CLASSES": ["accounts.throttles.CommandThrottle"],
    # How many proxies in front append to X-Forwarded-For: 0 trusts none of
    # it (the address is REMOTE_ADDR), so a client cannot choose his own.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
}

STAFF_REQUIRE_OTP = env.bool("STAFF_REQUIRE_OTP", default=PRODUCTION)
"""Staff accounts prove a TOTP code at login, for the admin and the API
(``accounts.second_factor``): on in production, off on the development
profile so that ``make run`` needs no authenticator."""

CASINO_EDGE_FLOOR = env.float("CASINO_EDGE_FLOOR", default=0.0)
"""The least house edge against the best response, a share of the original
bet, that a casino table opens with (``casino.edge``): 0, the house
never loses on average to the best player."""

TOKEN_TTL_HOURS = env.int("TOKEN_TTL_HOURS", default=24 * 7)
"""How long an API token (one per login, per device) lasts."""
WS_TICKET_SECONDS = env.int("WS_TICKET_SECONDS", default=30)
"""How long a WebSocket ticket (``POST /api/ws-ticket/``, single use) lasts."""
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=TOKEN_TTL_HOURS),
    # Clients send "Authorization: Token <key>", as with DRF's own tokens.
    "AUTH_HEADER_PREFIX": "Token",
}

# --- Cache and throttles -----------------------------------------------------

# The throttles count here: on Redis every server process counts together.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # Keys apart from the channel layer's and Celery's on one Redis.
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="cache"),
        },
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

THROTTLE_RATES: dict[str, str | None] = {
    "login_address": env.str("THROTTLE_LOGIN_ADDRESS_RATE", default="20/m"),
    "login_account": env.str("THROTTLE_LOGIN_ACCOUNT_RATE", default="5/m"),
    "register_address": env.str("THROTTLE_REGISTER_ADDRESS_RATE", default="10/h"),
    "password_address": env.str("THROTTLE_PASSWORD_ADDRESS_RATE", default="10/m"),
    "password_account": env.str("THROTTLE_PASSWORD_ACCOUNT_RATE", default="5/m"),
    "command": env.str("THROTTLE_COMMAND_RATE", default="10/s"),
    "schema_address": env.str("THROTTLE_SCHEMA_ADDRESS_RATE", default="30/m"),
}
"""Requests allowed per scope (``config/throttles.py``): ``N/s``, ``N/m``,
``N/h`` or ``N/d``."""

SPECTACULAR_SETTINGS = {
    "TITLE": "Poker room API",
    "DESCRIPTION": "Cash tables, tournaments and accounts of the poker room.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs page loads Swagger UI from this server's static files (the
    # drf-spectacular-sidecar package), never from a CDN: it works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name per set of choices that several fields share.
    "ENUM_NAME_OVERRIDES": {
        "ActionEnum": "poker.api.responses.ACTIONS",
        "BlindEnum": "poker.api.responses.BLINDS",
        "PhaseEnum": "poker.api.responses.PHASES",
        "KindEnum": "poker.api.responses.CLOCK_KINDS",
        "TableStatusEnum": "poker.models.Table.Status",
        "HandNameEnum": "poker.api.responses.HAND_NAMES",
        "CasinoActionEnum": "casino.api.responses.ACTIONS",
        "CasinoHandEnum": "casino.api.responses.HANDS",
        "CasinoPhaseEnum": "casino.api.responses.PHASES",
        "CasinoResultEnum": "casino.api.responses.RESULTS",
        "CasinoClockKindEnum": "casino.api.responses.CLOCK_KINDS",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "EntrantStatusEnum": "tournaments.models.Entrant.Status",
        "TransferKindEnum": "accounts.models.Transfer.Kind",
        # The reports' kind of play (reports/api/serializers.py).
        "PlayKindEnum": ["cash", "tournament"],
    },
}

# --- Operations: metrics and readiness ---------------------------------------

METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
"""When set, ``/metrics`` wants ``Authorization: Bearer <token>``."""
METRICS_NETWORKS = env.list(
    "METRICS_NETWORKS",
    default=["127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"],
)
"""Addresses ``/metrics`` answers (``REMOTE_ADDR``: the proxy in front keeps
the public out, deploy/nginx.conf)."""
READY_TIMEOUT_S = env.float("READY_TIMEOUT_S", default=1.0)
"""How long ``/readyz`` waits for each of Redis and a worker's answer."""

# --- I18n, static files ------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
"""The API's messages (``message``, never ``code``) in these, chosen by the
request's ``Accept-Language`` (LocaleMiddleware); the catalogues are
``locale/<lang>/LC_MESSAGES/django.po``, compiled ``.mo`` files committed."""
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
"""Where ``manage.py collectstatic`` gathers the static files (``make run``
and the image do it), for WhiteNoise or a web server in front to serve."""
# WhiteNoise also serves straight from the installed apps what is not in
# STATIC_ROOT, so a server started without collectstatic (or a test) still
# has every file.
WHITENOISE_USE_FINDERS = True
STATIC_HASHED = env.bool("STATIC_HASHED", default=PRODUCTION)
"""Hashed names (``config.static``: ``app.3f2a….js``, cached a year by
WhiteNoise and nginx); needs ``collectstatic`` before the servers start, as
the release step does.  Off in development, where files change under their
names."""
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "config.static.HashedStaticFiles"
        if STATIC_HASHED
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Logging -----------------------------------------------------------------

LOG_LEVEL = env.str("LOG_LEVEL", default="INFO").upper()
LOG_FORMAT = env.str("LOG_FORMAT", default="json" if PRODUCTION else "plain")
"""``json`` (one object a line, for a log shipper) or ``plain``
(``config/logs.py``); both carry the bound context (command id, table)."""
if LOG_FORMAT not in ("json", "plain"):
    raise ImproperlyConfigured(f"LOG_FORMAT is {LOG_FORMAT!r}: json or plain")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "config.logs.json_formatter"},
        "plain": {"()": "config.logs.plain_formatter"},
        "bare": {"format": "%(message)s"},
    },
    "filters": {
        "quiet_sweeps": {"()": "config.logs.QuietSweeps"},
        # No secret in a query string reaches a line (config.logs.RedactSecrets).
        "redact": {"()": "config.logs.RedactSecrets"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["redact", "quiet_sweeps"],
        },
        # Trace lines as they are (kernel.stalls): no context to merge, and
        # a formatter's work on each would weigh on what they measure.
        "trace": {"class": "logging.StreamHandler", "formatter": "bare"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # The servers' own loggers set handlers of their own before Django
    # starts: theirs go through the one above, in the same format; but
    # uvicorn's access log stays off (nginx logs the requests), with
    # --no-access-log or without.
    "loggers": {
        **{
            name: {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False}
            for name in ("uvicorn", "uvicorn.error", "daphne", "celery")
        },
        "uvicorn.access": {"handlers": [], "propagate": False},
        # What held a frame up, a line per stage (kernel.stalls): for the
        # live benchmark and a diagnosis, never left on.
        "config.trace": {
            "handlers": ["trace"],
            "level": "DEBUG" if env.bool("LIVE_TRACE", default=False) else "WARNING",
            "propagate": False,
        },
    },
}
# A Celery worker keeps this configuration instead of its own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
