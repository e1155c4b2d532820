"""The JSON API's refusals in the language of whoever asks (the phone's switch, else its Accept-Language; a script
naming none reads English), each with a `code` (and a `field`, when it is about one key of the body) that stays the
same in every language. The words expected are the catalog's translation of the message, not a copied sentence."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from generator.i18n import language
from generator.sayings import filled
from generator.web import messages
from generator.web.app import create_app
from generator.web.db import Database
from generator.web.games import Games
from generator.web.languages import COOKIE
from tests.web.conftest import SAME_ORIGIN, example, new_table

LANGUAGES = ("en", "fr", "de")


def said(code: str, message: str, **values: Any) -> str:
    """`message` as the catalog of `code` says it, and checked to be translated there (else the test proves
    nothing about the language)."""
    lang = language(code)
    if code != "en":
        assert lang._(message) != message, f"{message!r} is not translated in {code}"
    return filled(lang._(message), messages.figures(values, lang), lang)  # a `{key!r}` quoted as `code` quotes


def send(client: TestClient, method: str, url: str, body: bytes | str, code: str, **headers: str) -> Any:
    asked = {"content-type": "application/json", "accept-language": code, **headers}
    return client.request(method, url, content=body, headers=asked)


def unfinished() -> dict[str, Any]:
    state = example("guildhall")
    state["ended_by"] = None
    for player in state["players"]:
        player["vp_cards"] = [2]
    return state


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_refusal_of_the_api_is_said_in_the_language_asked_with_a_code_that_does_not_change(
        client: TestClient, code: str) -> None:
    cases: list[tuple[Any, int, str, str]] = [
        (send(client, "POST", "/api/score", '{"a": 1, "a": 2}', code), 400, "duplicate_key",
         said(code, messages.NOT_JSON, error=said(code, messages.KEY_TWICE, key="a"))),
        (send(client, "POST", "/api/score", "[]", code), 400, "not_object", said(code, messages.NOT_OBJECT)),
        (send(client, "POST", "/api/score", '{"a": "\\ud800"}', code), 400, "not_unicode",
         said(code, messages.SURROGATE)),
        (send(client, "GET", "/api/games/99", "", code), 404, "no_game", said(code, messages.NO_GAME, game=99)),
        (send(client, "PATCH", "/api/games/99", "{}", code), 404, "no_game", said(code, messages.NO_GAME, game=99)),
        (send(client, "POST", "/api/games", json.dumps(unfinished()), code), 422, "not_finished",
         said(code, messages.ONLY_FINISHED)),
        (send(client, "POST", "/api/games", json.dumps(example("guildhall")), code, **{"idempotency-key": "k" * 201}),
         400, "key_length", said(code, messages.KEY_LENGTH)),
        (send(client, "POST", "/api/score", "{}", code, **{"content-type": "text/plain"}), 415, "json_only",
         said(code, messages.JSON_ONLY)),
        (send(client, "GET", "/api/nothing", "", code), 404, "no_such_address",
         said(code, messages.NO_API_ADDRESS, path="/api/nothing")),
        (send(client, "PUT", "/api/score", "{}", code), 405, "method_not_allowed",
         said(code, messages.API_METHOD, path="/api/score", method="PUT")),
        # the guards, before the application: JSON too, as every answer of the API
        (send(client, "POST", "/api/score", '{"a": "' + "x" * 300_000 + '"}', code), 413, "too_big",
         said(code, messages.TOO_BIG, most=messages.Figure(0.25))),
        (send(client, "POST", "/api/score", "{}", code, **{"sec-fetch-site": "cross-site"}), 403, "other_site",
         said(code, messages.OTHER_SITE)),
    ]
    # the key named twice quoted as the language quotes a value (it was 'a' in a French or German sentence)
    assert cases[0][3].endswith({"en": "'a' appears twice", "fr": "«\u202fa\u202f» figure deux fois",
                                 "de": "„a“ steht zweimal da"}[code]), cases[0][3]
    for answer, status, kind, words in cases:
        assert answer.status_code == status and answer.headers["content-type"] == "application/json", answer.text
        assert answer.json() == {"error": words, "code": kind} | ({"result": answer.json().get("result")}
                                                                  if kind == "not_finished" else {}), answer.text
    first = send(client, "POST", "/api/games", json.dumps(example("guildhall")), code, **{"idempotency-key": "k"})
    reused = send(client, "POST", "/api/games", json.dumps(example("guedelon")), code, **{"idempotency-key": "k"})
    assert first.status_code == 201 and reused.status_code == 409
    assert reused.json() == {"error": said(code, messages.KEY_REUSED, key="k", game=first.json()["id"]),
                             "code": "key_reused"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_save_refused_for_one_key_names_it_as_field(client: TestClient, code: str) -> None:
    team = send(client, "POST", "/api/games", json.dumps({"end_state": example("guedelon"), "team": "Ana"}), code)
    assert team.status_code == 400 and team.json() == {
        "error": said(code, messages.TEAM_NAMES, most_team=8), "code": "envelope", "field": "team"}
    when = send(client, "POST", "/api/games", json.dumps({"end_state": example("guedelon"), "played_at": "soon"}),
                code)
    assert when.status_code == 400 and when.json() == {
        "error": said(code, messages.PLAYED_AT), "code": "envelope", "field": "played_at"}


def test_the_switchs_choice_beats_accept_language_and_a_script_reads_english(client: TestClient) -> None:
    assert send(client, "GET", "/api/games/7", "", "").json() == {"error": "there is no saved game 7",
                                                                   "code": "no_game"}
    client.cookies.set(COOKIE, "de")
    assert send(client, "GET", "/api/games/7", "", "fr").json()["error"] == said("de", messages.NO_GAME, game=7)


def test_the_page_scripts_refusal_before_the_application_is_in_the_phones_language(client: TestClient) -> None:
    """A tap too large for the companion (the page's script, which reads the answer's text) is refused in the
    phone's words, as the page a browser shows is."""
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    big = {"seat": "0", "op": "set", "path": "players[0].name", "value": "A" * 300_000}
    for code in LANGUAGES:
        answer = client.post(f"/tables/{table.id}/edit", data=big,
                             headers={**SAME_ORIGIN, "accept": "*/*", "accept-language": code})
        assert answer.status_code == 413 and answer.text == said(code, messages.TOO_BIG,
                                                                 most=messages.Figure(0.25))


