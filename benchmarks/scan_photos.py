#!/usr/bin/env python3
"""Synthetic photos of filled scan-ready castle sheets, read back by donjon: how many marks it reads right, whether
any game is scored wrong without a flag, and how long a photo takes.

    python benchmarks/scan_photos.py                  # 500 photos (about 10 minutes on two cores)
    python benchmarks/scan_photos.py --photos 40 --keep benchmarks/work/photos   # fewer, and keep them to look at

Real phone photos were not available: every photo here is made from the real sheets `donjon build` writes (their
PDFs rasterised at 300 dpi, their maps of marks read to know where each mark is). For each photo:

- a random valid game of 1 to 4 players of a random version and paper, each player's values as the rules allow;
- its marks filled as pencils do: full, partial, a tick, a cross, in grey tones from light to dark with grain,
  slightly off centre; stray strokes near empty marks; residents coloured in; a name scribbled;
- the sheet curled (a bulge of up to 2.5 mm), tilted in space up to 15 degrees (perspective), turned by any angle
  (upside down included), on a table, at 1 to 12 megapixels;
- uneven light (a gradient) and a shadow across part of the sheet, blur, sensor noise, JPEG quality 50 to 90.

Each photo is read with donjon's reader (`generator.sheets.photos.read_photo`, what `donjon score PHOTO`
runs): every mark's state is compared with what was filled (right, undecided, or wrong), and each game's sheets as
read with the truth (a game is scored wrong without a flag when nothing was uncertain and a value differs). Times
are those of the reader in this process, from the file's bytes to the sheet (decoding included); `donjon score`
adds its start-up (measured once at the end, whole process, on a 12-megapixel photo).

Results go to `benchmarks/scan-results.json` and to their section of `benchmarks/results.md`.

    python benchmarks/scan_photos.py --families all --per-family 20     # hard photos, family by family

With `--families`, photos are made by `benchmarks/photo_families.py` instead, one family at a time (circled
marks, scribbles, glare, curl, a finger, clutter...: see FAMILIES there), each photo one random valid castle of a
random version and paper: per family, the share of photos read right, asked about (a field uncertain, with its
reason), refused (with a reason), and wrong (a field read wrong and not asked about: what must never happen),
against the issue's targets; and the reader's time per photo by megapixels. Results go to
`benchmarks/scan-families.json` and their own section of `benchmarks/results.md`.

    python benchmarks/scan_photos.py --families clean,finger-over-marks --per-family 4 \
        --sheet content/examples/sheets/lantern-harbour         # the families on a sheet of one's own

With `--sheet`, the photos are of a sheet of one's own (its folder: sheet.yaml and its layout), drawn scan-ready on
A4, each filled with random values its fields allow (a count up to its largest mark), and read as `donjon score
--sheet` reads them: the same line per family (right, asked, refused, wrong). Around it (clutter, two-sheets) lie
another copy of it and a card; there is no second shot, and no report is written.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

from generator.content import load_content  # noqa: E402
from generator.games.castle import GAME  # noqa: E402
from generator.games.castle.sheets import end_state_sheet, kinds, mark_map  # noqa: E402
from generator.sheets.marks import Mark, MarkMap, interpret  # noqa: E402
from generator.sheets.photos import read_photo  # noqa: E402
from generator.resources import content_dir  # noqa: E402
import photo_families  # noqa: E402  (beside this file)
from scan_report import update_families, update_report  # noqa: E402  (beside this file)

#: The sheets are rasterised at this resolution (pixels per point): 300 dpi.
RENDER = 300 / 72
#: Megapixels of the photos, drawn at random; 12 is drawn more often, for its timing.
MEGAPIXELS = (1, 2, 3, 5, 8, 12, 12)


@dataclass
class Sheet:
    map: MarkMap
    image: Any  # the rasterised sheet, grey


def build_sheets(folder: Path, castle: Any) -> dict[tuple[str, str], Sheet]:
    """The real scan-ready sheets, as `donjon build` writes them, rasterised, and their maps (the same as the
    `.marks.json` beside each; the reader's, which also knows each field's type)."""
    from generator.pdfium_lock import page_grey

    subprocess.run([sys.executable, "-m", "generator", "build", "once-upon-a-castle", "--out", str(folder)],
                   check=True, cwd=REPO, stdout=subprocess.DEVNULL)
    sheets = {}
    for marks in sorted((folder / "score-sheets" / "once-upon-a-castle").glob("*.marks.json")):
        data = json.loads(marks.read_text(encoding="utf-8"))
        the_map = mark_map(castle, data["version"], data["paper"])
        assert json.loads(the_map.to_json()) == data, "the map written beside the sheet is the reader's"
        pdf = marks.with_name(marks.name.replace(".marks.json", ".pdf"))
        grey = page_grey(pdf, 0, scale=RENDER)  # pdfium one call at a time, nothing of it left to a finalizer
        sheets[(data["version"], data["paper"])] = Sheet(the_map, grey)
    return sheets


# --- a random valid game ---------------------------------------------------------------------------------------

def random_game(rng: random.Random, version: str, players: int, guests: list[str]) -> list[dict[str, Any]]:
    """Each player's values, by field of the map (`towers[0]` -> 5), as a valid finished game allows them."""
    sheets = []
    pool = guests[:]
    rng.shuffle(pool)
    for _ in range(players):
        values: dict[str, Any] = {}
        floors = rng.randint(0, 4)
        values["donjon_floors"] = floors
        towers = [rng.choice((2, 5)) if rng.random() < 0.7 else None for _ in range(4)]
        walls = [rng.random() < 0.7 for _ in range(4)]
        capacity = [1, 2, 2, 1]
        for i in range(4):
            values[f"towers[{i}]"] = towers[i]
            values[f"walls[{i}]"] = walls[i]
            for j in range(capacity[i]):
                values[f"walls[{i}].flags[{j}]"] = rng.choice((1, 2)) if walls[i] and rng.random() < 0.6 else None
        values["residents"] = rng.randint(0, 30)
        if version == "great-architect":
            values["sky_clouds"] = rng.choice((0, 0, 0, 1, 2, 3))
            count = min(len(pool), rng.randint(0, floors + 1))
            values["guests"] = [pool.pop() for _ in range(count)]
        else:
            for i in range(4):
                values[f"guests[{i}]"] = rng.randint(0, 10) if i < floors else None
        values["sun"] = False
        values["cloud"] = False
        sheets.append(values)
    full = [s for s in sheets if all(s[f"towers[{i}]"] is not None for i in range(4))]
    if full and rng.random() < 0.8:
        rng.choice(full)["sun"] = True
    done = [s for s in full if s["donjon_floors"] == 4 and all(s[f"walls[{i}]"] for i in range(4))]
    if done:
        rng.choice(done)["cloud"] = True
    return sheets


