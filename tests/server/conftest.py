"""Fixtures for the server's API tests: a fresh database for every test, on SQLite and PostgreSQL.

Every test that uses ``database_url`` (directly or through ``app`` / ``api``) runs
twice: on an SQLite file of its own, and on PostgreSQL in a schema of its own.
The PostgreSQL server is the one at ``PATIENCEKIT_TEST_POSTGRES_URL``; when it is not
set, ``tests/conftest.py`` starts a throwaway one from the installed binaries for the
whole run (all xdist workers share it) and sets it. Without a server those variants
FAIL, so that a CI that forgot PostgreSQL cannot pass; ``PATIENCEKIT_ALLOW_NO_POSTGRES=1``
skips them on a machine without PostgreSQL.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")

# Starlette's TestClient still works with httpx; silence its notice about httpx2.
warnings.filterwarnings("ignore", message=".*httpx2.*")

from api_client import Api  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import create_engine  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from patiencekit.server.app import create_app  # noqa: E402
from patiencekit.server.config import Settings, normalize_database_url  # noqa: E402

PG_ENV = "PATIENCEKIT_TEST_POSTGRES_URL"
ALLOW_ENV = "PATIENCEKIT_ALLOW_NO_POSTGRES"
SECRET = "test-secret-key-0123456789abcdef"
#: the fake clock's start: 2023-11-14
T0 = 1_700_000_000.0


class FakeClock:
    """The server's clock in tests: it moves only when told."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def postgres_admin_url() -> str:
    """The PostgreSQL to test against; fails (or skips, when allowed) without one."""
    url = os.environ.get(PG_ENV, "")
    if not url:
        if os.environ.get(ALLOW_ENV) == "1":
            pytest.skip(
                f"no PostgreSQL ({PG_ENV} is not set and none is installed to start: "
                f"apt-get install postgresql); skipped as {ALLOW_ENV}=1 allows"
            )
        pytest.fail(
            f"{PG_ENV} is not set: the server tests must also run against PostgreSQL "
            "(tests/conftest.py starts a throwaway one when PostgreSQL is installed: "
            f"apt-get install postgresql; or set {ALLOW_ENV}=1 to skip them)"
        )
    return normalize_database_url(url)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """Which database the test runs on."""
    return str(request.param)


@pytest.fixture
def database_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: an SQLite file, or a new PostgreSQL schema (dropped after)."""
    with fresh_database(backend, tmp_path) as url:
        yield url


@contextlib.contextmanager
def fresh_database(backend: str, folder: Path) -> Iterator[str]:
    """The URL of a fresh, empty database: an SQLite file in ``folder / "data"``, or a new
    PostgreSQL schema (dropped at the end)."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'data' / 'patiencekit.sqlite3'}"
        return
    admin = postgres_admin_url()
    schema = "pk_test_" + secrets.token_hex(6)
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    url = make_url(admin).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        engine.dispose()


@pytest.fixture
def settings(database_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> Settings:
    """The test settings; under the mark ``no_periodic_task`` without the periodic task (the
    test runs ``tick`` with its own clock)."""
    quiet = request.node.get_closest_marker("no_periodic_task") is not None
    return Settings(
        env="test",
        secret_key=SECRET,
        data_dir=tmp_path / "data",
        database_url=database_url,
        **({"competition_tick_seconds": 0} if quiet else {}),
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(settings: Settings, clock: FakeClock) -> Iterator[FastAPI]:
    application = create_app(settings, clock=clock)
    yield application
    application.state.db.dispose()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def module_backend(request: pytest.FixtureRequest) -> str:
    """Which database a module's shared app (``module_app``) runs on."""
    return str(request.param)


@pytest.fixture(scope="module")
def module_app(module_backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    """One app on a fresh database for all the tests of a module, on SQLite and on
    PostgreSQL: for many requests whose order does not matter (the schemathesis run). The
    clock does not move and no periodic competition task runs."""
    folder = tmp_path_factory.mktemp(f"module-app-{module_backend}")
    with fresh_database(module_backend, folder) as url:
        application = create_app(
            Settings(
                env="test",
                secret_key=SECRET,
                data_dir=folder / "data",
                database_url=url,
                competition_tick_seconds=0,
            ),
            clock=FakeClock(),
        )
        yield application
        application.state.db.dispose()


@pytest.fixture
def make_api(app: FastAPI) -> Iterator[Any]:
    """Browsers: ``make_api()`` (optionally ``make_api(base_url=..., cookies=...)``).

    Each keeps one event loop for all its requests (a ``with TestClient``), which
    makes a test's hundreds of requests several times faster.
    """
    with contextlib.ExitStack() as stack:

        def make(**kwargs: Any) -> Api:
            return Api(stack.enter_context(TestClient(app, **kwargs)))

        yield make


@pytest.fixture
def api(make_api: Any) -> Api:
    """A browser."""
    result: Api = make_api()
    return result


@pytest.fixture
def other_api(make_api: Any) -> Api:
    """Another browser (its own cookies) on the same server."""
    result: Api = make_api()
    return result
