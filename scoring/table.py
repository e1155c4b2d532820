"""A :class:`~scoring.result.Result` as text for people: a heading, the violations or a score table, the outcome.

The table reads like a score pad: one column per player in order of place, one row per source of points, then
the total and the place. Rows a player has no points in show `-`.
"""

from __future__ import annotations

from generator.registry import UnknownGame, find_game
from scoring.result import Result


def _game_name(game_id: str) -> str:
    try:
        return find_game(game_id).name
    except UnknownGame:
        return game_id


def heading(result: Result) -> str:
    game = _game_name(result.game)
    setting = "; ".join(f"{key}: {value}" for key, value in result.setting)
    name = f"{result.source}: " if result.source else ""
    return f"{name}{game}" + (f" ({setting})" if setting else "")


def render(result: Result) -> str:
    """The whole report of one result, lines joined, without a trailing newline."""
    lines = [heading(result)]
    if result.uncertain:
        lines.append(result.summary)
        for item in result.uncertain:
            lines.append(f"  {item.photo}: {item.field}: {item.why} (confirm with --set {item.key}=VALUE)")
        return "\n".join(lines)
    if result.violations:
        lines.append(result.summary)
        for violation in result.violations:
            place = result.source or "end state"
            if violation.line is not None:
                place += f":{violation.line}"
            lines.append(f"  {place}: {violation.where}: {violation.message}" if violation.where
                         else f"  {place}: {violation.message}")
        return "\n".join(lines)
    lines.extend(f"  {row}" for row in score_table(result))
    lines.append(result.summary)
    return "\n".join(lines)


def score_table(result: Result) -> list[str]:
    """The players (by place, ties in file order) as columns and their points as rows."""
    players = sorted(result.players, key=lambda p: p.place)
    labels: list[str] = []
    for player in players:
        labels.extend(label for label, _ in player.breakdown if label not in labels)
    notes: list[str] = []
    for player in players:
        notes.extend(label for label, _ in player.notes if label not in notes)
    rows: list[tuple[str, list[str]]] = []
    for label in labels:
        rows.append((label, [str(dict(p.breakdown)[label]) if label in dict(p.breakdown) else "-" for p in players]))
    rows.append(("score", [str(p.score) for p in players]))
    rows.append(("place", [str(p.place) for p in players]))
    rows.extend((label.replace("_", " "), [str(dict(p.notes).get(label, "-")) for p in players]) for label in notes)
    first = max([len(label) for label, _ in rows] + [0])
    widths = [max(len(p.name), *(len(cells[i]) for _, cells in rows)) for i, p in enumerate(players)]
    out = [" " * first + "".join(f"  {p.name:>{w}}" for p, w in zip(players, widths, strict=True))]
    rule_after = len(labels)
    for index, (label, cells) in enumerate(rows):
        if index == rule_after:
            out.append("-" * first + "".join("  " + "-" * w for w in widths))
        out.append(f"{label:<{first}}" + "".join(f"  {c:>{w}}" for c, w in zip(cells, widths, strict=True)))
    return [line.rstrip() for line in out]