def digit_filled(mark: Any, value: Any) -> bool:
    """Whether a digit's mark is filled for `value`: a number written as digits fills its tens only from 10 on and
    its units unless it is 0 (anything but a whole number fills none)."""
    number = value if isinstance(value, int) and not isinstance(value, bool) else 0
    digit = number // 10 % 10 if mark.digit == "tens" else number % 10
    return number > 0 and (mark.digit == "units" or number >= 10) and mark.value == digit


def filled_marks(the_map: MarkMap, values: dict[str, Any]) -> list[bool]:
    """Which marks a player fills: digits as :func:`digit_filled` says (a tower built without a number fills its
    "built" mark alone)."""
    out = []
    for mark in the_map.marks:
        value = values.get(mark.field)
        if mark.digit is not None:
            out.append(digit_filled(mark, value))
        elif mark.value == "built":
            out.append(value is not None)
        elif mark.field in ("donjon_floors", "residents"):
            out.append(isinstance(mark.value, int) and mark.value <= (value or 0))
        elif mark.field == "guests":
            out.append(mark.value in (value or []))
        else:
            out.append(value is not None and value == mark.value)
    return out


# --- pencil -------------------------------------------------------------------------------------------------------

def _pencil(image: Any, mask: Any, rng: random.Random) -> None:
    """Graphite where `mask` is set: a grey tone with grain, some pixels skipped as a pencil skips."""
    tone = rng.uniform(55, 150)
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return
    grain = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 22, len(ys))
    keep = np.random.default_rng(rng.randrange(1 << 30)).random(len(ys)) < rng.uniform(0.78, 0.97)
    values = np.clip(tone + grain, 20, 230)
    current = image[ys, xs].astype(np.float64)
    image[ys[keep], xs[keep]] = np.minimum(current[keep], values[keep]).astype(np.uint8)


