"""The database: its tables, the engine (SQLite or PostgreSQL) and migrations.

Alembic owns the schema (``migrations/``); :func:`migrate` runs ``upgrade head``
at start-up. The tables below describe the same schema for queries, and a test
checks that the migrations and these tables agree.

Times are seconds since the epoch (floats) from the server's clock. Deal
numbers are kept as decimal text: they go up to 10**20 - 1, beyond a 64-bit
integer.

Writes are short transactions; a write on SQLite starts by taking the
database's write lock (``BEGIN IMMEDIATE``).

The tables of the accounts and the rate limits are here; each domain package
adds its own to the same ``metadata``: ``play.storage`` (``plays``,
``play_events``), ``competition.tables``.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Generic, ParamSpec, TypeVar

import psycopg
from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError

from patiencekit.server.config import Settings

__all__ = [
    "BUSY",
    "Database",
    "DatabaseUnusable",
    "LoopStatements",
    "VersionedCache",
    "WriteWouldBlock",
    "create_db_engine",
    "database_name",
    "metadata",
    "migrate",
    "open_database",
    "rate_limits",
    "sessions",
    "signin_failures",
    "users",
]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

#: players: accounts and guests (guests have no password)
users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    #: the name in lower case: names are unique whatever their case
    Column("name_key", String(64), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=True),
    Column("guest", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
)

#: signed-in browsers: the cookie holds a random token, the table its SHA-256
sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column(
        "user_id",
        Integer,
        ForeignKey("users.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

#: failed sign-ins (name, address, time): a record for whoever looks into an attack, kept for
#: the sign-in window; the limits themselves count in ``rate_limits``
signin_failures = Table(
    "signin_failures",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name_key", String(64), nullable=False),
    Column("ip", String(64), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_signin_failures_key", "name_key", "ip", "at"),
)


#: rate limits (see ``limits``): one row per bucket that is not full, its "theoretical
#: arrival time" (GCRA); a row whose ``tat`` has passed is a full bucket, and may go
rate_limits = Table(
    "rate_limits",
    metadata,
    Column("key", String(128), primary_key=True),
    Column("tat", Float, nullable=False),
    Index("ix_rate_limits_tat", "tat"),
)


def _sqlite_path(url: str) -> Path | None:
    database = make_url(url).database
    if not database or database == ":memory:":
        return None
    return Path(database)


def create_db_engine(settings: Settings) -> Engine:
    """The SQLAlchemy engine for ``settings.database_url`` (SQLite tuned for concurrent use)."""
    url = settings.database_url
    if not settings.is_sqlite:
        # Kept connections: enough for the server's thread pool (40) without opening and
        # closing connections under load; a request holds one connection at a time.
        return create_engine(url, pool_size=20, max_overflow=20)
    path = _sqlite_path(url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url,
        pool_size=40,
        max_overflow=10,
        connect_args={"check_same_thread": False, "timeout": 30},
    )
    synchronous = settings.sqlite_synchronous

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" hook below issue BEGIN itself.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # A write transaction takes the database's write lock at once, so that what it
        # reads cannot change before it writes: requests on a play are serialised.
        options = conn.get_execution_options()
        if not options.get("patiencekit_write", False):
            conn.exec_driver_sql("BEGIN")
            return
        if not options.get("patiencekit_nowait", False):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            return
        # On the event loop: if another process holds the write lock for longer than a
        # moment, say so (WriteWouldBlock) rather than wait for it with the whole loop.
        # (The pragmas go straight to the driver: a few microseconds each.)
        driver = conn.connection.driver_connection
        assert driver is not None
        driver.execute(f"PRAGMA busy_timeout={LOOP_WAIT_MS}")
        try:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        except OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e):
                raise
            raise WriteWouldBlock from None
        finally:
            driver.execute("PRAGMA busy_timeout=30000")

    return engine


T = TypeVar("T")
P = ParamSpec("P")

#: threads for the database work of ``async`` routes when it cannot run on the event loop
DB_THREADS = 4

#: how long a write on the event loop waits for SQLite's write lock (milliseconds), in this
#: process and then in the database, before it is handed to a thread (a deal being made holds
#: it for a millisecond or two; the daily medal close, another process, may hold it longer)
LOOP_WAIT_MS = 25

#: set while :meth:`Database.run` runs work on the event loop itself
_ON_LOOP: ContextVar[bool] = ContextVar("patiencekit_on_loop", default=False)


class WriteWouldBlock(Exception):
    """A write on the event loop would have to wait longer than :data:`LOOP_WAIT_MS` for
    SQLite's write lock (held by a thread of this process or by another process):
    :meth:`Database.run` runs the work again in a thread, where waiting blocks nothing
    else. Raised before anything is written."""


class VersionedCache(Generic[T]):
    """Values derived from the database, each valid at one version of its key.

    Used for rebuilt games (``play.fastpath``): the key is a play id, the version
    its event count (``plays.seq``). A play's events are append-only, so the game after ``seq``
    events is always the same, and an entry is used only when the ``seq`` just
    read from the database matches; the database stays the only truth, and a
    process without the entry replays the log. :meth:`take` removes the entry:
    a request owns the value until it puts it back (at the version its own
    commit made), so two requests never share one.

    >>> cache = VersionedCache[str](size=2)
    >>> cache.put("a", 1, "x"); cache.take("a", 2), cache.take("a", 1)
    (None, None)
    >>> cache.put("a", 1, "x"); cache.take("a", 1)
    'x'
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, tuple[int, T]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: str, version: int) -> T | None:
        """The value of ``key`` at ``version``, if kept; it is no longer kept."""
        with self._lock:
            item = self._items.pop(key, None)
        if item is None or item[0] != version:
            return None
        return item[1]

    def take_any(self, key: str) -> tuple[int, T] | None:
        """The value of ``key`` with its version, whatever the version; no longer kept.

        >>> cache = VersionedCache[str](size=2)
        >>> cache.put("a", 3, "x"); cache.take_any("a"), cache.take_any("a")
        ((3, 'x'), None)
        """
        with self._lock:
            return self._items.pop(key, None)

    def put(self, key: str, version: int, value: T) -> None:
        """Keep ``value`` as ``key`` at ``version`` (the least recently used go first)."""
        if self.size <= 0:
            return
        with self._lock:
            self._items[key] = (version, value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


#: what :meth:`LoopStatements.fetch_one` says when all its connections are busy
BUSY: Any = object()


class LoopStatements:
    """PostgreSQL statements run on the event loop, on psycopg's async connections: for
    the hottest request (a move on a kept game: ``play.fastpath``), so that it pays no
    hop to a worker thread and back, and waits for no other thread to give up the
    interpreter (a thread back from the network waits up to ``sys.getswitchinterval()``
    while the loop computes: measured, tens of milliseconds per move under load).

    At most ``size`` connections (``Settings.pg_loop_connections``), autocommit (each
    statement atomic by itself). A connection is held until the loop comes back to its
    statement's answer, so under load many are held at once: with 50 players sending
    moves back to back, 8 connections sent half the moves to the threads, 32 one in
    twenty. Nothing here waits for a connection: when all are busy, :meth:`fetch_one` returns
    :data:`BUSY` and the caller takes the thread path. So nothing is tied to one event
    loop (the tests run several), and a connection is used by one call at a time.
    """

    def __init__(self, url: str, size: int) -> None:
        self.conninfo = (
            make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        )
        self.size = size
        self._idle: list[Any] = []
        self._open = 0
        self._lock = threading.Lock()

    async def fetch_one(self, sql: str, params: dict[str, Any]) -> Any:
        """The first row of ``sql`` (pyformat parameters), None if it gave none; or
        :data:`BUSY`. An error closes the connection it happened on (and, when the
        connection was lost, the idle ones) and is raised."""
        with self._lock:
            conn = self._idle.pop() if self._idle else None
            if conn is None:
                if self._open >= self.size:
                    return BUSY
                self._open += 1
        try:
            if conn is None:
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
            cursor = await conn.execute(sql, params, prepare=True)
            row = await cursor.fetchone()
        except BaseException as e:
            with self._lock:
                self._open -= 1
            if conn is not None:
                conn.pgconn.finish()
            if isinstance(e, psycopg.OperationalError):
                # The server went away (restarted, or the connections were ended): the idle
                # connections are as dead as this one, and would each fail one request.
                self.close()
            raise
        with self._lock:
            self._idle.append(conn)
        return row

    def close(self) -> None:
        """Close the idle connections (from any thread, with or without a loop)."""
        with self._lock:
            idle, self._idle = self._idle, []
            self._open -= len(idle)
        for conn in idle:
            conn.pgconn.finish()


class Database:
    """The engine plus the two kinds of transaction the app uses."""

    def __init__(self, settings: Settings, engine: Engine | None = None) -> None:
        self.settings = settings
        self.engine = engine if engine is not None else create_db_engine(settings)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        # SQLite has one writer at a time; its busy handler makes waiting writers poll
        # with sleeps. Within a process they queue on this lock instead (other
        # processes still wait through the busy handler).
        self._write_lock = threading.Lock() if self.is_sqlite else contextlib.nullcontext()
        # PostgreSQL readers use connections of their own that stay in autocommit (switching
        # a pooled connection back and forth costs round trips).
        self._autocommit = (
            None
            if self.is_sqlite
            else create_engine(
                self.engine.url, isolation_level="AUTOCOMMIT", pool_size=20, max_overflow=20
            )
        )
        #: PostgreSQL: statements on the event loop (see :class:`LoopStatements`)
        self.loop_statements = (
            LoopStatements(
                self.engine.url.render_as_string(hide_password=False),
                settings.pg_loop_connections,
            )
            if not self.is_sqlite and settings.pg_loop_connections > 0
            else None
        )
        #: rebuilt games of this process (see :class:`VersionedCache`)
        self.memo: VersionedCache[Any] = VersionedCache(settings.game_cache_size)
        #: Whether short requests run their statements on the event loop (see :meth:`run`).
        self.inline = self.is_sqlite and settings.sqlite_synchronous == "NORMAL"
        self._threads: ThreadPoolExecutor | None = None

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``fn`` (a short request's database work) for an ``async`` route.

        With SQLite in WAL mode and ``synchronous=NORMAL``, a statement is an in-process
        call of some tens of microseconds and a commit does not wait for the disk, so the
        work runs right on the event loop: the hop to a worker thread and back would cost
        more than the work (and one process has one SQLite writer at a time anyway).
        Statements that wait on a network (PostgreSQL) or on the disk (``FULL``) run in
        a small pool of threads of their own (:data:`DB_THREADS`) (but the hottest one,
        a move on a kept game, goes through :class:`LoopStatements`), so the loop keeps
        serving while they wait; few threads contend less for the interpreter than
        the framework's forty (measured: a fifth less CPU per move on PostgreSQL).

        A write on the loop waits for SQLite's write lock only briefly
        (:data:`LOOP_WAIT_MS`): if a thread of this process or another process holds it
        longer (the daily medal close, a ``close-day`` run), :meth:`write` raises
        :class:`WriteWouldBlock` before writing anything, and ``fn`` runs again from the
        start in a thread. So ``fn`` must be safe to run again after
        a failed write (the play routes are: their writes are their last step, and a
        game they changed but did not store is dropped from the cache).
        Long work (password hashing, the solver) does not come here: its routes are
        plain functions.
        """
        if self.inline:
            token = _ON_LOOP.set(True)
            try:
                return fn(*args, **kwargs)
            except WriteWouldBlock:
                pass  # the write lock is taken: the work is done again in a thread
            finally:
                _ON_LOOP.reset(token)
        if self._threads is None:
            self._threads = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="patiencekit-db")
        call = functools.partial(fn, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._threads, call)

    @contextlib.contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for reading.

        On SQLite, one read transaction (a consistent snapshot, and no round trip to
        pay for it). On PostgreSQL, autocommit: each statement sees the latest commits
        and no BEGIN / ROLLBACK round trips are spent; readers that need several
        statements to agree say so in their queries (a play's events are read up to the
        ``seq`` of the play row read first).
        """
        if self.is_sqlite:
            with self.engine.connect() as conn, conn.begin() as tx:
                yield conn
                tx.rollback()
            return
        with self.statement() as conn:
            yield conn

    @contextlib.contextmanager
    def statement(self) -> Iterator[Connection]:
        """PostgreSQL: a connection in autocommit mode, for a statement atomic by itself."""
        if self._autocommit is None:
            raise RuntimeError("autocommit statements are for PostgreSQL")
        with self._autocommit.connect() as conn:
            yield conn

    @contextlib.contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: committed when the block ends, rolled back on an exception.

        Callers that must keep something despite raising (a failed sign-in) commit
        with ``conn.commit()`` themselves before raising.
        """
        nowait = _ON_LOOP.get()
        with self._writer(nowait), self.engine.connect() as conn:
            conn.execution_options(patiencekit_write=True, patiencekit_nowait=nowait)
            with conn.begin():
                yield conn

    @contextlib.contextmanager
    def _writer(self, nowait: bool) -> Iterator[None]:
        """This process's turn to write; with ``nowait`` (on the event loop), waited for
        at most :data:`LOOP_WAIT_MS`, else :class:`WriteWouldBlock`."""
        lock = self._write_lock
        if not nowait:
            with lock:
                yield
            return
        if not isinstance(lock, type(threading.Lock())):
            raise RuntimeError("writes on the event loop are for SQLite")
        if not lock.acquire(timeout=LOOP_WAIT_MS / 1000):
            raise WriteWouldBlock
        try:
            yield
        finally:
            lock.release()

    def dispose(self) -> None:
        """Close every pooled connection (and stop the threads of :meth:`run`)."""
        if self._threads is not None:
            self._threads.shutdown(wait=True)
            self._threads = None
        self.engine.dispose()
        if self.loop_statements is not None:
            self.loop_statements.close()
        if self._autocommit is not None:
            self._autocommit.dispose()


def _alembic_config(url: str) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # ConfigParser interpolation: a literal % must be doubled.
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def migrate(db: Database) -> None:
    """Create or upgrade the schema to the newest migration (``alembic upgrade head``).

    Several processes may start at once: SQLite takes a lock file beside the
    database, PostgreSQL an advisory lock (in ``migrations/env.py``).
    """
    from alembic import command

    config = _alembic_config(db.settings.database_url)
    lock: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
    path = _sqlite_path(db.settings.database_url) if db.is_sqlite else None
    if path is not None:
        lock = _file_lock(path.with_name(path.name + ".migrate-lock"))
    with lock, db.engine.connect() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
        conn.commit()


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    with path.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


class DatabaseUnusable(Exception):
    """The database cannot be opened, read or migrated at start-up. The message is one
    line that names it (the SQLite file, or PostgreSQL's host and database) and says why."""


def database_name(settings: Settings) -> str:
    """The database in words, for messages: its SQLite file, or PostgreSQL's address (no
    password).

    >>> database_name(Settings(database_url="sqlite:////srv/pk/patiencekit.sqlite3"))
    'the SQLite database /srv/pk/patiencekit.sqlite3'
    >>> database_name(Settings(database_url="postgresql+psycopg://pk:secret@db:5433/pk"))
    'the PostgreSQL database pk on db:5433'
    """
    url = make_url(settings.database_url)
    if settings.is_sqlite:
        return f"the SQLite database {url.database or ':memory:'}"
    return f"the PostgreSQL database {url.database} on {url.host}:{url.port or 5432}"


def open_database(settings: Settings) -> Database:
    """The database of ``settings``, created or migrated (:func:`migrate`) and read once.

    Raises :class:`DatabaseUnusable` when it cannot be used: an SQLite file that is not a
    database, is damaged or cannot be opened; a PostgreSQL that cannot be reached; a
    schema from a newer PatienceKit.
    """
    from alembic.util.exc import CommandError

    db: Database | None = None
    try:
        db = Database(settings)
        migrate(db)
        with db.read() as conn:
            conn.exec_driver_sql("SELECT count(*) FROM alembic_version").scalar_one()
    except (OSError, SQLAlchemyError, CommandError) as e:
        if db is not None:
            db.dispose()
        reason = e.orig if isinstance(e, DBAPIError) else e
        first = (str(reason).strip().splitlines() or [type(reason).__name__])[0]
        advice = (
            ": restore it from a backup, or move it away to start with an empty one"
            if settings.is_sqlite
            else ""
        )
        raise DatabaseUnusable(f"{database_name(settings)} cannot be used ({first}){advice}") from e
    return db
