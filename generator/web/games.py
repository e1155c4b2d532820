"""The companion's only door to the games and the scorer.

Everything the web layer needs from the registry, `scoring/` and the catalogs goes through this module: the game
ids and names, a game's catalog and end-state format (a `generator.fields.Record` tree the forms are built from)
and its table hints (how the format is entered at the table, from the game's package), scoring a mapping or a
game's filled score sheets, and the JSON result.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import DonjonError, InputError, Problem
from generator.fields import Record
from generator.games.table import TableHints
from generator.registry import find_game, game_ids, games

__all__ = ["Games", "Scored", "read_input"]


def read_input(path: Path) -> bytes:
    """A file given on the command line (an export to import), with the safe reader every input goes through: no
    FIFO, no device, bounded size, a clear error."""
    from generator.files import read_bytes

    return read_bytes(path, str(path))


@dataclass(frozen=True)
class Scored:
    """What scoring gave: the JSON result of end-states.md, or the problems that kept the state from being read."""

    #: the scorer's JSON result (with `warnings` and `inferred`, empty when the scorer gives none); None if unread
    result: dict[str, Any] | None
    #: format problems (wrong types, unknown names...), each {"where", "message"}; empty when read
    problems: list[dict[str, str]] = field(default_factory=list)
    #: the whole message of an unreadable state, as `donjon score` prints it
    error: str = ""

    @property
    def readable(self) -> bool:
        return self.result is not None


def normalised(result: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON result with `warnings` and `inferred` always present (a scorer without them gives neither)."""
    out = dict(result)
    out.setdefault("warnings", [])
    out.setdefault("inferred", {})
    return out


def _problems(err: DonjonError) -> list[dict[str, str]]:
    problems: tuple[Problem, ...] = getattr(err, "problems", ()) or ((err.problem,) if hasattr(err, "problem") else ())
    return [{"where": p.where, "message": p.message} for p in problems] or [{"where": "", "message": str(err)}]


class Games:
    """The registered games, their catalogs (loaded once) and the scorer, for one content folder."""

    def __init__(self, content: Path | None = None) -> None:
        from scoring.engine import Scorer

        self._scorer = Scorer(content)
        self.ids: tuple[str, ...] = game_ids()
        self.names: dict[str, str] = {g.id: g.name for g in games()}

    def hints(self, game: str) -> TableHints:
        """How the game's end-state format is entered at the table (from the game's package)."""
        return find_game(game).table_hints()

    def catalog(self, game: str) -> tuple[Any, Record[Any]]:
        """The game's catalog and its end-state format (raises the catalog's error if it cannot be loaded)."""
        return self._scorer.catalog(game)

    def players_range(self, game: str) -> tuple[int, int]:
        """How many players the game takes, from its catalog (GameInfo)."""
        catalog, _ = self.catalog(game)
        return int(catalog.info.players_min), int(catalog.info.players_max)

    def score(self, end_state: Mapping[str, Any]) -> Scored:
        """Score a mapping shaped like an end-state file, through the same engine as `donjon score`."""
        try:
            result = self._scorer.score(end_state)
        except InputError as err:
            return Scored(None, _problems(err), str(err))
        return Scored(normalised(result.to_dict()))

    def score_castle_sheet(self, data: bytes, filename: str, game: str = "once-upon-a-castle"
                           ) -> tuple[dict[str, Any], Scored]:
        """A filled score sheet of `game` (a castle sheet PDF), checked and scored alone through
        `Scorer.score_sheets`, and the values read from it as one part of the game's format
        (`{"player": ..., "towers": [...]}`, with the version under "version").

        The seam for sheets read from photos (the scanning issue): they will come in here too.
        """
        name = re.sub(r"[^\w.() -]", "_", os.path.basename(filename))[:100] or "sheet.pdf"
        with tempfile.TemporaryDirectory(prefix="donjon-upload-") as folder:
            path = Path(folder) / name
            path.write_bytes(data)

            def named(text: str) -> str:
                """The message naming the file as the player knows it, not by where it was kept meanwhile (the
                scorer may show that path absolute or relative to its working folder)."""
                return re.sub(r"\S*" + re.escape(os.sep + name), name, text)

            try:
                result = self._scorer.score_sheets([path])
            except InputError as err:
                return {}, Scored(None, [{"where": p["where"], "message": named(p["message"])}
                                         for p in _problems(err)], named(str(err)))
        document = find_game(game).read_sheets([(data, name)]).document.data
        sheet = dict(document["sheets"][0])
        sheet["version"] = document["version"]
        return sheet, Scored(normalised(result.to_dict()))