def fill(image: Any, mark: Mark, rng: random.Random) -> str:
    """Fill one mark as a player might; returns the style used."""
    k = RENDER
    cx, cy = (mark.x + mark.width / 2) * k, (mark.y + mark.height / 2) * k
    r = mark.width / 2 * k
    mask = np.zeros(image.shape, dtype=np.uint8)
    mm = 72 / 25.4 * k
    width = max(1, round(rng.uniform(0.45, 0.8) * mm))
    if mark.shape == "figure":
        # coloured in: the head and the body, not quite to the edges or a little past them
        s = mark.width * k / 100
        ox, oy = mark.x * k, mark.y * k
        spread = rng.uniform(0.8, 1.05)
        cv2.circle(mask, (round(ox + 50 * s), round(oy + 22 * s)), round(14 * s * spread), 1, -1)
        body = np.array([(19, 96), (19, 78), (30, 52), (50, 46), (70, 52), (81, 78), (81, 96)], dtype=np.float64)
        body = (body - (50, 75)) * spread + (50, 75)
        cv2.fillPoly(mask, [np.round(body * s + (ox, oy)).astype(np.int32)], 1)
        style = "figure"
    else:
        style = rng.choices(("full", "partial", "tick", "cross"), (0.55, 0.2, 0.15, 0.1))[0]
        dx, dy = rng.uniform(-0.15, 0.15) * r, rng.uniform(-0.15, 0.15) * r
        if style == "full":
            cv2.ellipse(mask, (round(cx + dx), round(cy + dy)), (round(r * rng.uniform(0.8, 1.05)),
                        round(r * rng.uniform(0.8, 1.05))), rng.uniform(0, 180), 0, 360, 1, -1)
        elif style == "partial":
            cv2.ellipse(mask, (round(cx + dx), round(cy + dy)), (round(r * rng.uniform(0.5, 0.75)),
                        round(r * rng.uniform(0.45, 0.7))), rng.uniform(0, 180), 0, 360, 1, -1)
        elif style == "tick":
            a = rng.uniform(-0.3, 0.3)
            pts = [(-0.6, 0.0), (-0.1, 0.55), (0.75, -0.75)]
            rot = [(x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)) for x, y in pts]
            poly = np.array([(cx + dx + x * r, cy + dy + y * r) for x, y in rot]).round().astype(np.int32)
            cv2.polylines(mask, [poly], False, 1, width)
        else:
            e = rng.uniform(0.6, 0.85) * r
            cv2.line(mask, (round(cx - e + dx), round(cy - e + dy)), (round(cx + e + dx), round(cy + e + dy)), 1, width)
            cv2.line(mask, (round(cx - e + dx), round(cy + e + dy)), (round(cx + e + dx), round(cy - e + dy)), 1, width)
    _pencil(image, mask, rng)
    return style


def stray(image: Any, mark: Mark, rng: random.Random, marks: tuple[Mark, ...]) -> bool:
    """A stroke near an empty mark, outside every mark (a slip of the pencil, a line of the castle drawn close by);
    False when no such stroke fits there."""
    k = RENDER
    mm = 72 / 25.4 * k
    cx, cy = (mark.x + mark.width / 2) * k, (mark.y + mark.height / 2) * k
    r = max(mark.width, mark.height) / 2 * k
    for _ in range(12):
        angle = rng.uniform(0, 2 * math.pi)
        start = r + rng.uniform(0.6, 2.0) * mm
        x0, y0 = cx + math.cos(angle) * start, cy + math.sin(angle) * start
        turn = angle + rng.choice((-1, 1)) * math.pi / 2 + rng.uniform(-0.3, 0.3)
        length = rng.uniform(2, 5) * mm
        x1, y1 = x0 + math.cos(turn) * length, y0 + math.sin(turn) * length
        width = max(1, round(rng.uniform(0.4, 0.7) * mm))
        # clear of every mark by 0.3 mm: a stroke inside a mark is a mark, not a stray one
        margin = 0.3 * mm + width
        steps = np.linspace(0, 1, 12)
        xs, ys = x0 + (x1 - x0) * steps, y0 + (y1 - y0) * steps
        if any(((xs > m.x * k - margin) & (xs < (m.x + m.width) * k + margin) & (ys > m.y * k - margin)
                & (ys < (m.y + m.height) * k + margin)).any() for m in marks
               if abs(m.x * k - cx) < 12 * mm and abs(m.y * k - cy) < 12 * mm):
            continue
        mask = np.zeros(image.shape, dtype=np.uint8)
        cv2.line(mask, (round(x0), round(y0)), (round(x1), round(y1)), 1, width)
        _pencil(image, mask, rng)
        return True
    return False


def scribble_name(image: Any, rng: random.Random, box: tuple[float, float, float, float]) -> None:
    k = RENDER
    x, y, w, h = (v * k for v in box)
    mask = np.zeros(image.shape, dtype=np.uint8)
    pts = [(x + w * 0.05 + i * w * 0.04, y + h * (0.35 + 0.3 * rng.random())) for i in range(rng.randint(6, 18))]
    cv2.polylines(mask, [np.array(pts).round().astype(np.int32)], False, 1, 3)
    _pencil(image, mask, rng)


# --- the photo ------------------------------------------------------------------------------------------------------