def test_the_api_without_the_lan_token_is_refused_in_json_in_the_language_asked(db: Database, games: Games) -> None:
    with TestClient(create_app(db, games, token="s3cret"), base_url="http://192.168.1.5:8765") as client:
        for code in LANGUAGES:
            refused = client.get("/api/games", headers={"accept-language": code})
            assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
            assert refused.json() == {"error": said(code, messages.NEEDS_TOKEN), "code": "token"}


@pytest.mark.parametrize("code", ("en", "fr"))
def test_a_correction_made_from_an_older_version_is_refused_not_written_over_the_newer(client: TestClient,
                                                                                        code: str) -> None:
    """Two phones (or scripts) correct one game from the same version: the first is kept, the second, sent with the
    version it was made from, is refused in words (409, `game_changed`) instead of silently undoing the first."""
    game = send(client, "POST", "/api/games", json.dumps(example("guildhall")), code).json()
    url = f"/api/games/{game['id']}"
    first, second = example("guildhall"), example("guildhall")
    first["players"][0]["vp_tokens"] += 1
    second["players"][1]["vp_tokens"] += 2
    kept = send(client, "PATCH", url, json.dumps({"end_state": first, "version": 1}), code)
    assert kept.status_code == 200 and [v["number"] for v in kept.json()["versions"]] == [1, 2]
    late = send(client, "PATCH", url, json.dumps({"end_state": second, "version": 1}), code)
    assert late.status_code == 409 and late.json() == {
        "error": said(code, messages.API_GAME_CHANGED, game=game["id"], version=1, now=2), "code": "game_changed",
        "field": "version"}
    now = client.get(url).json()
    assert now["end_state"] == first and len(now["versions"]) == 2
    wrong = send(client, "PATCH", url, json.dumps({"end_state": second, "version": "1"}), code)
    assert wrong.status_code == 400 and wrong.json() == {
        "error": said(code, messages.VERSION_NUMBER), "code": "envelope", "field": "version"}
    assert send(client, "PATCH", url, json.dumps({"end_state": second, "version": 2}), code).status_code == 200


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("url", ["/api/score", "/api/games"])
def test_a_state_that_cannot_be_read_is_said_in_the_language_asked(client: TestClient, games: Games, code: str,
                                                                  url: str) -> None:
    """The format's words of an unreadable state (422 `unreadable`) in the request's language, as `donjon score` in
    that language says them, each problem with its field; a state that is read keeps the scorer's English."""
    state = example("guildhall")
    state["players"][0]["vp_tokens"] = "many"
    answer = send(client, "POST", url, json.dumps(state), code)
    english, asked = games.score(state), games.score(state, language(code))
    problem = {"where": "players[0].vp_tokens", "message": asked.problems[0]["message"]}
    assert asked.problems == [problem]
    if code != "en":  # else the test proves nothing about the language
        assert problem["message"] != english.problems[0]["message"], problem
    assert answer.status_code == 422 and answer.json() == {"error": asked.error, "code": "unreadable",
                                                           "problems": [problem]}, answer.text
