"""The server's settings, read once from the environment.

Every variable is optional in development. Outside development
``PATIENCEKIT_SECRET_KEY`` must be set, and in production the development
default is refused.

>>> s = Settings.from_env({"PATIENCEKIT_DATA_DIR": "/tmp/pk"})
>>> s.env, s.database_url
('development', 'sqlite:////tmp/pk/patiencekit.sqlite3')
>>> Settings.from_env({"PATIENCEKIT_ENV": "production"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
patiencekit.server.config.SettingsError: PATIENCEKIT_SECRET_KEY must be set when PATIENCEKIT_ENV ...
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEV_SECRET_KEY", "Settings", "SettingsError", "normalize_database_url"]

#: the secret used in development when none is given; refused in production
DEV_SECRET_KEY = "patiencekit-development-secret-do-not-use-in-production"

ENVIRONMENTS = ("development", "test", "production")


class SettingsError(ValueError):
    """The environment does not describe a usable server configuration."""


def normalize_database_url(url: str) -> str:
    """Accept plain ``postgresql://`` URLs: the server talks to PostgreSQL through psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    text = env.get(name)
    if text is None or text == "":
        return default
    if not text.isdigit():
        raise SettingsError(f"{name} must be a whole number from 0 up, not {text!r}")
    return int(text)


def _positive_int(env: Mapping[str, str], name: str, default: int) -> int:
    text = env.get(name)
    if text is None or text == "":
        return default
    try:
        value = int(text)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {text!r}") from None
    if value <= 0:
        raise SettingsError(f"{name} must be positive, not {value}")
    return value


