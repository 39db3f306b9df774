"""The API's OpenAPI schema (``/api/openapi.json``) says what the server answers.

Every ``/api`` operation declares the schema of its 2xx answer and the error statuses it
can answer with, each with the error body ``{"error": {"code", "message"}}``
(``errors.ErrorBody``), never FastAPI's ``HTTPValidationError``, which the server does
not send. Real answers of the accounts, statistics and competition routes (a finished
tournament's included) fit the schema; real refused requests answer a status their
operation declares, with a body that fits ``ErrorBody``; every error code in the
server's source is one ``ErrorBody`` names. (``test_schemathesis.py`` checks generated
requests against the same schema.)
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from api_client import Api, app_openapi
from competition_helpers import add_player
from fastapi import FastAPI
from sqlalchemy import exc as sa_exc

from patiencekit.server.competition.standings import close_due_days
from patiencekit.server.errors import ERROR_CODES, ErrorBody

SERVER_SOURCE = Path(__file__).resolve().parents[2] / "src" / "patiencekit" / "server"
ERROR_REF = {"$ref": "#/components/schemas/ErrorBody"}
STATE_CHANGING = ("post", "put", "patch", "delete")
#: the operations that do not use the database (no 503)
NO_DATABASE = {"GET /api/health", "GET /api/games"}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return app_openapi()


def operations(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every ``/api`` operation: ``("METHOD /path", operation)``."""
    for path, item in schema["paths"].items():
        if path.startswith("/api/"):
            for method, operation in item.items():
                yield f"{method.upper()} {path}", operation


def _json_schema(response: dict[str, Any]) -> dict[str, Any] | None:
    schema: dict[str, Any] | None = (
        response.get("content", {}).get("application/json", {}).get("schema")
    )
    return schema


def test_the_schema_lists_every_api_route(schema: dict[str, Any]) -> None:
    labels = {label for label, _operation in operations(schema)}
    assert {
        "GET /api/health",
        "GET /api/session",
        "POST /api/auth/signup",
        "GET /api/stats/{name}",
        "GET /api/tournaments",
        "POST /api/plays/{play_id}/finish",
        "GET /api/players/{name}",
    } <= labels
    assert len(labels) >= 25


def test_every_operation_declares_the_schema_of_its_answer(schema: dict[str, Any]) -> None:
    undescribed = []
    for label, operation in operations(schema):
        answers = {s: r for s, r in operation["responses"].items() if s.startswith("2")}
        if not answers:
            undescribed.append(f"{label}: no 2xx answer")
        for status, response in answers.items():
            body = _json_schema(response) or {}
            described = {k: v for k, v in body.items() if k not in ("title", "description")}
            if not described:
                undescribed.append(f"{label} {status}: {body}")
    assert not undescribed, "answers without a schema:\n" + "\n".join(undescribed)


def test_every_error_status_has_the_error_body(schema: dict[str, Any]) -> None:
    wrong = [
        f"{label} {status}: {_json_schema(response)}"
        for label, operation in operations(schema)
        for status, response in operation["responses"].items()
        if status[0] in "45" and _json_schema(response) != ERROR_REF
    ]
    assert not wrong, "error answers without ErrorBody:\n" + "\n".join(wrong)
    components = schema["components"]["schemas"]
    assert "HTTPValidationError" not in components
    assert "ValidationError" not in components
    expected = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    assert components["ErrorDetail"] == expected.pop("$defs")["ErrorDetail"]
    assert components["ErrorBody"] == expected
    assert set(components["ErrorDetail"]["properties"]["code"]["enum"]) == ERROR_CODES


def test_the_refusals_before_any_route_are_declared(schema: dict[str, Any]) -> None:
    """The middleware's (CSRF 403, size 413), the body's (not JSON 400, fields 422) and
    the database's (503) refusals."""
    missing = []
    for label, operation in operations(schema):
        method = label.split()[0].lower()
        statuses = set(operation["responses"])
        needed = set()
        if method in STATE_CHANGING:
            needed |= {"403", "413"}
        if "requestBody" in operation:
            needed |= {"400", "422"}
        if label not in NO_DATABASE:
            needed.add("503")
        if needed - statuses:
            missing.append(f"{label}: {sorted(needed - statuses)}")
    assert not missing, "refusals not declared:\n" + "\n".join(missing)


def test_a_plain_text_path_parameter_declares_no_422(schema: dict[str, Any]) -> None:
    """FastAPI's default 422 goes where the field checks cannot refuse anything."""
    operation = schema["paths"]["/api/stats/{name}"]["get"]
    assert "422" not in operation["responses"]
    assert "404" in operation["responses"]


