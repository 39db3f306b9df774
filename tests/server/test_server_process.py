"""The real server in its own processes: kill it mid-game, start it again, nothing is lost.

Two server processes share one database (SQLite file or PostgreSQL): a play
made on one is played on the other, and the same move number sent to both at
once is stored once.
"""

from __future__ import annotations

import functools
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from parallel import at_once

SRC = Path(__file__).resolve().parents[2] / "src"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m patiencekit.server`` (what ``patiencekit serve`` runs) on a free port."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "patiencekit.server", "--port", str(self.port)],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"the server stopped: {self.log.read_text()}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1).json() == {"ok": True}:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        pytest.fail(f"the server did not start: {self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing, nothing."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)


@pytest.fixture
def servers(database_url: str, tmp_path: Path) -> Iterator[Any]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        "PATIENCEKIT_ENV": "test",
        "PATIENCEKIT_SECRET_KEY": "process-test-secret-0123456789",
        "PATIENCEKIT_DATA_DIR": str(tmp_path / "data"),
    }
    if database_url.startswith("postgresql"):
        env["PATIENCEKIT_DATABASE_URL"] = database_url
    else:
        env.pop("PATIENCEKIT_DATABASE_URL", None)  # the default: an SQLite file in the data dir
    started: list[Server] = []

    def start(**more_env: str) -> Server:
        server = Server({**env, **more_env}, tmp_path / f"server-{len(started)}.log").start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()


def _browser() -> httpx.Client:
    return httpx.Client(timeout=30)


def _csrf(client: httpx.Client, server: Server) -> dict[str, str]:
    return {"X-CSRF-Token": client.get(server.url + "/api/session").json()["csrf"]}


def _post(browser: httpx.Client, url: str, body: Any, headers: dict[str, str]) -> httpx.Response:
    """POST with a client of its own (the browser's cookies): one connection per request."""
    with httpx.Client(timeout=30, cookies=browser.cookies) as client:
        return client.post(url, json=body, headers=headers)


def _chunks() -> Iterator[bytes]:
    """A body of 40 KiB sent in chunks, without a Content-Length."""
    yield b'{"number": 1, "pad": "'
    for _ in range(40):
        yield b"x" * 1024
    yield b'"}'


def test_two_processes_one_database_then_kill_one_mid_game_and_resume(servers, tmp_path):
    """One test, so that the servers start only three times (starting one takes seconds)."""
    a, b = servers(), servers()
    browser = _browser()
    headers = _csrf(browser, a)
    r = browser.post(a.url + "/api/games/klondike/play", json={"number": 24}, headers=headers)
    assert r.status_code == 201, r.text
    play = r.json()
    # Made on a, read on b.
    assert browser.get(f"{b.url}/api/plays/{play['id']}").json()["piles"] == play["piles"]

    # The same move number sent to both processes at once is stored once.
    for n, move in enumerate(["c3 f", "s", "c4 c2"]):
        calls = [
            functools.partial(
                _post, browser, f"{server.url}/api/plays/{play['id']}/moves",
                {"move": move, "n": n}, headers,
            )
            for server in (a, b)
        ]  # fmt: skip
        answers = at_once(calls)
        assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
        refused = next(r for r in answers if r.status_code == 409)
        assert refused.json()["error"]["code"] == "conflict"
        play = next(r for r in answers if r.status_code == 200).json()
    assert play["n"] == 3

    # Oversized bodies, streamed (no Content-Length) or declared, change nothing.
    json_headers = {**headers, "content-type": "application/json"}
    path = f"{a.url}/api/plays/{play['id']}/moves"
    r = browser.post(path, content=_chunks(), headers=json_headers)
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    big = b'{"move": "s", "n": 3, "pad": "' + b"x" * 20000 + b'"}'
    r = browser.post(path, content=big, headers=json_headers)
    assert r.status_code == 413

    # More moves on a, each acknowledged; then a is killed mid-game.
    for move in ["s", "s", "s"]:
        r = browser.post(path, json={"move": move, "n": play["n"]}, headers=headers)
        assert r.status_code == 200, r.text
        play = r.json()
    assert play["n"] == 6 and not play["over"]
    a.kill()

    # Nothing acknowledged is lost: b sees it, and so does a started again.
    a2 = servers()
    for server in (b, a2):
        resumed = browser.get(f"{server.url}/api/plays/{play['id']}")
        assert resumed.status_code == 200, resumed.text
        for key in ("n", "piles", "legal_moves", "score", "last", "can_undo"):
            assert resumed.json()[key] == play[key], key
        assert resumed.json()["elapsed"] >= play["elapsed"]
    # And the game goes on.
    r = browser.post(
        f"{a2.url}/api/plays/{play['id']}/undo", json={"n": play["n"]}, headers=headers
    )
    assert r.status_code == 200 and r.json()["n"] == play["n"] - 1
    r = browser.post(
        f"{b.url}/api/plays/{play['id']}/redo", json={"n": play["n"] - 1}, headers=headers
    )
    assert r.status_code == 200 and r.json()["piles"] == play["piles"]


def test_forwarded_headers_are_believed_only_from_a_trusted_proxy(servers):
    """Behind a proxy (PATIENCEKIT_TRUSTED_PROXIES), the client's address and scheme are the
    forwarded ones: https cookies are Secure and the sign-in limit per address counts per
    real client."""
    https = {"X-Forwarded-Proto": "https"}
    three = {"PATIENCEKIT_SIGNIN_ADDRESS_FAILURES": "3"}
    plain = servers(**three)
    cookie = httpx.get(plain.url + "/api/session", headers=https).headers["set-cookie"]
    assert "secure" not in cookie.lower()  # not trusted: the socket says http

    proxied = servers(PATIENCEKIT_TRUSTED_PROXIES="127.0.0.1", **three)
    cookie = httpx.get(proxied.url + "/api/session", headers=https).headers["set-cookie"]
    assert "secure" in cookie.lower()

    def signin(server: Server, client_ip: str, name: str) -> int:
        with httpx.Client(timeout=30) as browser:
            headers = {**_csrf(browser, server), "X-Forwarded-For": client_ip}
            r = browser.post(
                server.url + "/api/auth/signin",
                json={"name": name, "password": "wrong password"},
                headers=headers,
            )
            return r.status_code

    # Three failures from one forwarded address (on three names) lock that address out, not
    # the proxy's other clients.
    assert [signin(proxied, "203.0.113.7", f"nobody{i}") for i in range(3)] == [401] * 3
    assert signin(proxied, "203.0.113.7", "nobody3") == 429
    assert signin(proxied, "198.51.100.2", "nobody3") == 401
    # Without trust, the header is ignored: every attempt is the socket's address.
    assert [signin(plain, f"203.0.113.{i}", f"nobody{i}") for i in range(3)] == [401] * 3
    assert signin(plain, "198.51.100.2", "nobody3") == 429