def photograph(sheet_image: Any, rng: random.Random, megapixels: float) -> tuple[bytes, dict[str, Any]]:
    """The filled sheet photographed: curled, tilted, turned, on a table, lit unevenly, blurred, noisy, JPEG."""
    h_s, w_s = sheet_image.shape
    aspect = 4 / 3
    long_side = math.sqrt(megapixels * 1e6 * aspect)
    W, H = round(long_side), round(long_side / aspect)
    if rng.random() < 0.5:
        W, H = H, W
    # the sheet in space: centred, turned about its normal by any angle, tilted up to 15 degrees
    turn = rng.uniform(0, 2 * math.pi)
    tilt = math.radians(rng.uniform(0, 15))
    tilt_dir = rng.uniform(0, 2 * math.pi)
    ax, ay = tilt * math.cos(tilt_dir), tilt * math.sin(tilt_dir)
    corners = np.array([(-w_s / 2, -h_s / 2), (w_s / 2, -h_s / 2), (w_s / 2, h_s / 2), (-w_s / 2, h_s / 2)])
    rz = np.array([[math.cos(turn), -math.sin(turn), 0], [math.sin(turn), math.cos(turn), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    rot = ry @ rx @ rz
    focal = 1.1 * max(W, H)
    pts3 = np.array([rot @ (x, y, 0) for x, y in corners])
    # the distance that makes the sheet fill 62 to 92 % of the frame
    fill_share = rng.uniform(0.62, 0.92)
    extent = max((pts3[:, 0].max() - pts3[:, 0].min()) / W, (pts3[:, 1].max() - pts3[:, 1].min()) / H)
    distance = focal * extent / fill_share
    projected = np.array([(focal * p[0] / (distance + p[2]) + W / 2, focal * p[1] / (distance + p[2]) + H / 2)
                          for p in pts3])
    shift = np.array([rng.uniform(-1, 1) * (W - (projected[:, 0].max() - projected[:, 0].min())) / 2 * 0.8,
                      rng.uniform(-1, 1) * (H - (projected[:, 1].max() - projected[:, 1].min())) / 2 * 0.8])
    projected += shift
    src = np.array([(0, 0), (w_s, 0), (w_s, h_s), (0, h_s)], dtype=np.float32)
    homography = cv2.getPerspectiveTransform(src, projected.astype(np.float32))
    inverse = np.linalg.inv(homography)
    # where each photo pixel comes from on the sheet, with the curl: a bulge across the sheet's width
    xs, ys = np.meshgrid(np.arange(W, dtype=np.float32), np.arange(H, dtype=np.float32))
    denom = inverse[2, 0] * xs + inverse[2, 1] * ys + inverse[2, 2]
    map_x = (inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]) / denom
    map_y = (inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]) / denom
    curl = rng.uniform(0, 2.5) * 72 / 25.4 * RENDER
    phase = rng.uniform(0, math.pi)
    if rng.random() < 0.5:
        map_y = map_y - curl * np.sin(np.pi * np.clip(map_x / w_s, 0, 1)) * np.cos(phase) * (map_y / h_s - 0.5) * 2
    else:
        map_x = map_x - curl * np.sin(np.pi * np.clip(map_y / h_s, 0, 1)) * np.cos(phase) * (map_x / w_s - 0.5) * 2
    del xs, ys, denom
    # a table under it
    table = np.full((H, W), rng.uniform(40, 160), dtype=np.float32)
    small = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 18, (H // 16 + 1, W // 16 + 1)).astype(np.float32)
    table += cv2.resize(small, (W, H), interpolation=cv2.INTER_CUBIC)
    photo = cv2.remap(sheet_image.astype(np.float32), map_x.astype(np.float32), map_y.astype(np.float32),
                      cv2.INTER_AREA if W * H < w_s * h_s * 0.5 else cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_CONSTANT, borderValue=-1)
    on_sheet = photo >= 0
    photo = np.where(on_sheet, photo, table)
    del map_x, map_y, table
    # light: a gradient across the photo and a shadow (a soft-edged band of a hand or a phone)
    gx, gy = rng.uniform(-1, 1), rng.uniform(-1, 1)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    light = 1.0 - rng.uniform(0.0, 0.35) * ((gx * (xx / W - 0.5) + gy * (yy / H - 0.5)) + 0.5)
    if rng.random() < 0.7:
        a = rng.uniform(0, math.pi)
        offset = rng.uniform(-0.3, 0.3) * max(W, H)
        d = (xx - W / 2) * math.cos(a) + (yy - H / 2) * math.sin(a) - offset
        soft = rng.uniform(0.01, 0.06) * max(W, H)
        light *= 1.0 - rng.uniform(0.2, 0.5) * (1 / (1 + np.exp(-d / soft)))
    photo *= light
    del xx, yy, light
    sigma = rng.uniform(0, 1.5) * math.sqrt(megapixels / 12)
    if sigma > 0.2:
        photo = cv2.GaussianBlur(photo, (0, 0), sigma)
    photo += np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 8), photo.shape).astype(np.float32)
    colour = cv2.cvtColor(np.clip(photo, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    # a warm cast, as indoor light gives
    colour = np.clip(colour.astype(np.int16) + np.array([-8, 0, 6], dtype=np.int16), 0, 255).astype(np.uint8)
    quality = rng.randint(50, 90)
    ok, encoded = cv2.imencode(".jpg", colour, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return encoded.tobytes(), {"megapixels": round(W * H / 1e6, 1), "size": [W, H], "turn": round(math.degrees(turn)),
                               "tilt": round(math.degrees(tilt), 1), "curl_mm": round(curl / (72 / 25.4 * RENDER), 2),
                               "blur": round(sigma, 2), "quality": quality}


# --- running -------------------------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=500, help="how many photos (default 500)")
    parser.add_argument("--seed", type=int, default=14, help="the random seed (default 14)")
    parser.add_argument("--keep", type=Path, help="keep the photos (and what each holds) in this folder")
    parser.add_argument("--no-report", action="store_true", help="print only; leave results.md as it is")
    parser.add_argument("--families", help="hard photos by family instead: 'all', or family names separated by "
                                           f"commas ({', '.join(photo_families.FAMILIES)})")
    parser.add_argument("--per-family", type=int, default=12, help="with --families: photos per family (default 12)")
    parser.add_argument("--sheet", type=Path,
                        help="with --families: photograph this sheet of one's own (its folder, with sheet.yaml and "
                             "its layout) instead of the castle's, each photo random valid values of its fields "
                             "(no report written)")
    parser.add_argument("--second-shot", action="store_true",
                        help="with --families: also take a second photo of each filled sheet (its glare and pose "
                             "drawn again, as a retake from another angle) and read the two as one sheet; prints the "
                             "pairs' right / asked / refused / wrong beside the single photos' (no report written)")
    args = parser.parse_args()
    if args.families:
        families(args)
        return
    rng = random.Random(args.seed)
    castle = load_content(content_dir(), games=[GAME.id]).game(GAME.id)
    guests = [g.id for g in castle.guests_of("great-architect")]
    work = Path(tempfile.mkdtemp(prefix="donjon-scan-bench-"))
    sheets = build_sheets(work, castle)
    sheet_kinds = kinds(castle)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    marks_total = right = undecided = wrong = 0
    games = games_flagged = games_wrong_unflagged = games_right = 0
    times: dict[int, list[float]] = {}
    styles: dict[str, int] = {}
    wrong_marks: list[dict[str, Any]] = []
    photos = 0
    started = time.time()
    last_12mp: bytes | None = None
    while photos < args.photos:
        version = rng.choice(("great-architect", "apprentice"))
        paper = rng.choice(("a4", "letter"))
        sheet = sheets[(version, paper)]
        players = min(rng.randint(1, 4), args.photos - photos)
        game = random_game(rng, version, players, guests)
        game_uncertain = False
        game_differs = False
        for player, values in enumerate(game):
            image = sheet.image.copy()
            truth = filled_marks(sheet.map, values)
            for mark, filled in zip(sheet.map.marks, truth):
                if filled:
                    style = fill(image, mark, rng)
                    styles[style] = styles.get(style, 0) + 1
                elif rng.random() < 0.08 and stray(image, mark, rng, sheet.map.marks):
                    styles["stray"] = styles.get("stray", 0) + 1
            box = sheet.map.write_in[0]
            scribble_name(image, rng, (box.x, box.y, box.width, box.height))
            megapixels = rng.choice(MEGAPIXELS)
            data, meta = photograph(image, rng, megapixels)
            name = f"photo-{photos:04d}.jpg"
            if args.keep:
                (args.keep / name).write_bytes(data)
                (args.keep / f"photo-{photos:04d}.json").write_text(json.dumps({**meta, "values": values}),
                                                                     encoding="utf-8")
            t0 = time.perf_counter()
            try:
                read = read_photo(data, name, sheet_kinds)
                reads = [r.state for r in read.reads]
                fills = [r.fill for r in read.reads]
                reading = read.reading
            except Exception as err:  # noqa: BLE001 - a photo the reader refuses counts against it
                print(f"{name}: refused: {err}", flush=True)
                reads = [None] * len(truth)
                fills = [0.0] * len(truth)
                reading = None
            elapsed = time.perf_counter() - t0
            times.setdefault(megapixels, []).append(elapsed)
            if megapixels == 12:
                last_12mp = data
            for mark, state, filled, ink in zip(sheet.map.marks, reads, truth, fills):
                marks_total += 1
                if state is None:
                    undecided += 1
                elif state == filled:
                    right += 1
                else:
                    wrong += 1
                    wrong_marks.append({"photo": name, "field": mark.field, "value": mark.value, "filled": filled,
                                        "ink": round(ink, 3), **meta})
                    # kept to be looked at (benchmarks/work/ is not in git)
                    kept = HERE / "work" / "wrong-photos"
                    kept.mkdir(parents=True, exist_ok=True)
                    (kept / name).write_bytes(data)
                    (kept / f"{name}.json").write_text(json.dumps({**meta, "values": values}), encoding="utf-8")
            expected = end_state_sheet(interpret(sheet.map, truth).values, {})[0]
            if reading is None or reading.uncertain:
                game_uncertain = True
            elif end_state_sheet(reading.values, {})[0] != expected:
                game_differs = True
            photos += 1
            if photos % 25 == 0:
                print(f"{photos} photos, {right / marks_total:.4%} of marks right, {undecided} undecided, {wrong} "
                      f"wrong, {time.time() - started:.0f} s", flush=True)
        games += 1
        if game_uncertain:
            games_flagged += 1
        elif game_differs:
            games_wrong_unflagged += 1
        else:
            games_right += 1
    cli = None
    if last_12mp is not None:
        photo = work / "twelve.jpg"
        photo.write_bytes(last_12mp)
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "generator", "score", str(photo)], cwd=REPO,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            runs.append(time.perf_counter() - t0)
        cli = statistics.median(runs)
    by_mp = {str(mp): {"photos": len(ts), "median_s": round(statistics.median(ts), 3), "max_s": round(max(ts), 3)}
             for mp, ts in sorted(times.items())}
    result = {
        "date": time.strftime("%Y-%m-%d"), "photos": photos, "games": games, "seed": args.seed,
        "cpu": _cpu(), "cores": os.cpu_count(),
        "marks": marks_total, "right": right, "undecided": undecided, "wrong": wrong,
        "right_share": right / marks_total, "games_right": games_right, "games_flagged": games_flagged,
        "games_wrong_unflagged": games_wrong_unflagged, "times": by_mp, "cli_12mp_s": cli, "styles": styles,
        "wrong_marks": wrong_marks[:50],
    }
    print(json.dumps({k: v for k, v in result.items() if k != "wrong_marks"}, indent=1))
    if not args.no_report:
        update_report(result)


def families(args: argparse.Namespace) -> None:
    """Hard photos, family by family (benchmarks/photo_families.py): read right, asked, refused, wrong."""
    from generator.errors import InputError

    names = list(photo_families.FAMILIES) if args.families == "all" else args.families.split(",")
    unknown = [n for n in names if n not in photo_families.FAMILIES]
    if unknown:
        raise SystemExit(f"unknown families: {', '.join(unknown)}")
    if args.sheet and args.second_shot:
        raise SystemExit("--second-shot is for the castle's sheets only")
    own = own_sheet(args.sheet) if args.sheet else None

    def own_around(r: random.Random) -> list[Any]:
        # another copy of the sheet (a second player's) and a card, for the clutter and two-sheets families
        assert own is not None
        return [photo_families.as_other(own[0]), photo_families.Other(photo_families.card(r, own[0].px_per_mm))]
    if own is not None:
        sheets: dict[tuple[str, str], photo_families.Sheet] = {}
        sheet_kinds: Any = [own[1]]
        guests: list[str] = []
    else:
        castle = load_content(content_dir(), games=[GAME.id]).game(GAME.id)
        guests = [g.id for g in castle.guests_of("great-architect")]
        work = Path(tempfile.mkdtemp(prefix="donjon-scan-bench-"))
        built = build_sheets(work, castle)
        sheets = {key: photo_families.Sheet(s.map, s.image, RENDER) for key, s in built.items()}
        sheet_kinds = kinds(castle)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    rows: dict[str, dict[str, Any]] = {}
    times: dict[int, list[float]] = {}
    started = time.time()
    for name in names:
        family = photo_families.FAMILIES[name]
        rng = random.Random(f"{args.seed}:{name}")
        row: dict[str, Any] = {"photos": 0, "right": 0, "asked": 0, "refused": 0, "wrong": 0, "marks_wrong": 0,
                               "must_ask_decided": 0, "confident_wrong": 0, "near_misses": [], "hidden_decided": 0, "blind": 0, "blind_lightest": 0, "right_seen": 0,
                               "clear": 0, "right_clear": 0, "target": family.target, "reasons": {}, "examples": []}
        for index in range(args.per_family):
            if own is not None:
                sheet = own[0]
                values = own_values(rng, sheet.map)
                filled = own_filled(sheet.map, values)
                label = f"{name}-{index:03d}.jpg"
                photo = photo_families.make(family, sheet, filled, f"{args.seed}-{index}", own_around)
                second = None
            else:
                photo, second, sheet, values, label = _castle_photo(args, rng, sheets, guests, family, name, index)
            t0 = time.perf_counter()
            try:
                read = read_photo(photo.data, label, sheet_kinds)
                states, reading, refusal = [r.state for r in read.reads], read.reading, ""
            except InputError as err:
                states, reading, refusal = None, None, getattr(err, "code", "") or str(err)
            elapsed = time.perf_counter() - t0
            if second is not None:
                pair = second_shot(sheet.map, photo, second, read if states is not None else None, label,
                                   sheet_kinds, refusal)
                pairs = rows.setdefault(f"{name} (pair)", {"photos": 0, "right": 0, "asked": 0, "refused": 0,
                                                          "wrong": 0, "marks_wrong": 0, "examples": []})
                pairs["photos"] += 1
                pairs[pair.outcome] += 1
                pairs["marks_wrong"] += pair.marks_wrong
                if pair.outcome == "wrong":
                    pairs["examples"].append({"photo": label, "wrong": pair.wrong[:4], "reason": pair.reason[:200]})
                    kept = HERE / "work" / "wrong-photos"
                    kept.mkdir(parents=True, exist_ok=True)
                    (kept / label).write_bytes(photo.data)
                    (kept / f"second-{label}").write_bytes(second.data)
            megapixels = round(photo.meta["megapixels"])
            times.setdefault(megapixels, []).append(elapsed)
            verdict = photo_families.judge(sheet.map, photo, states, reading, refusal)
            row["photos"] += 1
            row[verdict.outcome] += 1
            # a photo in which the camera cannot see some mark (under a finger, in glare that would drown pencil)
            # can at best be asked about (read as empty, it is right by luck)
            row["blind"] += bool(photo.hidden)
            # and one where, besides, an empty mark lies where the player's lightest line would drown
            row["blind_lightest"] += bool(photo.hidden or photo.faint)
            row["right_seen"] += verdict.outcome == "right" and not photo.hidden
            # a clear photo: no mark hidden nor faint, every mark one a reader could see with no guess; what it
            # reads right is the honest measure of the reader where the target counts luck too
            clear = not (photo.hidden or photo.faint)
            row["clear"] += clear
            row["right_clear"] += clear and verdict.outcome == "right"
            if clear and verdict.outcome == "asked" and reading is not None:
                asked = sorted({f"{u.field} ({getattr(u, 'code', '') or 'undecided'})" for u in reading.uncertain})
                print(f"  clear, asked: {label} {photo.meta.get('pen', '')}: {'; '.join(asked)[:300]}", flush=True)
            row["marks_wrong"] += verdict.marks_wrong
            row["must_ask_decided"] += verdict.must_ask_decided
            row["confident_wrong"] += verdict.confident_wrong
            row["hidden_decided"] += verdict.hidden_decided
            if verdict.confident_wrong:
                # which marks: a confident wrong read is a wrong score one answer away, even in an asked photo
                row["near_misses"] += [f"{label} {m.field}={m.value} read {s} truth {t}"
                                       for m, s, t in zip(sheet.map.marks, states or [], photo.truth)
                                       if s is not None and s != t]
            if reading is not None:
                for u in reading.uncertain:
                    key = getattr(u, "code", "") or "undecided"
                    row["reasons"][key] = row["reasons"].get(key, 0) + 1
            elif refusal:
                key = refusal if len(refusal) < 30 else "refused"
                row["reasons"][key] = row["reasons"].get(key, 0) + 1
            if verdict.outcome in ("wrong", "refused") and len(row["examples"]) < 5:
                row["examples"].append({"photo": label, "outcome": verdict.outcome, "wrong": verdict.wrong[:4],
                                        "reason": verdict.reason[:200], "meta": photo.meta})
            if args.keep or verdict.outcome == "wrong":
                kept = args.keep or HERE / "work" / "wrong-photos"
                kept.mkdir(parents=True, exist_ok=True)
                (kept / label).write_bytes(photo.data)
                (kept / f"{label}.json").write_text(json.dumps({"meta": photo.meta, "values": values,
                                                                "hidden": sorted(photo.hidden),
                                                                "faint": sorted(photo.faint),
                                                                "outcome": verdict.outcome,
                                                                "wrong": verdict.wrong}, default=str),
                                                    encoding="utf-8")
        rows[name] = row
        print(f"{name:18} {row['photos']:3} photos: {row['right']:3} right, {row['asked']:3} asked, "
              f"{row['refused']:3} refused, {row['wrong']:3} wrong ({row['marks_wrong']} marks wrong); "
              f"confidently wrong marks {row['confident_wrong']} ({row['must_ask_decided']} to be asked, decided); "
              f"blind {row['blind']} ({row['blind_lightest']} to the player's lightest line), clear {row['clear']} "
              f"({row['right_clear']} right), hidden marks decided "
              f"{row['hidden_decided']}; "
              f"{time.time() - started:.0f} s", flush=True)
        for miss in row["near_misses"]:
            print(f"  confidently wrong: {miss}", flush=True)
        pairs = rows.get(f"{name} (pair)")
        if pairs is not None:
            print(f"{name + ' (pair)':18} {pairs['photos']:3} pairs:  {pairs['right']:3} right, {pairs['asked']:3} "
                  f"asked, {pairs['refused']:3} refused, {pairs['wrong']:3} wrong ({pairs['marks_wrong']} marks "
                  f"wrong); {time.time() - started:.0f} s", flush=True)
            for example in pairs["examples"]:
                print(f"  wrong: {example}", flush=True)
    by_mp = {str(mp): {"photos": len(ts), "median_s": round(statistics.median(ts), 3), "max_s": round(max(ts), 3)}
             for mp, ts in sorted(times.items())}
    result = {"date": time.strftime("%Y-%m-%d"), "seed": args.seed, "per_family": args.per_family, "cpu": _cpu(),
              "cores": os.cpu_count(), "load": os.getloadavg()[0], "families": rows, "times": by_mp}
    print(json.dumps({k: v for k, v in result.items() if k != "families"}, indent=1))
    if own is not None:
        result["sheet"] = str(args.sheet)
    if not args.no_report and args.families == "all" and not args.second_shot and own is None:
        update_families(result)


def _castle_photo(args: argparse.Namespace, rng: random.Random, sheets: dict[tuple[str, str], photo_families.Sheet],
                  guests: list[str], family: Any, name: str, index: int) -> tuple[Any, Any, Any, Any, str]:
    """One photo of `family` of a random valid castle of a random version and paper (and its retake with
    `--second-shot`): the photo, its second or None, the sheet, the values filled and the photo's name."""
    version = rng.choice(("great-architect", "apprentice"))
    paper = rng.choice(("a4", "letter"))
    sheet = sheets[(version, paper)]
    values = random_game(rng, version, 1, guests)[0]
    filled = filled_marks(sheet.map, values)
    others = [sheets[(("apprentice" if version == "great-architect" else "great-architect"), paper)]]

    def around(r: random.Random, others: list[photo_families.Sheet] = others) -> list[Any]:
        return [photo_families.as_other(o) for o in others] + [
            photo_families.Other(photo_families.card(r, others[0].px_per_mm))]

    label = f"{name}-{index:03d}.jpg"
    second = None
    if args.second_shot:
        photo, second = photo_families.make_pair(family, sheet, filled, f"{args.seed}-{index}", around)
    else:
        photo = photo_families.make(family, sheet, filled, f"{args.seed}-{index}", around)
    return photo, second, sheet, values, label


def own_sheet(folder: Path) -> tuple[photo_families.Sheet, Any]:
    """A sheet of one's own (its folder) drawn scan-ready on A4 and rasterised, with the reader's kind for it."""
    import io

    from generator.backends.pdf import write_pdf
    from generator.games.sheet_game import SheetGame
    from generator.pdfium_lock import page_grey
    from generator.sheets.own import load_sheet

    user_sheet, problems = load_sheet(folder.resolve())
    if user_sheet is None:
        raise SystemExit("\n".join(str(p) for p in problems))
    game = SheetGame(user_sheet)
    drawn = game.drawn("scan", "a4")
    buffer = io.BytesIO()
    write_pdf([drawn.page()], buffer, title=folder.name)
    grey = page_grey(buffer.getvalue(), scale=RENDER)
    return photo_families.Sheet(drawn.map, grey, RENDER), game.kind()


def own_values(rng: random.Random, the_map: MarkMap) -> dict[str, Any]:
    """Random values of an own sheet's fields, each among those its marks allow (a count up to its largest)."""
    from generator.sheets.marks import largest

    allowed: dict[str, list[Any]] = {}
    for mark in the_map.marks:
        allowed.setdefault(mark.field, []).append(mark.value)
    values: dict[str, Any] = {}
    for field, kind in the_map.types.items():
        if field not in allowed:
            continue
        if kind == "count":
            values[field] = rng.randint(0, largest(the_map, field) or 0)
        elif kind == "choice":
            values[field] = rng.choice(allowed[field])
        elif kind == "yes-no":
            values[field] = rng.random() < 0.5 or None
        elif kind == "list":
            values[field] = [v for v in allowed[field] if rng.random() < 0.4]
    return values


def own_filled(the_map: MarkMap, values: dict[str, Any]) -> list[bool]:
    """Which marks a player fills for `values`: digits as on the castle's sheets, a count's marks from the first."""
    out = []
    for mark in the_map.marks:
        value = values.get(mark.field)
        if mark.digit is not None:
            out.append(digit_filled(mark, value))
        elif the_map.types.get(mark.field) == "count":
            out.append(isinstance(mark.value, int) and not isinstance(mark.value, bool) and mark.value <= (value or 0))
        elif isinstance(value, list):
            out.append(mark.value in value)
        else:
            out.append(value is not None and value == mark.value)
    return out


def second_shot(the_map: MarkMap, first: Any, second: Any, first_read: Any, label: str, sheet_kinds: Any,
                refused: str) -> Any:
    """Two photos of one filled sheet read as one (generator.sheets.photos.combine), judged against the sheet: a
    mark hidden from the camera in both photos can at best be asked about; one hidden in a single photo is seen in
    the other."""
    from dataclasses import replace

    from generator.errors import InputError
    from generator.sheets.photos import combine

    states, reading, refusal = None, None, refused  # the first photo refused: so is the sheet
    if first_read is not None:
        try:
            read = combine([first_read, read_photo(second.data, f"second-{label}", sheet_kinds)])
            states, reading, refusal = [r.state for r in read.reads], read.reading, ""
        except InputError as err:
            refusal = getattr(err, "code", "") or str(err)
    both = replace(first, hidden=first.hidden & second.hidden, refuse=first.refuse or second.refuse)
    return photo_families.judge(the_map, both, states, reading, refusal)


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"


if __name__ == "__main__":
    main()
