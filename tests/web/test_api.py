"""The JSON API, in process: the same results as `donjon score --json`, saves that happen once, and its guards."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from generator.cli import app as cli
from generator.web.app import create_app
from generator.web.db import Database
from generator.web.games import Games
from tests.web.conftest import EXAMPLES, example, post_json

GAMES = ["guildhall", "once-upon-a-castle", "guedelon"]


def cli_json(path: Path) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["score", "--json", str(path)])
    data: dict[str, object] = json.loads(result.stdout.splitlines()[0])
    data.pop("file", None)
    data.setdefault("warnings", [])
    return data


@pytest.mark.parametrize("name", GAMES)
def test_score_answers_what_donjon_score_json_prints(client: TestClient, name: str) -> None:
    response = post_json(client, "/api/score", example(name))
    assert response.status_code == 200
    assert response.json() == cli_json(EXAMPLES / f"{name}.yaml")


@pytest.mark.parametrize("first, other, ended_by", [
    ("Zo\u200bë", "Ben", "zoë"),  # a zero-width space pasted in the name; ended_by typed without it, lower-case
    ("  Ana   Maria ", "Ben", "ana maria"),  # spaces around and inside
    ("Zoe\u0308", "Ben", "Zoë"),  # a combining diaeresis against a precomposed one
    ("Ana", "ÁNA", "Ana"),  # one player by the key: refused as twice the same name, by both
])
def test_score_compares_names_as_donjon_score_does(client: TestClient, tmp_path: Path, first: str, other: str,
                                                     ended_by: str) -> None:
    """Player names go through the one key the scorer compares them by (`fields.player_key`, through
    `scoring.formats.name_key`): the API scores them through the same engine, so it answers what the command line
    prints, names kept as sent."""
    state = example("guildhall")
    state["players"][0]["name"], state["players"][1]["name"], state["ended_by"] = first, other, ended_by
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    answer = post_json(client, "/api/score", state)
    assert answer.status_code == 200
    assert answer.json() == cli_json(path)
    assert answer.json()["valid"] is (other == "Ben")


def test_a_broken_rule_is_a_result_with_violations_and_an_unreadable_state_is_422(client: TestClient) -> None:
    broken = example("guildhall")
    broken["players"][0]["guildhall"]["hunter"] = ["red", "red"]
    answer = post_json(client, "/api/score", broken)
    assert answer.status_code == 200
    assert answer.json()["valid"] is False
    assert any(v["where"].startswith("players[0].guildhall.hunter") for v in answer.json()["violations"])
    unreadable = example("guildhall")
    unreadable["players"][1]["vp_tokens"] = "lots"
    answer = post_json(client, "/api/score", unreadable)
    assert answer.status_code == 422
    assert answer.json()["problems"][0]["where"] == "players[1].vp_tokens"
    assert "lots" in answer.json()["error"]


def test_a_save_with_an_idempotency_key_is_stored_once(client: TestClient) -> None:
    first = post_json(client, "/api/games", example("guildhall"), **{"Idempotency-Key": "tap-1"})
    again = post_json(client, "/api/games", example("guildhall"), **{"Idempotency-Key": "tap-1"})
    other = post_json(client, "/api/games", example("once-upon-a-castle"))
    assert (first.status_code, again.status_code, other.status_code) == (201, 200, 201)
    assert first.json()["id"] == again.json()["id"] != other.json()["id"]
    listed = client.get("/api/games").json()
    assert [g["id"] for g in listed] == [other.json()["id"], first.json()["id"]]  # newest first
    one = client.get(f"/api/games/{first.json()['id']}").json()
    assert one["result"]["winner"] == "Ana" and one["end_state"]["vp_set"] == "job-faire"
    assert client.get("/api/games/999").status_code == 404
    players = {p["name"]: p for p in client.get("/api/players").json()}
    assert players["Ana"]["games"] == 2 and players["Ana"]["wins"] == 2
    assert players["Ben"]["games"] == 2 and players["Ben"]["wins"] == 0


def test_only_a_valid_finished_game_is_saved(client: TestClient) -> None:
    unfinished = example("guildhall")
    unfinished["ended_by"] = None
    for player in unfinished["players"]:
        player["vp_cards"] = [2]
    answer = post_json(client, "/api/games", unfinished)
    assert answer.status_code == 422 and answer.json()["result"]["finished"] is False
    assert client.get("/api/games").json() == []


def test_a_cooperative_team_is_saved_with_its_names(client: TestClient) -> None:
    answer = post_json(client, "/api/games", {"end_state": example("guedelon"), "team": ["Ana", "Ben", "Cleo"],
                                              "played_at": "2026-01-02 20:30:00"})
    assert answer.status_code == 201
    game = answer.json()
    assert game["played_at"] == "2026-01-02 20:30:00"
    assert [(p["name"], p["winner"]) for p in game["players"]] == [("Ana", True), ("Ben", True), ("Cleo", True)]
    bad = post_json(client, "/api/games", {"end_state": example("guedelon"), "played_at": "yesterday"})
    assert bad.status_code == 400


def test_twenty_saves_at_once_all_succeed_and_are_all_there(client: TestClient) -> None:
    def save(n: int) -> int:
        body = example("guildhall")
        body["players"][0]["name"] = f"Ana{n}"
        body["ended_by"] = f"Ana{n}"
        response = post_json(client, "/api/games", body, **{"Idempotency-Key": f"k{n}"})
        return int(response.status_code)

    with ThreadPoolExecutor(20) as pool:
        codes = list(pool.map(save, range(20)))
    assert codes == [201] * 20
    stored = sorted(g["players"][0]["name"] for g in client.get("/api/games").json())
    assert stored == sorted(f"Ana{n}" for n in range(20))


@pytest.mark.parametrize(("body", "headers", "status"), [
    (b"{" + b" " * 300_000 + b"}", {"content-type": "application/json"}, 413),
    (b'{"game": "guildhall"}', {"content-type": "text/plain"}, 415),
    (b'{"game": "guildhall", "game": "guedelon"}', {"content-type": "application/json"}, 400),
    (b"[1, 2]", {"content-type": "application/json"}, 400),
    (b"not json", {"content-type": "application/json"}, 400),
])
def test_bad_bodies_are_refused_with_a_clear_status(client: TestClient, body: bytes, headers: dict[str, str],
                                                    status: int) -> None:
    response = client.post("/api/score", content=body, headers=headers)
    assert response.status_code == status
    assert response.text


@pytest.mark.parametrize("headers", [{"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"},
                                     {"origin": "http://evil.example"}, {"origin": "null"}])
def test_requests_from_another_site_cannot_change_anything(client: TestClient, headers: dict[str, str]) -> None:
    answer = post_json(client, "/api/games", example("guildhall"), **headers)
    assert answer.status_code == 403
    form = client.post("/tables", data={"game": "guildhall", "name": ["A", "B"]}, headers=headers)
    assert form.status_code == 403
    assert client.get("/api/games").json() == []


def test_without_lan_only_loopback_host_names_are_answered(client: TestClient) -> None:
    assert client.get("/", headers={"host": "attacker.example"}).status_code == 400
    assert client.get("/", headers={"host": "localhost:8765"}).status_code == 200


def test_with_a_token_every_request_needs_it(db: Database, games: Games) -> None:
    with TestClient(create_app(db, games, token="s3cret"), base_url="http://192.168.1.5:8765",
                    follow_redirects=False) as client:
        for url in ("/", "/history", "/history/players", "/tables/1", "/api/games"):
            assert client.get(url).status_code == 401, url
        refused = client.get("/history", headers={"accept": "text/html"})
        assert "This phone is not let in" in refused.text and 'href="/static/app.css"' in refused.text
        # what the page saying so needs, and only what donjon ships, comes without the token
        assert client.get("/static/app.css").status_code == 200
        assert client.get("/favicon.ico").status_code == 200
        # the web app manifest too: a browser asks for it without cookies ("Add to Home screen")
        assert client.get("/manifest.webmanifest").status_code == 200
        assert client.post("/static/app.css").status_code == 401
        assert client.get("/api/games", headers={"authorization": "Bearer nope"}).status_code == 401
        assert client.get("/api/games", headers={"authorization": "Bearer s3cret"}).status_code == 200
        assert post_json(client, "/api/score", example("guedelon"),
                         authorization="Bearer s3cret").status_code == 200
        entry = client.get("/tables?x=1&token=s3cret".replace("/tables", "/"))
        assert entry.status_code == 303 and entry.headers["location"] == "/?x=1"
        assert "HttpOnly" in entry.headers["set-cookie"]
        # the test client keeps the cookie, as a phone's browser does
        assert client.get("/").status_code == 200
        client.cookies.clear()
        assert client.get("/?token=wrong").status_code == 401


def test_a_games_qr_code_is_drawn_once_for_every_view(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game page shows its BG Stats link as a QR code on every view; drawing one holds the event loop (other
    phones' taps wait) for 0.04-0.3 s, so it is drawn once and the views after show the same code."""
    import segno

    from generator.web import app as web_app

    drawn: list[str] = []
    real = segno.make

    def counted(content: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(content)
        return real(content, *args, **kwargs)

    monkeypatch.setattr(segno, "make", counted)
    getattr(web_app.qr_svg, "cache_clear", lambda: None)()  # (codes other tests drew are not this test's)
    saved = post_json(client, "/api/games", {"end_state": example("guildhall"), "played_at": "2026-03-01 21:05:00"})
    pages = [client.get(f"/history/games/{saved.json()['id']}") for _ in range(3)]
    assert all(page.status_code == 200 for page in pages) and pages[0].text == pages[2].text
    links = [content for content in drawn if "bgstats" in content]
    assert len(links) == 1, drawn


def test_the_bg_stats_link_carries_the_play_as_bg_stats_documents_it(client: TestClient) -> None:
    from urllib.parse import unquote

    from generator.registry import find_game, games
    from generator.web.share import BG_STATS, bg_stats_link, source_player_id

    names = {g.id: g.name for g in games()}

    saved = post_json(client, "/api/games", {"end_state": example("guildhall"), "played_at": "2026-03-01 21:05:00"})
    link = bg_stats_link({**saved.json(), "duration_min": 42}, names, find_game("guildhall").table_hints(),
                         "the club")
    assert link.startswith(BG_STATS) and " " not in link
    data = json.loads(unquote(link[len(BG_STATS):]))
    assert data["sourceName"] == "donjon" and data["sourcePlayId"] == saved.json()["uid"]
    assert data["playDate"] == "2026-03-01 21:05:00"
    assert data["game"] == {"name": "Guildhall", "highestWins": True, "noPoints": False, "sourceGameId": "guildhall",
                            "bggId": 132372}
    assert data["players"][0] == {"name": "Ana", "score": 21, "winner": True, "rank": 1, "startPlayer": True,
                                  "sourcePlayerId": source_player_id("Ana"), "role": ""}
    assert [p["startPlayer"] for p in data["players"]] == [True, False, False]
    # the same player is the same id in every game, whatever the case or accents typed
    assert source_player_id("Ana") == source_player_id(" ána ") != source_player_id("Ben")
    assert data["durationMin"] == 42 and data["location"] == "the club" and data["board"] == "Job Faire, Job Faire"
    assert data["comments"].splitlines()[0].startswith("Ana: VP cards bought 19")
    team = post_json(client, "/api/games", {"end_state": example("guedelon"), "team": ["Ana", "Ben"]}).json()
    coop = json.loads(unquote(bg_stats_link(team, names, find_game("guedelon").table_hints())[len(BG_STATS):]))
    assert "bggId" not in coop["game"] and coop["game"]["highestWins"] is False
    assert [p["name"] for p in coop["players"]] == ["Ana", "Ben"] and all(p["winner"] for p in coop["players"])
    assert coop["game"]["noPoints"] is True and all("score" not in p for p in coop["players"])
    assert coop["comments"].startswith("Won in ") and "location" not in coop and "durationMin" not in coop


def test_the_guards_answer_a_phone_in_its_language(db: Database, games: Games) -> None:
    """What the guards answer before the application (a body too large, a change from another site, a phone
    without the `--lan` token) is a page in the phone's language (its switch's cookie, else Accept-Language) for a
    browser, and the English text for a script."""
    big = {"name": ["A" * 300_000]}
    with TestClient(create_app(db, games), base_url="http://127.0.0.1") as client:
        page = client.post("/tables", data=big, headers={"accept": "text/html", "accept-language": "fr-FR"})
        assert page.status_code == 413 and '<html lang="fr">' in page.text
        assert "Le compagnon n’a pas pu prendre ceci" in page.text and "KiB" not in page.text
        script = client.post("/tables", data=big)
        assert script.status_code == 413 and script.text.startswith("the request body is larger than")
        client.cookies.set("donjon-lang", "de")
        other = client.post("/tables", data={"game": "guildhall"}, headers={
            "accept": "text/html", "accept-language": "fr", "sec-fetch-site": "cross-site"})
        assert other.status_code == 403 and '<html lang="de">' in other.text and "nichts geändert" in other.text
    with TestClient(create_app(db, games, token="s3cret"), base_url="http://192.168.1.5:8765") as client:
        for code, words in (("de", "Dieses Handy ist nicht zugelassen"), ("fr", "Ce téléphone n’est pas admis"),
                            ("en", "This phone is not let in")):
            refused = client.get("/", headers={"accept": "text/html", "accept-language": code})
            assert refused.status_code == 401 and f'<html lang="{code}">' in refused.text and words in refused.text
            assert "<code>donjon serve --lan</code>" in refused.text


def test_the_web_app_manifest_names_the_app_in_the_phones_language(client: TestClient) -> None:
    """"Add to Home screen" on a French or German phone named and described the app in English: the manifest, asked
    for without cookies, is in the language of the phone's Accept-Language, and says which it is."""
    said = {code: client.get("/manifest.webmanifest", headers={"accept-language": code}).json()
            for code in ("en", "fr", "de")}
    assert said["en"]["name"] == "donjon table companion" and said["en"]["lang"] == "en"
    for code in ("fr", "de"):
        assert said[code]["lang"] == code and said[code]["short_name"] == "donjon"
        assert said[code]["name"] != said["en"]["name"] and said[code]["description"] != said["en"]["description"]
        assert said[code]["icons"] == said["en"]["icons"]


def test_an_address_the_companion_has_not_is_said_in_the_phones_language(client: TestClient) -> None:
    """An address with no page, or one only a form sends to opened again (a reload, a bookmark), showed the router's
    own "Not Found" and "Method Not Allowed", in English on a German phone. Said in the phone's words now (the
    JSON API's too, beside its code: test_api_languages.py)."""
    german = {"accept-language": "de"}
    for url, status in (("/nope", 404), ("/tables/1/save", 405), ("/history/games/1/delete", 405)):
        page = client.get(url, headers=german)
        assert page.status_code == status and 'lang="de"' in page.text, url
        said = re.search(r'<p class="violation"[^>]*>([^<]*)<', page.text)
        assert said and said.group(1) not in ("Not Found", "Method Not Allowed") and "Adresse" in said.group(1), url
    assert client.get("/api/nope", headers=german).status_code == 404


def test_the_bg_stats_link_of_a_game_page_says_its_comments_in_the_phones_language(client: TestClient) -> None:
    """The play BG Stats adds from a game's page carries comments its players read in the app: they were English
    on a French or German phone ("Won in 17 rounds", the breakdown's English labels). They are in the page's
    language; the game's name and ids stay, so that the app keeps one game whatever phone sent it."""
    import html
    import re
    from urllib.parse import unquote

    from generator.web.share import BG_STATS

    team = post_json(client, "/api/games", {"end_state": example("guedelon"), "team": ["Ana", "Ben"]}).json()

    def play(code: str) -> dict[str, Any]:
        page = client.get(f"/history/games/{team['id']}", headers={"accept-language": code}).text
        link = re.search(r'href="(' + re.escape(BG_STATS) + r'[^"]*)"', page)
        assert link, "no BG Stats link"
        found: dict[str, Any] = json.loads(unquote(html.unescape(link.group(1))[len(BG_STATS):]))
        return found

    said = {code: play(code) for code in ("en", "fr", "de")}
    assert said["en"]["comments"].startswith("Won in 17 rounds")
    assert said["fr"]["comments"].startswith("Gagné en 17 tours") and "Rounds" not in said["fr"]["comments"]
    assert said["de"]["comments"].startswith("Gewonnen in 17 Runden")
    assert said["fr"]["game"] == said["de"]["game"] == said["en"]["game"]
