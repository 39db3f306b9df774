"""A throwaway PostgreSQL server for the tests, made from the installed binaries.

When ``PATIENCEKIT_TEST_POSTGRES_URL`` is not set, ``tests/conftest.py`` starts one
server in pytest's main process (the pytest-xdist controller, before any worker starts;
the workers inherit the URL from its environment), and stops it and deletes its folder
when pytest ends, whether the tests pass, fail or are interrupted.

How: a *keeper* process (this file run with ``--keep``, in a session of its own) runs
``initdb`` into a new temporary folder, starts ``postgres`` (through ``pg_ctl``) on a
free 127.0.0.1 port with its unix socket in that folder, prints the URL and then waits
for its standard input to close. pytest holds the other end: when pytest ends, however
it ends (even ``kill -9``), the keeper stops the server and deletes the folder. As root
the server runs as the ``postgres`` user (made by Debian's package; else ``nobody``):
PostgreSQL refuses to run as root. Logins need a random password; durability is off
(``fsync``), the data is thrown away.

The binaries are looked for in ``PATIENCEKIT_POSTGRES_BINDIR``, ``pg_config --bindir``,
``/usr/lib/postgresql/*/bin`` (the newest), ``/usr/local/pgsql/bin`` and the ``PATH``.

By hand, to run any command against a throwaway server::

    .venv/bin/python tests/throwaway_postgres.py -- .venv/bin/python bench/top100.py
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import re
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

__all__ = [
    "INSTALL_HINT",
    "URL_ENV",
    "PostgresUnavailable",
    "ThrowawayPostgres",
    "find_bindir",
    "start",
]

URL_ENV = "PATIENCEKIT_TEST_POSTGRES_URL"
BINDIR_ENV = "PATIENCEKIT_POSTGRES_BINDIR"
INSTALL_HINT = "apt-get install postgresql"
#: the programs the server needs
PROGRAMS = ("initdb", "pg_ctl", "postgres")
#: how long the keeper may take to report a running server (initdb and start-up)
START_SECONDS = 120
#: settings for a server whose data is thrown away (faster, and room for the tests'
#: connection pools: each app may hold ``PATIENCEKIT_PG_LOOP_CONNECTIONS`` of them)
SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "max_connections": "300",
    "shared_buffers": "32MB",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "log_min_messages": "warning",
}


class PostgresUnavailable(RuntimeError):
    """No server could be made: no binaries (see :data:`INSTALL_HINT`) or a failed start."""


def _has_programs(folder: Path) -> bool:
    return all(os.access(folder / p, os.X_OK) for p in PROGRAMS)


def _version_key(folder: Path) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", folder.parent.name))


def find_bindir() -> Path | None:
    """The folder of ``initdb``, ``pg_ctl`` and ``postgres``, or None."""
    candidates: list[Path] = []
    if os.environ.get(BINDIR_ENV):
        candidates.append(Path(os.environ[BINDIR_ENV]))
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            )
            candidates.append(Path(out.stdout.strip()))
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version_key, reverse=True)
    candidates.append(Path("/usr/local/pgsql/bin"))
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(Path(initdb).resolve().parent)
    return next((c for c in candidates if _has_programs(c)), None)


def not_installed_message() -> str:
    return (
        f"PostgreSQL is not installed (no {', '.join(PROGRAMS)} in ${BINDIR_ENV}, "
        f"pg_config --bindir or /usr/lib/postgresql/*/bin): {INSTALL_HINT}"
    )


# -- the side of pytest ------------------------------------------------------------------


@dataclass
class ThrowawayPostgres:
    """A running throwaway server: its URL, and the keeper that removes it."""

    url: str
    folder: Path
    keeper: subprocess.Popen[bytes]

    def stop(self) -> None:
        """Stop the server and delete its folder (closing the keeper's input does it)."""
        if self.keeper.stdin is not None and not self.keeper.stdin.closed:
            self.keeper.stdin.close()
        try:
            self.keeper.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.keeper.terminate()
            self.keeper.wait(timeout=30)
        if self.keeper.stdout is not None:
            self.keeper.stdout.close()


def start() -> ThrowawayPostgres:
    """Start a throwaway server; raises :class:`PostgresUnavailable` (one line) if none
    can be made."""
    if find_bindir() is None:
        raise PostgresUnavailable(not_installed_message())
    keeper = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--keep"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        # out of the terminal's process group: Ctrl-C reaches pytest, which then ends
        # the keeper in order, and not the server in the middle of a test
        start_new_session=True,
    )
    assert keeper.stdout is not None
    ready, _, _ = select.select([keeper.stdout], [], [], START_SECONDS)
    line = keeper.stdout.readline() if ready else b""
    try:
        report: dict[str, Any] = json.loads(line)
    except ValueError:
        keeper.kill()
        keeper.wait()
        raise PostgresUnavailable(
            f"the throwaway PostgreSQL did not start within {START_SECONDS} s"
        ) from None
    if "error" in report:
        keeper.wait(timeout=60)
        raise PostgresUnavailable(str(report["error"]))
    return ThrowawayPostgres(url=report["url"], folder=Path(report["folder"]), keeper=keeper)