def _flag(env: Mapping[str, str], name: str) -> bool:
    text = env.get(name, "") or "0"
    if text not in ("0", "1"):
        raise SettingsError(f"{name} must be 0 or 1, not {text!r}")
    return text == "1"


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Everything the app needs to know about where it runs."""

    env: str = "development"
    secret_key: str = DEV_SECRET_KEY
    data_dir: Path = Path("data")
    #: SQLAlchemy URL; an SQLite file in ``data_dir`` unless PATIENCEKIT_DATABASE_URL is set
    database_url: str = ""
    #: refuse request bodies larger than this (bytes)
    max_body_bytes: int = 16 * 1024
    #: a session cookie lives this long (seconds)
    session_seconds: int = 30 * 24 * 3600
    #: sign-in attempts allowed within ``signin_window_seconds`` (each counted before its
    #: password is checked; a success gives its attempt back; see ``accounts.signin``): per
    #: account from browsers it does not trust, whatever their address ...
    signin_max_failures: int = 5
    #: ... per address, whatever the account ...
    signin_address_failures: int = 20
    #: ... and per browser that the account trusts (its device cookie, given by a sign-in)
    signin_device_failures: int = 10
    signin_window_seconds: int = 300
    #: sign-ups allowed per address within ``signup_window_seconds``
    signups_per_address: int = 20
    signup_window_seconds: int = 3600
    #: new guests (browsers without a session that start a play) allowed per address within
    #: ``guest_window_seconds``
    guests_per_address: int = 60
    guest_window_seconds: int = 600
    #: hints allowed per player (account or guest) within ``hint_window_seconds``
    hints_per_player: int = 20
    hint_window_seconds: int = 60
    #: processes of this server process that work out hints (the solver never runs on the
    #: app's own threads), and how many hints may be asked at once (worked out or waiting;
    #: more are refused with 503 until one is done); see ``hints``
    hint_workers: int = 1
    hint_queue: int = 8
    #: ``Server-Timing: app;dur=MS`` on every answer (for the load bench only: the time an
    #: answer takes may tell a player something about the hidden cards)
    server_timing: bool = False
    #: SQLite ``PRAGMA synchronous`` (the database is in WAL mode). NORMAL: a commit is in
    #: the database file's log before the answer, so a killed or crashed server process loses
    #: nothing; only a power cut or an OS crash may lose the last moments. FULL: every commit
    #: also waits for the disk (fsync), several milliseconds each.
    sqlite_synchronous: str = "NORMAL"
    #: rebuilt games kept per process, so that a move need not replay the play's whole log
    #: (0: replay on every request); see ``db.VersionedCache``
    game_cache_size: int = 2000
    #: PostgreSQL: connections per process for the moves sent on the event loop (0: every
    #: statement goes through the database threads); see ``db.LoopStatements``. Mind the
    #: server's ``max_connections`` (100 by default) across processes.
    pg_loop_connections: int = 32
    #: a tournament's rounds must be finished this long after its start (seconds)
    tournament_deadline_seconds: int = 24 * 3600
    #: how often the app ends tournaments past their deadline and closes UTC days (seconds;
    #: 0: never, e.g. when a separate process runs ``patiencekit close-day``)
    competition_tick_seconds: int = 60
    #: addresses (or networks, or ``*``) of the reverse proxies whose ``X-Forwarded-For`` and
    #: ``X-Forwarded-Proto`` are believed, comma-separated; empty: none, the socket's peer is
    #: the client (the sign-in limit counts per client address; cookies are ``Secure`` over
    #: https)
    trusted_proxies: str = ""

    def __post_init__(self) -> None:
        if self.env not in ENVIRONMENTS:
            raise SettingsError(
                f"PATIENCEKIT_ENV must be one of {', '.join(ENVIRONMENTS)}, not {self.env!r}"
            )
        if self.env == "production" and self.secret_key == DEV_SECRET_KEY:
            raise SettingsError(
                "PATIENCEKIT_SECRET_KEY must be set to a secret of your own in production"
            )
        if len(self.secret_key) < 16:
            raise SettingsError("PATIENCEKIT_SECRET_KEY must be at least 16 characters long")
        if self.sqlite_synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise SettingsError("PATIENCEKIT_SQLITE_SYNCHRONOUS must be FULL, NORMAL or EXTRA")
        for entry in filter(None, (e.strip() for e in self.trusted_proxies.split(","))):
            if entry != "*":
                try:
                    ipaddress.ip_network(entry, strict=False)
                except ValueError:
                    raise SettingsError(
                        f"PATIENCEKIT_TRUSTED_PROXIES: {entry!r} is not an address, a network or *"
                    ) from None
        if not self.database_url:
            path = (self.data_dir / "patiencekit.sqlite3").absolute()
            object.__setattr__(self, "database_url", f"sqlite:///{path}")

    @property
    def is_sqlite(self) -> bool:
        """True when the database is an SQLite file."""
        return self.database_url.startswith("sqlite")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read the settings from ``environ`` (default: the process environment)."""
        env = os.environ if environ is None else environ
        mode = env.get("PATIENCEKIT_ENV", "development") or "development"
        if mode not in ENVIRONMENTS:
            raise SettingsError(
                f"PATIENCEKIT_ENV must be one of {', '.join(ENVIRONMENTS)}, not {mode!r}"
            )
        secret = env.get("PATIENCEKIT_SECRET_KEY", "")
        if not secret:
            if mode != "development":
                raise SettingsError(
                    f"PATIENCEKIT_SECRET_KEY must be set when PATIENCEKIT_ENV is {mode}"
                )
            secret = DEV_SECRET_KEY
        return cls(
            env=mode,
            secret_key=secret,
            data_dir=Path(env.get("PATIENCEKIT_DATA_DIR", "") or "data"),
            database_url=normalize_database_url(env.get("PATIENCEKIT_DATABASE_URL", "")),
            max_body_bytes=_positive_int(env, "PATIENCEKIT_MAX_BODY_BYTES", 16 * 1024),
            session_seconds=_positive_int(env, "PATIENCEKIT_SESSION_SECONDS", 30 * 24 * 3600),
            game_cache_size=_count(env, "PATIENCEKIT_GAME_CACHE", 2000),
            pg_loop_connections=_count(env, "PATIENCEKIT_PG_LOOP_CONNECTIONS", 32),
            tournament_deadline_seconds=_positive_int(
                env, "PATIENCEKIT_TOURNAMENT_DEADLINE_SECONDS", 24 * 3600
            ),
            competition_tick_seconds=_count(env, "PATIENCEKIT_COMPETITION_TICK_SECONDS", 60),
            sqlite_synchronous=(env.get("PATIENCEKIT_SQLITE_SYNCHRONOUS", "") or "NORMAL").upper(),
            trusted_proxies=env.get("PATIENCEKIT_TRUSTED_PROXIES", ""),
            signin_max_failures=_positive_int(env, "PATIENCEKIT_SIGNIN_MAX_FAILURES", 5),
            signin_address_failures=_positive_int(env, "PATIENCEKIT_SIGNIN_ADDRESS_FAILURES", 20),
            signin_device_failures=_positive_int(env, "PATIENCEKIT_SIGNIN_DEVICE_FAILURES", 10),
            signups_per_address=_positive_int(env, "PATIENCEKIT_SIGNUPS_PER_ADDRESS", 20),
            guests_per_address=_positive_int(env, "PATIENCEKIT_GUESTS_PER_ADDRESS", 60),
            hints_per_player=_positive_int(env, "PATIENCEKIT_HINTS_PER_PLAYER", 20),
            hint_workers=_positive_int(env, "PATIENCEKIT_HINT_WORKERS", 1),
            hint_queue=_positive_int(env, "PATIENCEKIT_HINT_QUEUE", 8),
            server_timing=_flag(env, "PATIENCEKIT_SERVER_TIMING"),
        )
