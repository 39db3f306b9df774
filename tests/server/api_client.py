"""The test's browser for the API (``Api``), a module of its own so that tests can import it
(``from api_client import Api``) whatever order pytest loads the conftest files in."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


class Api:
    """A browser talking to the API: keeps its cookies and repeats the CSRF token."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.csrf: str | None = None

    def session(self) -> dict[str, Any]:
        r = self.client.get("/api/session")
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        self.csrf = body["csrf"]
        return body

    def headers(self) -> dict[str, str]:
        if self.csrf is None:
            self.session()
        assert self.csrf is not None
        return {"X-CSRF-Token": self.csrf}

    def get(self, path: str) -> Any:
        return self.client.get(path)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        headers = {**self.headers(), **kwargs.pop("headers", {})}
        if body is None and "content" not in kwargs:
            return self.client.post(path, headers=headers, **kwargs)
        if "content" in kwargs:
            return self.client.post(path, headers=headers, **kwargs)
        return self.client.post(path, json=body, headers=headers, **kwargs)

    def new_play(
        self, game: str = "klondike", number: int | None = 24, ranked: bool = False
    ) -> dict[str, Any]:
        """A new play of deal ``number``; a ranked one is drawn by the server, so its draw
        is pinned to ``number`` for the request (tests/server/ranked_helpers.py)."""
        if ranked:
            from ranked_helpers import ranked_play

            ranked_answer: dict[str, Any] = ranked_play(self, game, number or 0)
            return ranked_answer
        r = self.post(f"/api/games/{game}/play", {"number": number, "ranked": ranked})
        assert r.status_code == 201, r.text
        play: dict[str, Any] = r.json()
        return play

    def move(self, play: dict[str, Any], move: str) -> Any:
        return self.post(f"/api/plays/{play['id']}/moves", {"move": move, "n": play["n"]})

    def play_ok(self, play: dict[str, Any], move: str) -> dict[str, Any]:
        r = self.move(play, move)
        assert r.status_code == 200, r.text
        result: dict[str, Any] = r.json()
        return result

    def signup(self, name: str, password: str = "correct horse") -> Any:
        return self.post("/api/auth/signup", {"name": name, "password": password})


def app_openapi() -> dict[str, Any]:
    """The app's OpenAPI schema (it depends only on the routes: an app on a throwaway SQLite
    file makes it)."""
    import tempfile
    from pathlib import Path

    from patiencekit.server.app import create_app
    from patiencekit.server.config import Settings

    with tempfile.TemporaryDirectory(prefix="pk-openapi-") as folder:
        app = create_app(
            Settings(
                env="test",
                secret_key="schema-only-key-0123456789abcdef",
                data_dir=Path(folder),
                database_url=f"sqlite:///{folder}/schema.sqlite3",
            )
        )
        try:
            return app.openapi()
        finally:
            app.state.db.dispose()