# -- the keeper ----------------------------------------------------------------------------


def _server_user() -> tuple[int, int] | None:
    """(uid, gid) to run the server as when we are root (it refuses root), else None."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            entry = pwd.getpwnam(name)
            return entry.pw_uid, entry.pw_gid
    raise PostgresUnavailable(
        "running as root, and there is no 'postgres' or 'nobody' user to run PostgreSQL as"
    )


def _temp_parent(user: tuple[int, int] | None) -> str | None:
    """Where to make the folder: the usual temporary folder, or /tmp when another user
    could not reach that one."""
    if user is None:
        return None
    base = Path(tempfile.gettempdir()).resolve()
    reachable = all(p.stat().st_mode & 0o001 for p in [base, *base.parents])
    return None if reachable else "/tmp"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class _Keeper:
    def __init__(self) -> None:
        bindir = find_bindir()
        if bindir is None:
            raise PostgresUnavailable(not_installed_message())
        self.bindir = bindir
        self.user = _server_user()
        self.folder = Path(tempfile.mkdtemp(prefix="patiencekit-pg-", dir=_temp_parent(self.user)))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.started = False

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        demote: dict[str, Any] = {}
        if self.user is not None:
            demote = {"user": self.user[0], "group": self.user[1], "extra_groups": []}
        proc = subprocess.run(
            [str(self.bindir / args[0]), *args[1:]],
            cwd=self.folder,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=False,
            timeout=START_SECONDS,
            **demote,
        )
        if check and proc.returncode != 0:
            raise PostgresUnavailable(
                f"{args[0]} failed (exit status {proc.returncode}): "
                + " ".join((proc.stderr or proc.stdout).split())[-600:]
            )
        return proc

    def start(self) -> str:
        if self.user is not None:
            os.chown(self.folder, *self.user)
        password = secrets.token_hex(16)
        pwfile = self.folder / "password"
        pwfile.write_text(password + "\n")
        pwfile.chmod(0o600)
        if self.user is not None:
            os.chown(pwfile, *self.user)
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", f"--pwfile={pwfile}",
            "--auth=scram-sha-256", "--encoding=UTF8", "--no-locale", "--no-sync",
        )  # fmt: skip
        pwfile.unlink()
        conf = {**SETTINGS, "unix_socket_directories": f"'{self.folder}'"}
        with (self.data / "postgresql.conf").open("a") as f:
            f.write("\n# the test suite's throwaway server\n")
            f.writelines(f"{k} = {v}\n" for k, v in conf.items())
        for attempt in range(5):
            port = _free_port()
            proc = self._run(
                "pg_ctl", "start", "-w", "-t", str(START_SECONDS), "-D", str(self.data),
                "-l", str(self.log), "-o", f"-p {port}", check=False,
            )  # fmt: skip
            if proc.returncode == 0:
                self.started = True
                return f"postgresql+psycopg://postgres:{password}@127.0.0.1:{port}/postgres"
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            if "could not bind" not in log or attempt == 4:
                tail = " | ".join(log.strip().splitlines()[-3:])
                raise PostgresUnavailable(f"the throwaway PostgreSQL did not start: {tail}")
        raise AssertionError("unreachable")

    def remove(self) -> None:
        if self.started:
            stopped = self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "fast", "-w",
                                "-t", "30", check=False)  # fmt: skip
            if stopped.returncode != 0:
                self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w",
                          "-t", "30", check=False)  # fmt: skip
            self.started = False
        shutil.rmtree(self.folder, ignore_errors=True)


def _report(out: IO[str], data: dict[str, str]) -> None:
    out.write(json.dumps(data) + "\n")
    out.flush()


def keep() -> int:
    """The keeper: start the server, report its URL, remove it when stdin closes (or on
    SIGTERM, SIGINT, SIGHUP)."""
    out = sys.stdout
    keeper: _Keeper | None = None

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(0)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, stop)
    try:
        keeper = _Keeper()
        url = keeper.start()
        _report(out, {"url": url, "folder": str(keeper.folder)})
        while sys.stdin.buffer.read(4096):  # until pytest closes it or exits
            pass
        return 0
    except PostgresUnavailable as e:
        _report(out, {"error": str(e)})
        return 1
    except Exception as e:  # one line for pytest, whatever went wrong
        _report(out, {"error": f"the throwaway PostgreSQL failed: {type(e).__name__}: {e}"})
        return 1
    finally:
        if keeper is not None:
            keeper.remove()


def main(argv: list[str]) -> int:
    if argv == ["--keep"]:
        return keep()
    if not argv or argv[0] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    try:
        server = start()
    except PostgresUnavailable as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        return subprocess.call(argv[1:], env={**os.environ, URL_ENV: server.url})
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
