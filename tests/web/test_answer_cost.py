"""What a phone's tap and a table's poll cost the companion: twenty phones tapping at once share its one thread, so
a read of the database an answer makes and never uses is paid by every phone waiting (benchmarks/run.py, serve)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from generator.web.db import Database
from tests.web.conftest import example, new_table, post_json


@pytest.fixture
def reads(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every read of the database made from now on (its function), in order."""
    made: list[Any] = []
    read = Database.read

    def counted(self: Database, func: Any) -> Any:
        made.append(func)
        return read(self, func)

    monkeypatch.setattr(Database, "read", counted)
    return made


def test_a_tap_and_a_poll_read_only_the_table(client: TestClient, reads: list[Any]) -> None:
    """A tap's answer drew the table its write returned, yet every answer read the database once more: the words of
    the sheets of one's own kept in the history, to name the games of a page (update.html names none). A tap reads
    nothing now, and a poll of a changed table its version and the table in one read (two reads before: two trips to
    a reader thread)."""
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    table.page(0)
    reads.clear()
    table.edit("add", "vp_tokens", 1, seat=0)
    assert reads == []
    answer = client.get(f"/tables/{table.id}/live?v=0&seat=1&h=")
    assert answer.status_code == 200 and 'data-version="' in answer.text
    assert len(reads) == 1, [getattr(f, "__name__", f) for f in reads]
    reads.clear()
    assert "Guildhall" in table.page(0)  # a page naming its game still reads the names
    assert len(reads) >= 1


def test_a_save_answers_the_game_it_wrote_without_reading_it_again(client: TestClient, reads: list[Any]) -> None:
    """A save through the API answered the game it stored by reading it back on a reader thread once the write was
    done: one more trip off the server's one thread and one more transaction for every save. The game answered is
    now read in the save's own write: no read at all, and the answer is the game as GET gives it (without its
    versions; a save sent again with its key answers the same)."""
    state = example("guildhall")
    saved = post_json(client, "/api/games", state, **{"idempotency-key": "k1"})
    assert saved.status_code == 201 and reads == []
    game = saved.json()
    assert game["end_state"]["players"][0]["name"] == state["players"][0]["name"] and game["players"]
    assert {k: v for k, v in client.get(saved.headers["location"]).json().items() if k != "versions"} == game
    reads.clear()
    again = post_json(client, "/api/games", state, **{"idempotency-key": "k1"})
    assert again.status_code == 200 and again.content == saved.content and reads == []


def test_the_phones_polling_a_new_version_have_it_drawn_once_per_seat(client: TestClient,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Every phone on a table asks for the version a tap made, each drawn anew (2-3 ms of the server's one thread,
    which the phones tapping meanwhile waited for). It is drawn once for each seat shown (and language), and every
    phone of that seat gets the same answer; the next tap's version is drawn again."""
    from generator.web.app import Companion

    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    drawn: list[str] = []
    draw = Companion.drawn

    def counted(self: Companion, name: str, *args: Any, **kwargs: Any) -> str:
        drawn.append(name)
        return draw(self, name, *args, **kwargs)

    monkeypatch.setattr(Companion, "drawn", counted)

    def poll(seat: int, lang: str = "en") -> str:
        answer = client.get(f"/tables/{table.id}/live?v=0&seat={seat}&h=", headers={"accept-language": lang})
        assert answer.status_code == 200 and answer.headers["content-language"] == lang
        return str(answer.text)

    table.edit("add", "vp_tokens", 1, seat=0)
    drawn.clear()
    first = [poll(0) for _ in range(3)]
    assert first[0] == first[1] == first[2] and 'id="in-players_0__vp_tokens"' in first[0]
    assert len(drawn) == 1
    assert poll(1) != first[0] and len(drawn) == 2  # another seat's part
    french = poll(0, "fr")
    assert french != first[0] and len(drawn) == 3  # another language
    table.edit("add", "vp_tokens", 1, seat=0)
    drawn.clear()
    again = poll(0)
    assert again != first[0] and 'value="2"' in again and len(drawn) == 1


def test_what_the_catalog_gives_a_tables_controls_is_worked_out_once_per_table(client: TestClient,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Each tap drew the controls of every part anew, and with them what the catalog gives them (the VP cards'
    values of the set chosen, its professions, the colours), the same for every version of the table: worked out for
    each part at each tap. It is worked out once per table and language; a name corrected is another table's form."""
    import dataclasses

    from generator.games.guildhall.table import HINTS

    asked: list[str] = []
    widget = HINTS.widgets["vp_cards"]
    assert widget.choices is not None
    values = widget.choices

    def counted(catalog: Any, options: Any) -> Any:
        asked.append(str(options.get("vp_set")))
        return values(catalog, options)

    monkeypatch.setitem(HINTS.widgets, "vp_cards", dataclasses.replace(widget, choices=counted))
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    table.page(0)
    asked.clear()
    for value in (9, 7, 3):
        assert 'aria-label="VP cards bought: take away 9 (number 1)"' in table.edit("append", "vp_cards", value, seat=0)
    assert asked == []
    french = client.get(f"/tables/{table.id}/seats/0", headers={"accept-language": "fr"})
    assert french.status_code == 200 and asked == ["old-world-economy"]
    asked.clear()
    renamed = client.post(f"/tables/{table.id}/seats/1/name", headers={"sec-fetch-site": "same-origin"},
                          data={"name": "Bea", "was": "Ben"})
    assert renamed.status_code == 303, renamed.text
    assert "Bea" in table.page(1) and asked == ["old-world-economy"]


def test_the_poll_answers_of_a_table_s_older_versions_are_not_kept(client: TestClient) -> None:
    """Each poll answer drawn is kept with its version's view (drawn once per seat), and views.CACHE_SIZE (64) views
    are kept: a four-player castle table tapped 64 times, every phone polling, held some 9 MB of answers no poll would
    ask for again (a poll is answered from the newest version only). Only the newest version's are kept now: 24
    versions polled from every seat and the table's own page grow the companion's memory by under 2 MB (3.3 MB
    before, 0.9 after), the views themselves included."""
    import gc
    import tracemalloc

    names = ["Ana", "Ben", "Cleo", "Dan"]
    table = new_table(client, "once-upon-a-castle", names, version="great-architect")

    def poll_everywhere() -> None:
        for seat in ["", *map(str, range(len(names)))]:
            answer = client.get(f"/tables/{table.id}/live?v=0&h=&seat={seat}")
            assert answer.status_code == 200 and 'data-version="' in answer.text

    table.edit("set", "residents", 1, seat=0)
    poll_everywhere()  # the first drawing's own caches (templates, catalogs) before the count
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for version in range(24):
            table.edit("set", "residents", version % 29 + 2, seat=version % len(names))
            poll_everywhere()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 2_000_000, f"{grown / 1e6:.1f} MB kept"
