"""What leaves the companion with a saved game: BG Stats' push link, a picture of the result for a group chat,
and what a phone needs to keep the companion on its home screen (the web app manifest and icons).

Pictures are drawn here with Pillow, in the fonts donjon ships (nothing is fetched), and are the same bytes for
the same game on one install (no date or software name is written into them). Their text is drawn by
generator.render.picture_text: a character Open Sans has not (a player's emoji, a Chinese or Japanese name) in the
font fontconfig picks for it on this machine (`fc-match`), and where no font has it, as "?".
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import urllib.parse
from collections.abc import Mapping
from typing import Any

from generator.games.table import TableHints
from generator.i18n import N_, Language, language
from generator.render.picture_text import draw_text, text_length
from generator.render.picture_text import font as _font
from generator.web.db import player_key
from generator.web.languages import when

BG_STATS = "https://app.bgstatsapp.com/createPlay.html?data="

#: The web app manifest (installable to a phone's home screen); the icons are drawn by :func:`icon_png`. Its
#: words in the phone's language: :func:`manifest`.
MANIFEST: dict[str, Any] = {
    "name": N_("donjon table companion"),
    "short_name": "donjon",
    "description": N_("Score a board game together at the table, each player on their own phone."),
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "background_color": "#fbfaf7",
    "theme_color": "#1f2a37",
    "icons": [{"src": f"/icons/{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
               "purpose": "any maskable" if size == 512 else "any"} for size in (192, 512)],
}


def manifest(lang: Language) -> dict[str, Any]:
    """The web app manifest in `lang`: "Add to Home screen" on a French or German phone named and described the app
    in English. A browser asks for it without cookies, so `lang` is the phone's `Accept-Language`."""
    return {**MANIFEST, "lang": lang.code, "name": lang._(MANIFEST["name"]),
            "description": lang._(MANIFEST["description"])}


def source_player_id(name: str) -> str:
    """A player's id for BG Stats (`sourcePlayerId`): the same for every game of that player (by name key), so
    the app remembers which of its players they are after the first match."""
    return "donjon-" + hashlib.sha256(player_key(name).encode()).hexdigest()[:16]


