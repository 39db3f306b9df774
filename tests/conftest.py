"""The suite's own set-up, in pytest's main process (the pytest-xdist controller).

* PostgreSQL: the server tests run on SQLite and on PostgreSQL. Without
  ``PATIENCEKIT_TEST_POSTGRES_URL``, a run that includes ``tests/server`` starts one
  throwaway server from the installed binaries (:mod:`throwaway_postgres`) before the
  workers start, exports its URL to them, and removes it at the end. Without the
  binaries it stops at once with one line that says how to install them, unless
  ``PATIENCEKIT_ALLOW_NO_POSTGRES=1`` (then the PostgreSQL variants skip, visibly).
* Chromium: a run that includes ``tests/browser`` finds it (``PATIENCEKIT_CHROMIUM``,
  ``/usr/bin/chromium``, ``chromium``, ``chromium-browser`` on the ``PATH``) and
  exports the path as ``PATIENCEKIT_CHROMIUM``; without it the run stops at once with
  one line that says how to install it, unless ``PATIENCEKIT_ALLOW_NO_BROWSER=1``
  (then the browser tests skip, visibly).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import throwaway_postgres

TESTS = Path(__file__).resolve().parent
PG_ENV = throwaway_postgres.URL_ENV
ALLOW_NO_POSTGRES = "PATIENCEKIT_ALLOW_NO_POSTGRES"
CHROMIUM_ENV = "PATIENCEKIT_CHROMIUM"
ALLOW_NO_BROWSER = "PATIENCEKIT_ALLOW_NO_BROWSER"
_SERVER = pytest.StashKey[throwaway_postgres.ThrowawayPostgres]()
# not a module of doctests (--doctest-modules would import it again as ``conftest``, a name
# the other conftest files share)
collect_ignore = ["conftest.py"]


def find_chromium() -> str | None:
    """The Chromium to drive: ``PATIENCEKIT_CHROMIUM`` if set, else Debian's (or one on
    the ``PATH``)."""
    if os.environ.get(CHROMIUM_ENV):
        path = os.environ[CHROMIUM_ENV]
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _runs(config: pytest.Config, folder: Path) -> bool:
    """True when the run's paths include tests in ``folder`` (the folder itself, a file
    in it, or a folder above it)."""
    base = Path(config.invocation_params.dir)
    for arg in config.args:
        path = (base / arg.split("::", 1)[0]).resolve()
        if path == folder or folder in path.parents or path in folder.parents:
            return True
    return False


def _check_chromium(config: pytest.Config) -> None:
    path = find_chromium()
    if path is not None:
        os.environ[CHROMIUM_ENV] = path  # the workers inherit it
        return
    if os.environ.get(ALLOW_NO_BROWSER) == "1" or not _runs(config, TESTS / "browser"):
        return
    where = "/usr/bin/chromium, chromium or chromium-browser"
    if os.environ.get(CHROMIUM_ENV):
        where = f"${CHROMIUM_ENV}={os.environ[CHROMIUM_ENV]}"
    raise pytest.UsageError(
        f"Chromium is not installed (looked for {where}): apt-get install chromium "
        f"(or set {ALLOW_NO_BROWSER}=1 to skip the browser tests)"
    )


def _start_postgres(config: pytest.Config) -> None:
    if os.environ.get(PG_ENV) or not _runs(config, TESTS / "server"):
        return
    if throwaway_postgres.find_bindir() is None and os.environ.get(ALLOW_NO_POSTGRES) == "1":
        return  # the PostgreSQL variants skip (tests/server/conftest.py)
    try:
        server = throwaway_postgres.start()
    except throwaway_postgres.PostgresUnavailable as e:
        raise pytest.UsageError(
            f"{e} (or set {PG_ENV} to a server's URL, or {ALLOW_NO_POSTGRES}=1 to skip "
            "the PostgreSQL tests)"
        ) from None
    config.stash[_SERVER] = server
    os.environ[PG_ENV] = server.url  # the workers inherit it


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return  # an xdist worker: the controller did the set-up, the environment says it
    if config.option.help or config.option.collectonly:
        return
    _check_chromium(config)
    _start_postgres(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    server = config.stash.get(_SERVER, None)
    if server is not None:
        del config.stash[_SERVER]
        os.environ.pop(PG_ENV, None)
        server.stop()


def pytest_report_header(config: pytest.Config) -> str | None:
    server = config.stash.get(_SERVER, None)
    if server is not None:
        return f"PostgreSQL: a throwaway server in {server.folder} (stopped and removed at the end)"
    return None
