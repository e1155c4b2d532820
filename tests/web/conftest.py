"""Fixtures of the companion's tests: the app in process (Starlette's httpx test client) over a fresh database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from generator.web.app import create_app
from generator.web.db import Database
from generator.web.games import Games

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "content" / "examples"
#: every request of a page carries this, as a browser's own page does (the SameOrigin guard reads it)
SAME_ORIGIN = {"sec-fetch-site": "same-origin"}


@pytest.fixture(scope="session")
def games() -> Games:
    return Games()


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(tmp_path / "donjon.sqlite3")
    yield database
    database.close()


@pytest.fixture
def client(db: Database, games: Games) -> Iterator[TestClient]:
    with TestClient(create_app(db, games), base_url="http://127.0.0.1", follow_redirects=False) as test_client:
        yield test_client


def example(name: str) -> dict[str, Any]:
    """A shipped example end state as the JSON the API takes."""
    import yaml

    data: dict[str, Any] = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8"))
    return data


def post_json(client: TestClient, url: str, body: Any, **headers: str) -> Any:
    return client.post(url, content=json.dumps(body), headers={"content-type": "application/json", **headers})


class GameTable:
    """Drives a table through the same requests the page's controls send."""

    def __init__(self, client: TestClient, table_id: int) -> None:
        self.client = client
        self.id = table_id

    def edit(self, op: str, path: str, value: Any = "", seat: int | None = None, key: str | None = None,
             on: bool | None = None) -> str:
        """An edit as the page sends it; refused (400 a malformed path, 422 a value or a change the table cannot
        take), its answer still holds the pieces that say why."""
        data = {"seat": "" if seat is None else str(seat), "shown": "" if seat is None else str(seat), "op": op,
                "path": path, "value": str(value)}
        if key is not None:
            data["key"] = key
        if on is not None:
            data["on"] = "true" if on else "false"
        response = self.client.post(f"/tables/{self.id}/edit", headers=SAME_ORIGIN, data=data)
        assert response.status_code in (200, 400, 422), response.text
        return str(response.text)

    def page(self, seat: int | None = None) -> str:
        url = f"/tables/{self.id}" + ("" if seat is None else f"/seats/{seat}")
        response = self.client.get(url)
        assert response.status_code == 200, response.text
        return str(response.text)


def new_table(client: TestClient, game: str, names: list[str], **options: str) -> GameTable:
    response = client.post("/tables", headers=SAME_ORIGIN, data={"game": game, "name": names, **options})
    assert response.status_code == 303, response.text
    return GameTable(client, int(response.headers["location"].rsplit("/", 1)[1]))
