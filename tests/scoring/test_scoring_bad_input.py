"""Input the scorer cannot read: one clear message naming the file (and the line), exit 2, never a crash.

How fast it is refused is measured by the benchmark (`benchmarks/run.py`, case `hostile`), not here."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any
from pathlib import Path

import pytest

import scoring
from generator.errors import DonjonError, ExitCode

GOOD = """game: guildhall
vp_set: job-faire
players:
  - {name: Ana, guildhall: {}, completed_chapters: 0, vp_cards: [9, 9, 2], vp_tokens: 0}
  - {name: Ben, guildhall: {}, completed_chapters: 0, vp_cards: [], vp_tokens: 0}
ended_by: Ana
"""


def alias_bomb() -> str:
    lines = ["game: guildhall", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 12)]
    return "\n".join(lines) + "\n"


def small_bomb() -> str:
    """Below the reader's limit on expanded values: the format must refuse it without walking it."""
    lines = ["game: guildhall", "vp_set: job-faire", "a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 5)]
    lines += ["players: *a4", "ended_by: Ana"]
    return "\n".join(lines) + "\n"


#: name -> (file name, bytes, what the message must say, the line it must name or None)
CASES: dict[str, tuple[str, bytes, str, int | None]] = {
    "empty": ("empty.yaml", b"", "is empty", None),
    "only comments": ("comments.yaml", b"# nothing here\n\n", "is empty", None),
    "not YAML": ("broken.yaml", b"game: guildhall\nplayers: [\n  - {name: Ana\n", "is not valid YAML", None),
    "not JSON": ("broken.json", b'{"game": "guildhall",\n "players": [}', "is not valid JSON", 2),
    "binary junk": ("junk.yaml", bytes(range(256)), "is not a text file", 1),
    "not UTF-8": ("latin.yaml", "game: guédelon\n".encode("latin-1"), "is not UTF-8 text", 1),
    "a list": ("list.yaml", b"- game: guildhall\n", "holds a list, not an end state", 1),
    "a number": ("number.yaml", b"42\n", "holds 42 (a whole number), not an end state", 1),
    "no game": ("nogame.yaml", b"vp_set: job-faire\n", "is missing the key 'game'", 1),
    "unknown game": ("chess.yaml", b"game: chess\n", "unknown game 'chess'", 1),
    "game not text": ("gamelist.yaml", b"game: [guildhall]\n", "expected the name of a game", 1),
    "wrong types": ("types.yaml", GOOD.replace("vp_tokens: 0}\n  - {name: Ben", "vp_tokens: lots}\n  - {name: Ben")
                    .encode(), "players[0].vp_tokens: expected a number, got 'lots' (text)", 4),
    "unknown key": ("key.yaml", (GOOD + "winner: Ana\n").encode(), "winner: unknown key 'winner'", 7),
    "huge number": ("huge.yaml", GOOD.replace("[9, 9, 2]", "[9, 9, 2" + "0" * 400 + "]").encode(),
                    "players[0].vp_cards[2]: is 2000000000...(401 digits), beyond the 1,000,000 donjon reads", 4),
    "huge float": ("float.yaml", GOOD.replace("vp_tokens: 0}\n  - {name: Ben", "vp_tokens: 1.0e+300}\n  - {name: Ben")
                   .encode(), "players[0].vp_tokens: is 1e+300, beyond the 1,000,000 donjon reads", 4),
    "infinity": ("inf.yaml", GOOD.replace("vp_tokens: 0}\n  - {name: Ben", "vp_tokens: .inf}\n  - {name: Ben")
                 .encode(), "is not a finite number", 4),
    "JSON infinity": ("inf.json", b'{"game": "guildhall", "players": [], "vp_set": "job-faire", "x": 1e999}',
                      "holds 1e999, which is not a finite number", 1),
    "deep nesting": ("deep.yaml", b"game: guildhall\nx: " + b"[" * 10_000 + b"]" * 10_000 + b"\n",
                     "is nested more than 64 levels deep", 2),
    "deep JSON": ("deep.json", b'{"game": "guildhall", "x": ' + b"[" * 10_000 + b"]" * 10_000 + b"}",
                  "is nested more than", None),
    "alias bomb": ("bomb.yaml", alias_bomb().encode(), "an alias bomb", None),
    "aliased lists": ("small-bomb.yaml", small_bomb().encode(), "players[9]: expected a player (a mapping), got a list",
                      8),
    "python tag": ("tag.yaml", b"game: !!python/object:os.system guildhall\n", "uses the tag", 1),
    "two documents": ("two.yaml", (GOOD + "---\n" + GOOD).encode(), "holds more than one YAML document", 7),
    "duplicate key": ("dup.yaml", (GOOD + "vp_set: job-faire\n").encode(), "repeats the key 'vp_set'", 7),
    "long list": ("long.yaml", GOOD.replace("[9, 9, 2]", "[" + ", ".join(["9"] * 5000) + "]").encode(),
                  "players[0].vp_cards: has 5000 items, more than the 1000 allowed", 4),
    # YAML reads some bare words (No, Yes, On, Off) as true/false and digits as numbers: a player called No or 42
    # is told how to keep the name as text, not only that a boolean is no name
    "a name YAML reads as false": ("no.yaml", GOOD.replace("name: Ben", "name: No").encode(),
                                   "players[1].name: expected text, got No (true/false); if it is text (a name "
                                   "such as No or 42), put it in quotes", 5),
    # the value as the file spells it, not Python's reading of it (`got True`)
    "a count written yes": ("yes.yaml", GOOD.replace("vp_tokens: 0}\n  - {name: Ben", "vp_tokens: yes}\n  - {name: Ben")
                            .encode(), "players[0].vp_tokens: expected a number, got yes (true/false)", 4),
    "a count written on, in a list": ("on.yaml", GOOD.replace("[9, 9, 2]", "[9, On, 2]").encode(),
                                      "players[0].vp_cards[1]: expected a number, got On (true/false)", 4),
    "a count written true in JSON": ("true.json", b'{"game": "guildhall", "vp_set": "job-faire", "players": [{"name": '
                                     b'"Ana", "guildhall": {}, "completed_chapters": true, "vp_cards": [], '
                                     b'"vp_tokens": 0}]}', "completed_chapters: expected a whole number, got true "
                                     "(true/false)", None),
    "a name YAML reads as a number": ("digits.yaml", GOOD.replace("ended_by: Ana", "ended_by: 42").encode(),
                                      "ended_by: expected text, got 42 (a whole number); if it is text", 6),
    "a broken PDF": ("sheet.pdf", b"%PDF-1.7\n", "is a damaged PDF that cannot be read", None),
    "not a PDF": ("sheet.pdf", b"game: guildhall\n", "is not a PDF", None),
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_unreadable_input(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name, data, message, line = CASES[case]
    monkeypatch.chdir(tmp_path)
    Path(name).write_bytes(data)
    with pytest.raises(DonjonError) as caught:
        scoring.score(name)
    error = caught.value
    assert error.exit_code == ExitCode.UNREADABLE
    text = str(error)
    assert text.startswith(name), text
    assert message in text, text
    if line is not None:
        assert f"{name}:{line}:" in text, text


@pytest.mark.parametrize("make", [
    lambda p: p.mkdir(),
    lambda p: None,
    lambda p: os.mkfifo(p) if hasattr(os, "mkfifo") else pytest.skip("no FIFOs here"),
], ids=["folder", "missing", "fifo"])
def test_not_a_regular_file(make: Callable[[Path], object], tmp_path: Path) -> None:
    path = tmp_path / "end.yaml"
    make(path)
    with pytest.raises(DonjonError) as caught:
        scoring.score(path)  # a FIFO must be refused, not read (it would block for ever)
    assert caught.value.exit_code == ExitCode.UNREADABLE and "end.yaml" in str(caught.value)


def test_byte_order_mark_and_crlf_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode())
    assert scoring.score(path).valid


@pytest.mark.parametrize("value", [None, [], "text", 3.5, True, {"a": 1}, -5, 10**30])
def test_any_value_in_any_field_is_an_error_or_a_result(value: object) -> None:
    """Every key of a good file, replaced by a value of another kind: a clear error (2) or a result."""
    import yaml

    base = yaml.safe_load(GOOD)
    paths: list[tuple[object, ...]] = [(k,) for k in base] + [("players", 0, k) for k in base["players"][0]]
    for path in paths:
        state = yaml.safe_load(GOOD)
        node = state
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
        try:
            result = scoring.score(state)
        except DonjonError as err:
            assert err.exit_code == ExitCode.UNREADABLE
        else:
            assert result.exit_code in (ExitCode.OK, ExitCode.INVALID)


def test_numbers_too_long_to_write_out() -> None:
    """A mapping given to the library can hold integers Python will not turn into text: still a clear error."""
    state = yaml_state()
    state["players"][0]["vp_cards"] = [10**5000]
    state["players"][0]["vp_tokens"] = -(10**5000)
    with pytest.raises(DonjonError, match="holds a whole number of more than 4,000 digits"):
        scoring.score(state)
    keyed: dict[Any, Any] = yaml_state()  # as an untyped caller may give it: a key that is not a string
    keyed[10**5000] = 1  # a key too
    with pytest.raises(DonjonError, match="holds a whole number of more than 4,000 digits"):
        scoring.score(keyed)


def test_a_mapping_that_holds_itself() -> None:
    state = yaml_state()
    state["players"][0]["guildhall"]["hunter"] = state["players"]
    state["players"].append(state["players"])
    with pytest.raises(DonjonError, match="nested more than 64 levels deep"):
        scoring.score(state)


def yaml_state() -> dict[str, Any]:
    import yaml

    state: dict[str, Any] = yaml.safe_load(GOOD)
    return state
