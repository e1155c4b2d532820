"""The section of `benchmarks/results.md` on photos of castle sheets, from `benchmarks/scan-results.json`.

`scan_photos.py` writes the JSON and the section; `run.py` writes the section again from the JSON whenever it
rewrites the report, so that neither loses the other's results. Standard library only, as `run.py` is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import report_blocks  # beside this file

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "scan-results.json"
TARGET_RIGHT = 0.995
TARGET_SECONDS = 1.5
SECTION = "## Photos of castle sheets (`donjon score PHOTO`)"
FAMILIES = HERE / "scan-families.json"
FAMILY_SECTION = "## Hard photos, family by family (`scan_photos.py --families all`)"


def section(result: dict[str, Any]) -> list[str]:
    """The report's section on the photos."""
    twelve = result["times"].get("12", {})
    lines = [SECTION, "",
             f"Measured on {result['date']} with `python benchmarks/scan_photos.py --photos {result['photos']}` "
             f"({result['cpu']}, {result['cores']} cores): {result['photos']} synthetic photos of {result['games']} "
             "games (not real phone photos: see the script), read by donjon's photo reader.", "",
             "| target | measured | |", "|---|---|---|",
             f"| at least 99.5 % of marks read right | {result['right_share']:.3%} of {result['marks']:,} marks "
             f"({result['undecided']} undecided, {result['wrong']} wrong) | "
             f"{'met' if result['right_share'] >= TARGET_RIGHT else 'MISSED'} |",
             f"| no game scored wrong without a flag | {result['games_wrong_unflagged']} of {result['games']} games "
             f"({result['games_flagged']} flagged uncertain, {result['games_right']} read right) | "
             f"{'met' if result['games_wrong_unflagged'] == 0 else 'MISSED'} |",
             f"| at most 1.5 s per 12-megapixel photo | median {twelve.get('median_s', '?')} s, slowest "
             f"{twelve.get('max_s', '?')} s ({twelve.get('photos', 0)} photos) | "
             f"{'met' if twelve and twelve['max_s'] <= TARGET_SECONDS else 'MISSED'} |", "",
             "| megapixels | photos | median s | slowest s |", "|---|---|---|---|"]
    for mp, row in result["times"].items():
        lines.append(f"| {mp} | {row['photos']} | {row['median_s']} | {row['max_s']} |")
    if result.get("cli_12mp_s"):
        lines += ["", f"`donjon score` on a 12-megapixel photo, the whole process: {result['cli_12mp_s']:.2f} s "
                      "(median of 3)."]
    styles = ", ".join(f"{k} {v:,}" for k, v in sorted(result["styles"].items()))
    lines += ["", f"Marks filled by style: {styles}."]
    return lines


def saved_section() -> list[str]:
    """The section from the last photo benchmark, or nothing when it never ran."""
    try:
        return section(json.loads(RESULTS.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError):
        return []


def family_section(result: dict[str, Any]) -> list[str]:
    """The report's section on the hard photos, family by family."""
    lines = [FAMILY_SECTION, "",
             f"Measured on {result['date']} with `python benchmarks/scan_photos.py --families all --per-family "
             f"{result['per_family']} --seed {result['seed']}` ({result['cpu']}, {result['cores']} cores, load "
             f"{result['load']:.1f}): synthetic photos made by `benchmarks/photo_families.py` (not real phone "
             "photos). Right: every field read as filled and nothing asked; asked: some fields asked about with "
             "their reason, every other field right; refused: not read, with a reason; wrong: a field read wrong "
             "and not asked about (the target is 0 in every family). `marks wrong (confident)` counts, mark by mark, "
             "the marks decided (not asked about) against their truth, asked photos included: read as the opposite "
             "of what was filled, or decided where a person must be asked (a ghost rubbed out badly, a figure half "
             "coloured); a field saved only by another mark's question is one answer away from a wrong score "
             "(target 0).", "",
             "A photo in which the camera cannot see some mark (under a finger, in glare that would drown pencil) "
             "can at best be asked about (read as empty, it would be right by luck): the column `blind` counts "
             "those, and `right (seen)` is the share read right among the photos with no such mark. `clear` counts the "
             "photos with no mark hidden and no empty mark where the player's lightest line would drown (glare), "
             "and `right (clear)` the share of those read right: the reader's own measure, with no luck in it.", "",
             "| family | photos | right | asked | refused | wrong | marks wrong (confident) | blind | right (seen) | "
             "clear | right (clear) | target (right) | |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, row in result["families"].items():
        n = row["photos"] or 1
        target = row.get("target")
        confident = row.get("confident_wrong")
        met = row["wrong"] == 0 and not confident and (target is None or row["right"] / n >= target)
        seen = row["photos"] - row.get("blind", 0)
        right_seen = f"{row['right_seen'] / seen:.0%}" if "right_seen" in row and seen else ""
        clear = row.get("clear")
        right_clear = f"{row['right_clear'] / clear:.0%}" if clear else ""
        lines.append(f"| {name} | {row['photos']} | {row['right'] / n:.0%} | {row['asked'] / n:.0%} | "
                     f"{row['refused'] / n:.0%} | {row['wrong']} | {'' if confident is None else confident} | "
                     f"{row.get('blind', 0)} | {right_seen} | {'' if clear is None else clear} | {right_clear} | "
                     f"{'' if target is None else f'{target:.0%}'} | {'met' if met else 'MISSED'} |")
    lines += ["", "| megapixels | photos | median s | slowest s |", "|---|---|---|---|"]
    for mp, row in result["times"].items():
        lines.append(f"| {mp} | {row['photos']} | {row['median_s']} | {row['max_s']} |")
    return lines


def saved_families() -> list[str]:
    try:
        return family_section(json.loads(FAMILIES.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError):
        return []


def update_families(result: dict[str, Any]) -> None:
    """Write the families' `result` and its section into results.md, in place of the last one."""
    FAMILIES.write_text(json.dumps(result, indent=1, default=str) + "\n", encoding="utf-8")
    _replace_section("families", family_section(result))


def _replace_section(key: str, body: list[str]) -> None:
    """Write `body` as the block `key` of results.md, in place of the last one; the other blocks and every line
    written by hand (the notes under the family table) stay as they were."""
    report_blocks.write(HERE / "results.md", ["photos", "families"], {key: body})


def update_report(result: dict[str, Any]) -> None:
    """Write `result` and its section into results.md, in place of the last one."""
    RESULTS.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    _replace_section("photos", section(result))