def _text(node: ast.expr) -> object:
    """The value of a constant, or of a sentence marked for the catalogues (``N_("...")``)."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "N_" and node.args:
        node = node.args[0]
    return node.value if isinstance(node, ast.Constant) else None


def _code_of(node: ast.AST, in_errors_module: bool) -> ast.expr | None:
    """The error code ``node`` writes, if it writes one: the code argument of
    ``ApiError(status, code, ...)``, ``error_body(code, ...)`` and
    ``_send_error(send, status, code, ...)``; in ``errors.py`` also the code of a
    ``(code, message)`` (``_HTTP_CODES``) and of a ``(status, code, message, headers)``
    (``unexpected_error``)."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        index = {"ApiError": 1, "error_body": 0, "_send_error": 2}.get(name)
        return node.args[index] if index is not None and len(node.args) > index else None
    if in_errors_module and isinstance(node, ast.Tuple):
        values = [_text(e) for e in node.elts]
        if len(values) == 2 and all(isinstance(v, str) for v in values):
            return node.elts[0]
        if len(values) == 4 and isinstance(values[0], int) and isinstance(values[1], str):
            return node.elts[1]
    return None


def _error_codes_in_source() -> dict[str, list[str]]:
    """Every error code written in the server's source -> where."""
    found: dict[str, list[str]] = {}
    for path in sorted(SERVER_SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            code = _code_of(node, path.name == "errors.py")
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                where = f"{path.relative_to(SERVER_SOURCE)}:{code.lineno}"
                found.setdefault(code.value, []).append(where)
    return found


def test_every_error_code_the_server_sends_is_declared() -> None:
    found = _error_codes_in_source()
    assert {"bad_request", "not_found", "rate_limited", "too_large", "unavailable"} <= set(found)
    assert {"internal", "unauthorized", "forbidden"} <= set(found)
    unknown = {code: where for code, where in found.items() if code not in ERROR_CODES}
    assert not unknown, f"codes missing from errors.ErrorCode: {unknown}"


# -- real answers ------------------------------------------------------------------------------


def _check(schema: dict[str, Any], label: str, r: Any) -> list[str]:
    """What is wrong with the answer ``r`` of the operation ``label``, by the schema."""
    method, path = label.split(" ", 1)
    responses = schema["paths"][path][method.lower()]["responses"]
    declared = responses.get(str(r.status_code))
    if declared is None:
        return [f"{label}: {r.status_code} is not declared: {r.text[:200]}"]
    body_schema = _json_schema(declared)
    if body_schema is None or r.headers["content-type"] != "application/json":
        return [f"{label} {r.status_code}: content type {r.headers['content-type']}"]
    root = {**body_schema, "components": schema["components"]}
    return [
        f"{label} {r.status_code} at {list(e.absolute_path)}: {e.message}"
        for e in jsonschema.Draft202012Validator(root).iter_errors(r.json())
    ]


@pytest.mark.no_periodic_task
def test_real_answers_fit_the_schema(app: FastAPI, make_api: Any, clock: Any) -> None:
    """The answers of the accounts, the statistics and the competition, from a finished
    tournament (its deals, places, replays and medals shown) to a guest's session."""
    schema = app.openapi()
    answers: list[tuple[str, Any]] = []
    guest = make_api()
    assert guest.get("/api/openapi.json").json() == schema
    answers.append(("GET /api/health", guest.get("/api/health")))
    answers.append(("GET /api/session", guest.get("/api/session")))
    answers.append(("POST /api/auth/signup", guest.signup("carol")))
    answers.append(("GET /api/session", guest.get("/api/session")))
    answers.append(("POST /api/auth/signout", guest.post("/api/auth/signout")))
    signin = guest.post("/api/auth/signin", {"name": "carol", "password": "correct horse"})
    answers.append(("POST /api/auth/signin", signin))
    casual = guest.new_play()
    assert guest.post(f"/api/plays/{casual['id']}/moves", {"move": "s", "n": 0}).status_code == 200
    answers.append(("GET /api/stats/{name}", guest.get("/api/stats/carol")))

    ann, bob = add_player(app, make_api, "ann"), add_player(app, make_api, "bob")
    made = ann.post("/api/tournaments", {"game": "klondike", "size": 2})
    answers.append(("POST /api/tournaments", made))
    tid = made.json()["id"]
    spare = ann.post("/api/tournaments", {"game": "klondike-draw1", "size": 3}).json()["id"]
    answers.append(("GET /api/tournaments", ann.get("/api/tournaments")))
    answers.append(
        ("POST /api/tournaments/{tournament_id}/join", bob.post(f"/api/tournaments/{tid}/join"))
    )
    answers.append(
        ("POST /api/tournaments/{tournament_id}/leave", ann.post(f"/api/tournaments/{spare}/leave"))
    )
    round_play = "POST /api/tournaments/{tournament_id}/rounds/{round_number}/play"
    finish = "POST /api/plays/{play_id}/finish"
    for rnd in (1, 2, 3):
        for player in (ann, bob):
            made = player.post(f"/api/tournaments/{tid}/rounds/{rnd}/play")
            again = player.post(f"/api/tournaments/{tid}/rounds/{rnd}/play")
            assert (made.status_code, again.status_code) == (201, 200), again.text
            clock.advance(5.0)
            ended = player.post(f"/api/plays/{made.json()['id']}/finish", {"n": 0})
            answers += [(round_play, made), (round_play, again), (finish, ended)]
        tournament = bob.get(f"/api/tournaments/{tid}")
        answers.append(("GET /api/tournaments/{tournament_id}", tournament))
    ranked = bob.new_play(ranked=True)
    clock.advance(3.0)
    answers.append((finish, bob.post(f"/api/plays/{ranked['id']}/finish", {"n": 0})))
    clock.advance(2 * 86_400.0)
    close_due_days(app.state.db, clock.now)
    replay = "GET /api/tournaments/{tournament_id}/replays/{name}/{round_number}"
    answers += [
        ("GET /api/tournaments/{tournament_id}", guest.get(f"/api/tournaments/{tid}")),
        ("GET /api/tournaments", guest.get("/api/tournaments?status=finished&game=klondike")),
        (replay, guest.get(f"/api/tournaments/{tid}/replays/ann/2")),
        (replay, guest.get(f"/api/tournaments/{tid}/replays/bob/3?step=0")),
        ("GET /api/top100/{game_id}", ann.get("/api/top100/klondike")),
        ("GET /api/top100/{game_id}", guest.get("/api/top100/klondike-draw1?player=bob")),
        ("GET /api/players/{name}", guest.get("/api/players/bob")),
        ("GET /api/players/{name}", guest.get("/api/players/carol")),
    ]
    statuses = [r.status_code for _label, r in answers]
    refused = [(label, r.text) for label, r in answers if r.status_code >= 300]
    assert not refused
    assert 201 in statuses and 200 in statuses
    assert guest.get("/api/players/bob").json()["medals"], "no medal to check"
    wrong = [problem for label, r in answers for problem in _check(schema, label, r)]
    assert not wrong, "answers that do not fit the schema:\n" + "\n".join(wrong)


# -- real refusals ----------------------------------------------------------------------------


def _sign_up(make_api: Callable[[], Api], name: str) -> Api:
    browser = make_api()
    r = browser.signup(name)
    assert r.status_code == 201, r.text
    return browser


def _refusals(make_api: Callable[[], Api]) -> list[tuple[str, str, int, Callable[[], Any]]]:
    """Requests the server refuses: (operation, what, the status expected, the request)."""
    guest = make_api()
    ann = _sign_up(make_api, "ann")
    bob = _sign_up(make_api, "bob")
    casual = ann.new_play()
    r = ann.post("/api/tournaments", {"game": "klondike", "size": 2})
    assert r.status_code == 201, r.text
    open_tournament = r.json()["id"]
    r = ann.post("/api/tournaments", {"game": "klondike", "size": 2})
    assert r.status_code == 201, r.text
    running = r.json()["id"]
    assert bob.post(f"/api/tournaments/{running}/join").status_code == 200
    huge = b'{"name": "' + b"x" * 20_000 + b'"}'
    signin = "POST /api/auth/signin"

    def failed_signins() -> Any:
        for _ in range(5):
            r = guest.post("/api/auth/signin", {"name": "ann", "password": "not the password"})
            assert r.status_code == 401, r.text
        return guest.post("/api/auth/signin", {"name": "ann", "password": "not the password"})

    return [
        ("POST /api/auth/signup", "no CSRF token", 403,
         lambda: guest.client.post("/api/auth/signup", json={"name": "x", "password": "y"})),
        ("POST /api/auth/signup", "not JSON", 400,
         lambda: guest.post("/api/auth/signup", content=b"{nope",
                            headers={"content-type": "application/json"})),
        ("POST /api/auth/signup", "a number for a name", 422,
         lambda: guest.post("/api/auth/signup", {"name": 7, "password": "correct horse"})),
        ("POST /api/auth/signup", "no password", 422,
         lambda: guest.post("/api/auth/signup", {"name": "carol"})),
        ("POST /api/auth/signup", "a short password", 400,
         lambda: guest.post("/api/auth/signup", {"name": "carol", "password": "short"})),
        ("POST /api/auth/signup", "a name taken", 409, lambda: guest.signup("ANN")),
        ("POST /api/auth/signup", "too large", 413,
         lambda: guest.post("/api/auth/signup", content=huge,
                            headers={"content-type": "application/json"})),
        (signin, "a wrong password", 401,
         lambda: guest.post("/api/auth/signin", {"name": "bob", "password": "wrong pass"})),
        (signin, "too many failures", 429, failed_signins),
        ("POST /api/auth/signout", "no CSRF token", 403,
         lambda: guest.client.post("/api/auth/signout")),
        ("GET /api/stats/{name}", "nobody", 404, lambda: guest.get("/api/stats/nobody")),
        ("GET /api/players/{name}", "nobody", 404, lambda: guest.get("/api/players/nobody")),
        ("GET /api/top100/{game_id}", "an unscored game", 404,
         lambda: guest.get("/api/top100/freecell")),
        ("GET /api/top100/{game_id}", "an unknown player", 404,
         lambda: guest.get("/api/top100/klondike?player=nobody")),
        ("GET /api/top100/{game_id}", "an empty player", 422,
         lambda: guest.get("/api/top100/klondike?player=")),
        ("GET /api/tournaments", "an unknown status", 422,
         lambda: guest.get("/api/tournaments?status=later")),
        ("GET /api/tournaments", "an unscored game", 404,
         lambda: guest.get("/api/tournaments?game=freecell")),
        ("POST /api/tournaments", "a guest", 401,
         lambda: guest.post("/api/tournaments", {"game": "klondike", "size": 2})),
        ("POST /api/tournaments", "too big", 422,
         lambda: ann.post("/api/tournaments", {"game": "klondike", "size": 11})),
        ("POST /api/tournaments", "an unscored game", 404,
         lambda: ann.post("/api/tournaments", {"game": "freecell", "size": 2})),
        ("GET /api/tournaments/{tournament_id}", "none", 404,
         lambda: guest.get("/api/tournaments/999999")),
        ("GET /api/tournaments/{tournament_id}", "id 0", 422,
         lambda: guest.get("/api/tournaments/0")),
        ("POST /api/tournaments/{tournament_id}/join", "joined already", 409,
         lambda: ann.post(f"/api/tournaments/{open_tournament}/join")),
        ("POST /api/tournaments/{tournament_id}/join", "a guest", 401,
         lambda: guest.post(f"/api/tournaments/{open_tournament}/join")),
        ("POST /api/tournaments/{tournament_id}/leave", "started", 409,
         lambda: ann.post(f"/api/tournaments/{running}/leave")),
        ("POST /api/tournaments/{tournament_id}/leave", "none", 404,
         lambda: ann.post("/api/tournaments/999999/leave")),
        ("POST /api/tournaments/{tournament_id}/rounds/{round_number}/play", "round 4", 404,
         lambda: ann.post(f"/api/tournaments/{running}/rounds/4/play")),
        ("POST /api/tournaments/{tournament_id}/rounds/{round_number}/play", "not started",
         409, lambda: ann.post(f"/api/tournaments/{open_tournament}/rounds/1/play")),
        ("POST /api/tournaments/{tournament_id}/rounds/{round_number}/play", "round 2 first",
         409, lambda: ann.post(f"/api/tournaments/{running}/rounds/2/play")),
        ("GET /api/tournaments/{tournament_id}/replays/{name}/{round_number}", "running", 403,
         lambda: guest.get(f"/api/tournaments/{running}/replays/ann/1")),
        ("GET /api/tournaments/{tournament_id}/replays/{name}/{round_number}", "step -1",
         422, lambda: guest.get(f"/api/tournaments/{running}/replays/ann/1?step=-1")),
        ("POST /api/plays/{play_id}/finish", "a casual play", 403,
         lambda: ann.post(f"/api/plays/{casual['id']}/finish", {"n": 0})),
        ("POST /api/plays/{play_id}/finish", "another's play", 403,
         lambda: bob.post(f"/api/plays/{casual['id']}/finish", {"n": 0})),
        ("POST /api/plays/{play_id}/finish", "no play", 404,
         lambda: ann.post(f"/api/plays/{'0' * 32}/finish", {"n": 0})),
        ("POST /api/plays/{play_id}/finish", "a score sent", 422,
         lambda: ann.post(f"/api/plays/{casual['id']}/finish", {"n": 0, "score": 9})),
        ("POST /api/games/{game_id}/play", "an unknown game", 404,
         lambda: guest.post("/api/games/nothing/play", {"number": 1})),
        ("POST /api/games/{game_id}/play", "a bad number", 400,
         lambda: guest.post("/api/games/klondike/play", {"number": -1})),
        ("POST /api/games/{game_id}/play", "a chosen ranked deal", 400,
         lambda: ann.post("/api/games/klondike/play", {"number": 1, "ranked": True})),
        ("POST /api/games/{game_id}/play", "a ranked guest", 401,
         lambda: guest.post("/api/games/klondike/play", {"ranked": True})),
        ("GET /api/plays/{play_id}", "another's play", 403,
         lambda: bob.get(f"/api/plays/{casual['id']}")),
        ("GET /api/plays/{play_id}", "no play", 404, lambda: bob.get(f"/api/plays/{'0' * 32}")),
        ("POST /api/plays/{play_id}/moves", "stale", 409,
         lambda: ann.post(f"/api/plays/{casual['id']}/moves", {"move": "s", "n": 5})),
        ("POST /api/plays/{play_id}/moves", "not a move", 400,
         lambda: ann.post(f"/api/plays/{casual['id']}/moves", {"move": "zz", "n": 0})),
        ("POST /api/plays/{play_id}/moves", "a text for n", 422,
         lambda: ann.post(f"/api/plays/{casual['id']}/moves", {"move": "s", "n": "0"})),
        ("POST /api/plays/{play_id}/foundation", "both pile and card", 422,
         lambda: ann.post(f"/api/plays/{casual['id']}/foundation",
                          {"pile": "c1", "card": "AH", "n": 0})),
        ("POST /api/plays/{play_id}/undo", "nothing to undo", 400,
         lambda: ann.post(f"/api/plays/{casual['id']}/undo", {"n": 0})),
        ("POST /api/plays/{play_id}/redo", "nothing to redo", 400,
         lambda: ann.post(f"/api/plays/{casual['id']}/redo", {"n": 0})),
        ("POST /api/plays/{play_id}/hint", "another's play", 403,
         lambda: bob.post(f"/api/plays/{casual['id']}/hint")),
        ("POST /api/plays/{play_id}/autocomplete", "nothing proves a win", 409,
         lambda: ann.post(f"/api/plays/{casual['id']}/autocomplete", {"n": 0})),
        ("POST /api/plays/{play_id}/autocomplete", "stale", 409,
         lambda: ann.post(f"/api/plays/{casual['id']}/autocomplete", {"n": 7})),
        ("POST /api/plays/{play_id}/autocomplete", "another's play", 403,
         lambda: bob.post(f"/api/plays/{casual['id']}/autocomplete", {"n": 0})),
    ]  # fmt: skip


@pytest.mark.no_periodic_task
def test_refused_requests_answer_a_declared_error(
    app: FastAPI, make_api: Callable[[], Api], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each refusal's status is one its operation declares, its body an ``ErrorBody``."""
    declared = {
        label: set(operation["responses"]) for label, operation in operations(app.openapi())
    }
    cases = _refusals(make_api)
    problems = []
    for label, what, status, send in cases:
        r = send()
        where = f"{label} ({what})"
        if r.status_code != status:
            problems.append(f"{where}: {r.status_code} {r.text[:200]}, not {status}")
            continue
        if r.headers["content-type"] != "application/json":
            problems.append(f"{where}: content type {r.headers['content-type']}")
        try:
            ErrorBody.model_validate(r.json())
        except ValueError as e:
            problems.append(f"{where}: the body {r.text[:200]} is no ErrorBody: {e}")
        if str(status) not in declared.get(label, set()):
            problems.append(
                f"{where}: {status} is not declared ({sorted(declared.get(label, []))})"
            )

    # The database unusable: 503 (here the pool has no connection to give).
    def unusable(*_args: Any, **_kwargs: Any) -> Any:
        raise sa_exc.TimeoutError("QueuePool limit reached")

    monkeypatch.setattr(app.state.db, "read", unusable)
    r = make_api().get("/api/stats/ann")
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"].isdigit()
    ErrorBody.model_validate(r.json())
    assert "503" in declared["GET /api/stats/{name}"]
    assert not problems, f"{len(problems)} of {len(cases)} refusals:\n" + "\n".join(problems)