def breakdown_words(player: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    from generator.web.forms import points_label

    return ", ".join(f"{points_label(labels, k)} {v}" for k, v in player.get("breakdown", {}).items())


def _board(game: Mapping[str, Any], hints: TableHints) -> str:
    """The version or set played, in words (BG Stats' `board`): "Job Faire", "Great Architect", "the Mill"."""
    state = game["end_state"]
    out = []
    for option in hints.options:
        value = state.get(option)
        if isinstance(value, str) and value:
            out.append(value.replace("-", " ").title())
        elif value is True:
            out.append(hints.labels.get(option, option.replace("_", " ")))
    return ", ".join(out)


#: the note of a play's comments in BG Stats when a score rests on a house value
HOUSE_VALUES = N_("Some points rest on house values (no rulebook states them): not an official score.")


def bg_stats_play(game: Mapping[str, Any], game_name: str, hints: TableHints, location: str | None = None,
                  lang: Language | None = None, labels: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A saved game in the push format BG Stats documents (see the companion's README for what was checked). Its
    comments, which the players read in the app, are in `lang` (English), the breakdown named by `labels` (the
    form's, in that language); the game's name and ids stay as they are, so that the app keeps one game."""
    result = game["result"]
    lang = lang or language()
    labels = labels if labels is not None else hints.labels
    entry: dict[str, Any] = {"name": game_name, "highestWins": hints.highest_wins, "sourceGameId": game["game"]}
    if hints.bgg_id is not None:
        entry["bggId"] = hints.bgg_id
    lines = []
    players = []
    cooperative = "won" in result and bool(game["team"])
    entry["noPoints"] = cooperative  # a cooperative game: the team wins or loses, nobody scores points
    if cooperative:
        team: dict[str, Any] = result["players"][0] if result["players"] else {"score": 0, "breakdown": {}}
        rounds = int(team["score"])
        outcome = lang.ngettext("Won in {n} round", "Won in {n} rounds", rounds) if result["won"] \
            else lang.ngettext("Lost in {n} round", "Lost in {n} rounds", rounds)
        parts = f" ({breakdown_words(team, labels)})" if team.get("breakdown") else ""
        lines.append(outcome.format(n=rounds) + parts)
        for name in game["team"]:
            players.append({"name": name, "sourcePlayerId": source_player_id(name), "winner": bool(result["won"]),
                            "rank": 1, "startPlayer": False, "role": ""})
    else:
        for seat, player in enumerate(game["players"]):
            scored: dict[str, Any] = next((p for p in result["players"] if p["name"] == player["name"]), {})
            players.append({"name": player["name"], "sourcePlayerId": source_player_id(player["name"]),
                            "score": player["score"], "winner": player["winner"], "rank": player["place"],
                            "startPlayer": hints.seat_order and seat == 0, "role": ""})
            if scored.get("breakdown"):
                lines.append(f"{player['name']}: {breakdown_words(scored, labels)}")
    if any(p.get("inferred") for p in result.get("players", [])) or result.get("inferred"):
        lines.append(lang._(HOUSE_VALUES))
    data: dict[str, Any] = {"sourceName": "donjon", "sourcePlayId": game["uid"], "playDate": game["played_at"],
                            "game": entry, "players": players, "comments": "\n".join(lines),
                            "board": _board(game, hints)}
    if game.get("duration_min"):
        data["durationMin"] = game["duration_min"]
    if location:
        data["location"] = location
    return data


def bg_stats_link(game: Mapping[str, Any], names: Mapping[str, str], hints: TableHints,
                  location: str | None = None, lang: Language | None = None,
                  labels: Mapping[str, str] | None = None) -> str:
    """BG Stats' documented push link for a saved game: the phone that opens it adds the play to the app."""
    data = bg_stats_play(game, names[game["game"]], hints, location, lang, labels)
    return BG_STATS + urllib.parse.quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")


# --- pictures -------------------------------------------------------------------------------------------------------

INK = (27, 31, 36)
MUTED = (74, 83, 96)
PAPER = (251, 250, 247)
HEAD = (31, 42, 55)
GOLD = (138, 97, 0)
NOT_OFFICIAL = N_("≈ rests on a value no rulebook states: not an official score")
#: The result picture's width (px): a phone's screen width at 3x, what chat apps show without scaling much.
WIDTH = 1080


def _wrapped(draw: Any, text: str, font: Any, width: int) -> list[str]:
    """`text` in lines of at most `width` px, broken at spaces; a number stays on the line of the word before it
    (a breakdown's "Bohémienne† 1": the 1 alone on the next line read as a score of its own)."""
    words: list[str] = []
    for word in text.split(" "):
        if words and word.rstrip(",").lstrip("≈~-").isdigit():
            words[-1] += f" {word}"
        else:
            words.append(word)
    lines: list[str] = []
    for word in words:
        if lines and draw.textlength(f"{lines[-1]} {word}", font=font) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines or [""]


def result_png(game: Mapping[str, Any], game_name: str, labels: Mapping[str, str],
               lang: Language | None = None) -> bytes:
    """The ranked table of a saved game and each player's breakdown (its parts named by `labels`), as a PNG to
    share, in `lang` (English)."""
    from PIL import Image, ImageDraw

    lang = lang or language()
    result = game["result"]
    rows: list[tuple[str, str, str, str]] = []  # place, name, score, breakdown
    if "won" in result and game["team"]:
        team: dict[str, Any] = result["players"][0] if result["players"] else {"score": 0, "breakdown": {}}
        rows.append(("", ", ".join(game["team"]), lang.ngettext("{n} round", "{n} rounds", int(team["score"])).format(
            n=team["score"]), breakdown_words(team, labels)))
        outcome = lang._("Won: the castle was finished in time.") if result["won"] else lang._("Lost.")
    else:
        for player in sorted(result["players"], key=lambda p: (p["place"], p["name"])):
            approx = "≈" if player.get("inferred") else ""
            rows.append((str(player["place"]), player["name"], f"{approx}{player['score']}",
                         breakdown_words(player, labels)))
        outcome = lang._("{name} wins.").format(name=result["winner"]) if result.get("winner") \
            else lang._("No single winner.")
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    name_font, small, title = _font(True, 44), _font(False, 30), _font(True, 56)
    laid = [(row, _wrapped(scratch, row[3], small, WIDTH - 200)) for row in rows]
    # a row: the name (70 px), each line of its breakdown (40 px), then 30 px clear of the next row's rule
    approximate = any(row[2].startswith("≈") for row in rows)
    # the note under a score resting on a house value, within the margins: German's ran to the picture's edge
    note = _wrapped(scratch, lang._(NOT_OFFICIAL), small, WIDTH - 120) if approximate else []
    height = 250 + sum(100 + 40 * len(lines) for _, lines in laid) + 90 + 40 * len(note)
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 150), fill=HEAD)
    # a sheet of one's own's name is the designer's, of any length: cut with "…" within the margins, as a name is
    draw_text(image, (60, 30), _fit(game_name, True, 56, WIDTH - 120), True, 56, (255, 255, 255))
    draw_text(image, (60, 100), when(lang, game["played_at"])[:24] if not lang.english else game["played_at"][:16],
          False, 30, (220, 226, 234))
    draw_text(image, (60, 175), outcome, True, 36, INK)  # the outcome names the winner: their name's own fonts
    y = 250
    for (place, name, score, _), lines in laid:
        draw.line((60, y - 12, WIDTH - 60, y - 12), fill=(201, 209, 219), width=2)
        draw.text((60, y), place, font=name_font, fill=GOLD if place == "1" else MUTED)
        draw_text(image, (140, y), _fit(name, True, 44, WIDTH - 460), True, 44, INK)
        draw.text((WIDTH - 60, y), score, font=name_font, fill=INK, anchor="ra")
        y += 70
        for line in lines:
            draw_text(image, (140, y), line, False, 30, MUTED)
            y += 40
        y += 30
    for index, line in enumerate(note):  # honest data: a score resting on a house value is never shown as official
        draw_text(image, (60, height - 60 - 40 * (len(note) - index)), line, False, 30, MUTED)
    draw.text((60, height - 60), lang._("Scored with donjon"), font=small, fill=MUTED)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _fit(text: str, bold: bool, size: int, width: int) -> str:
    """`text` as drawn within `width` px: whole, else cut with "…" after as many of its characters as fit, a
    character being what a reader sees as one (a grapheme cluster: an emoji family with its joiners, a flag's two
    letters, a letter and its accents, a Devanagari conjunct), never part of one; "" when not even one fits."""
    if text_length(text, bold, size) <= width:
        return text
    import regex  # Unicode's grapheme clusters (`\X`), which the standard library's re cannot find

    clusters = regex.findall(r"\X", text)
    while len(clusters) > 1:
        clusters.pop()
        cut = "".join(clusters).rstrip() + "…"  # no space left before the "…"
        if text_length(cut, bold, size) <= width:
            return cut
    return ""


@functools.lru_cache(maxsize=8)
def icon_png(size: int, ico: bool = False) -> bytes:
    """The companion's icon: a white tower with battlements on the companion's dark blue, edge to edge (a
    maskable icon keeps its drawing within the middle 80 %)."""
    from PIL import Image, ImageDraw

    scale = 4  # drawn large and reduced: smooth edges without anti-aliased polygons
    big = size * scale
    image = Image.new("RGB", (big, big), HEAD)
    draw = ImageDraw.Draw(image)
    unit = big / 10
    left, right, top, bottom = 3 * unit, 7 * unit, 2.6 * unit, 7.8 * unit
    draw.rectangle((left, top + unit, right, bottom), fill=(255, 255, 255))
    for index in range(3):  # three merlons
        x = left + index * (right - left - unit) / 2
        draw.rectangle((x, top, x + unit, top + unit), fill=(255, 255, 255))
    draw.rectangle((4.4 * unit, 5.6 * unit, 5.6 * unit, bottom), fill=HEAD)  # the door
    image = image.resize((size, size), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="ICO" if ico else "PNG", **({"sizes": [(size, size)]} if ico else {"optimize": True}))
    return out.getvalue()
