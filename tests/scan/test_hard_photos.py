"""Hard photos, family by family (benchmarks/photo_families.py): circled marks, scribbles, residents coloured in
part, rubbed-out ghosts, light 2H ticks, glare, hard shadows, a finger, folds, curl at an angle, blur, clutter, low
light... The property: **no photo of any family is scored wrong without a flag**. A field read wrong must be asked
about; a photo that cannot be read is refused with its reason.

A few seeds per family here (photos of 3 megapixels from sheets rasterised at 150 dpi, so the run stays short);
`pytest -m fuzz` runs many more, and `benchmarks/scan_photos.py --families all` measures the shares of photos read
right, asked about and refused, at full size.
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from hypothesis import settings

pytest.importorskip("cv2")

from generator.errors import InputError  # noqa: E402
from generator.games.castle.sheets import kinds  # noqa: E402
from generator.sheets.marks import MarkMap  # noqa: E402
from generator.sheets.photo_reasons import FIELD_CAUSES, REFUSALS, PhotoRefused  # noqa: E402
from generator.sheets import photos  # noqa: E402
from generator.sheets.photos import PhotoRead, read_photo  # noqa: E402
from tests.scan.helpers import RENDER, marks_for, sheet_image  # noqa: E402
from tests.sheets.helpers import REPO, shipped  # noqa: E402

sys.path.insert(0, str(REPO / "benchmarks"))
families: Any = importlib.import_module("photo_families")
bench: Any = importlib.import_module("scan_photos")

#: The seeds each family is photographed with here; the property at length takes FUZZ_SEEDS more: 20 with the fuzz
#: profile (`-m fuzz`), 2 in the normal run, as every fuzzing property's budget follows the profile (tests/conftest.py).
SEEDS = (1, 2)
FUZZ_SEEDS = range(100, 120 if settings().max_examples >= settings.get_profile("fuzz").max_examples else 102)
#: Photos of this size here (the low-resolution family keeps its own, smaller).
MEGAPIXELS = 3.0


@cache
def castle_sheet(version: str, paper: str) -> Any:
    the_map, image = sheet_image(version, paper)
    return families.Sheet(the_map, image, RENDER)


def castle_photo(family_name: str, seed: int) -> tuple[Any, Any]:
    """A random valid castle of the seed's version and paper, filled and photographed as the family does."""
    family = families.FAMILIES[family_name]
    if max(family.camera.megapixels) > MEGAPIXELS:
        family = replace(family, camera=replace(family.camera, megapixels=(MEGAPIXELS,)))
    rng = random.Random(f"{family_name}:{seed}")
    version = ("great-architect", "apprentice")[seed % 2]
    paper = ("a4", "letter")[seed // 2 % 2]
    sheet = castle_sheet(version, paper)
    guests = [g.id for g in shipped().guests_of("great-architect")]
    values = bench.random_game(rng, version, 1, guests)[0]
    other = castle_sheet("apprentice" if version == "great-architect" else "great-architect", paper)

    def around(r: random.Random) -> list[Any]:
        return [families.as_other(other), families.Other(families.card(r, sheet.px_per_mm))]

    return sheet, families.make(family, sheet, marks_for(sheet.map, values), seed, around)


def judged(sheet: Any, photo: Any, kinds_: Sequence[Any]) -> tuple[Any, PhotoRead | None, PhotoRefused | None]:
    try:
        read = read_photo(photo.data, "photo.jpg", kinds_)
    except PhotoRefused as err:
        return families.judge(sheet.map, photo, None, None, err.code), None, err
    return families.judge(sheet.map, photo, [r.state for r in read.reads], read.reading), read, None


@cache
def judged_castle(family_name: str, seed: int) -> tuple[Any, Any, Any, PhotoRead | None, PhotoRefused | None]:
    """:func:`castle_photo` and its reading judged, made once per session: several tests look at the same photo, and
    the photo (seeded) and its reading are the same each time. Kept without what weighs megabytes and nothing here
    looks at: the photo's grey image, a refusal's traceback (its frames hold the images)."""
    sheet, photo = castle_photo(family_name, seed)
    verdict, read, refused = judged(sheet, photo, kinds(shipped()))
    return (sheet, photo, verdict, None if read is None else replace(read, grey=None),
            None if refused is None else refused.with_traceback(None))


def check_castle(family_name: str, seed: int) -> tuple[Any, Any, Any, PhotoRead | None, PhotoRefused | None]:
    """The castle photo of the family and seed, and its reading checked as :func:`check` checks it."""
    sheet, photo, *judgement = judged_castle(family_name, seed)
    return (sheet, photo, *checked(photo, *judgement))


def check(sheet: Any, photo: Any, kinds_: Sequence[Any]) -> tuple[Any, PhotoRead | None, PhotoRefused | None]:
    return checked(photo, *judged(sheet, photo, kinds_))


def checked(photo: Any, verdict: Any, read: PhotoRead | None,
            refused: PhotoRefused | None) -> tuple[Any, PhotoRead | None, PhotoRefused | None]:
    """The reading of `photo` (or its refusal): never scored wrong, every refusal and every question said."""
    assert verdict.outcome != "wrong", (photo.meta, verdict.wrong, verdict.reason)
    if refused is not None:
        assert refused.code in REFUSALS and str(refused).startswith("photo.jpg: "), str(refused)
    if read is not None:
        # every field asked about says why, as a code the companion can word, and as a sentence
        assert all(u.code in FIELD_CAUSES and u.why for u in read.reading.uncertain), read.reading.uncertain
        assert {u.field for u in read.reading.uncertain} == {f for i in read.issues for f in i.fields}
    return verdict, read, refused


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("family", list(families.FAMILIES))
def test_no_photo_of_any_family_is_scored_wrong_without_a_flag(family: str, seed: int) -> None:
    sheet, photo, verdict, read, refused = check_castle(family, seed)
    if photo.refuse:
        assert refused is not None and refused.code == photo.refuse, verdict
    if photo.hidden and read is not None:
        # what the camera could not see is never read as empty: asked about, or (glare takes ink, never adds it)
        # read filled where its ink still shows
        for index in photo.hidden:
            assert read.reads[index].state is not False or photo.truth[index] is False, (index, photo.meta)


@pytest.mark.fuzz
@pytest.mark.parametrize("family", list(families.FAMILIES))
def test_no_photo_of_any_family_is_scored_wrong_without_a_flag_at_length(family: str) -> None:
    for seed in FUZZ_SEEDS:
        sheet, photo = castle_photo(family, seed)
        check(sheet, photo, kinds(shipped()))


@pytest.mark.parametrize("family", ["clean", "perspective", "rotation", "wood", "jpeg", "noise", "hard-shadow",
                                   "curl"])
def test_clean_and_everyday_photos_are_read_without_a_question(family: str) -> None:
    """A visible tick, cross or fill in HB pencil, ballpoint or felt tip is read, not asked about."""
    for seed in SEEDS:
        sheet, photo, verdict, read, _ = check_castle(family, seed)
        assert verdict.outcome == "right", (photo.meta, read.reading.uncertain if read else None)


def test_glare_over_marks_is_reported_as_glare_with_its_fields() -> None:
    from generator.sheets.photo_reasons import PhotoIssue

    found: list[PhotoIssue] = []
    for seed in range(1, 12):
        _, _, _, read, _ = check_castle("glare", seed)
        if read is not None and read.issues:
            found.extend(i for i in read.issues if i.code == "glare")
        if found:
            break
    assert found, "no glare photo reported glare"
    issue = found[0]
    assert issue.fields and issue.sentence.startswith("glare over ") and issue.fields[0] in issue.sentence
    assert str(issue).endswith(": Light shone on these marks: look at the sheet and set it, or add another photo of it "
                               "with the phone tilted, so that the shine moves off them; it is added to this one, not "
                               "put in its place, and donjon reads the two together.")
    assert issue.to_dict()["code"] == "glare"


def test_a_finger_over_marks_makes_them_asked_about_as_covered() -> None:
    sheet, photo, _, read, _ = check_castle("finger-over-marks", 1)
    assert read is not None and photo.hidden
    hidden_fields = {sheet.map.marks[i].field for i in photo.hidden}
    asked = {u.field: u.code for u in read.reading.uncertain}
    assert hidden_fields <= set(asked), (hidden_fields, asked)
    assert "covered" in {asked[f] for f in hidden_fields}


def test_two_whole_sheets_are_refused_and_clutter_partly_in_frame_is_not() -> None:
    _, _, _, _, refused = check_castle("two-sheets", 1)
    assert refused is not None and refused.code == "two-sheets"
    assert str(refused) == "photo.jpg: shows more than one whole sheet: Put the other sheets and cards away, out of " \
                           "the frame: one sheet per photo."
    _, photo, verdict, read, _ = check_castle("clutter", 2)
    assert read is not None and "partial: 2" in photo.meta["clutter"], photo.meta
    assert verdict.outcome == "right", read.reading.uncertain


def test_a_blurred_photo_is_refused_before_any_mark_is_read_and_a_soft_one_is_read() -> None:
    blurred = replace(families.FAMILIES["blur"], camera=replace(families.FAMILIES["blur"].camera, blur_mm=(0.8, 0.8),
                                                                motion_mm=(0.0, 0.0), megapixels=(MEGAPIXELS,)))
    sheet = castle_sheet("great-architect", "a4")
    filled = marks_for(sheet.map, {"towers[0]": 5, "walls[0]": True, "residents": 4})
    photo = families.make(blurred, sheet, filled, 1)
    with pytest.raises(PhotoRefused) as refused:
        read_photo(photo.data, "soft.jpg", kinds(shipped()))
    assert refused.value.code == "blurred"
    assert str(refused.value).startswith("soft.jpg: is blurred (its corner squares' edges are ")
    assert str(refused.value).endswith(" mm soft): Hold the phone still (elbows on the table), tap the sheet on the "
                                       "screen to focus, then shoot.")
    soft = replace(blurred, camera=replace(blurred.camera, blur_mm=(0.2, 0.2)))
    photo = families.make(soft, sheet, filled, 1)
    read = read_photo(photo.data, "soft.jpg", kinds(shipped()))
    assert read.reading.uncertain == () and 0.3 < read.located.blur < photos.BLURRED_MM


def test_marks_are_read_where_a_curled_sheet_moved_them() -> None:
    """On a curled sheet shot at an angle, marks sit millimetres from where the four markers place them: each is
    read where its printed outline is (and `--annotate` draws it there)."""
    sheet, photo, _, read, _ = check_castle("curl", 1)
    assert read is not None and read.reading.uncertain == ()
    moved = max(abs(r.x - m.x) + abs(r.y - m.y) for m, r in zip(sheet.map.marks, read.reads, strict=True))
    assert moved > 72 / 25.4, f"no mark moved more than a millimetre (curl {photo.meta['curl_mm']} mm)"


# --- a sheet of one's own --------------------------------------------------------------------------------------------

OWN_FAMILIES = ("clean", "circled", "curl", "glare", "light-ticks")


@pytest.fixture(scope="module")
def own() -> Iterator[tuple[Any, Any]]:
    from generator.games.sheet_game import SheetGame
    from generator.sheets.own import load_sheet
    from tests.scan.helpers import rendered

    examples = REPO / "content" / "examples" / "sheets"
    loaded, problems = load_sheet(examples / "lantern-harbour", examples)
    assert loaded is not None, problems
    game = SheetGame(loaded)
    drawn = game.drawn("scan", "a4")
    assert drawn.map is not None
    yield families.Sheet(drawn.map, rendered(drawn.page()), RENDER), game.kind()


def random_values(the_map: MarkMap, rng: random.Random) -> dict[str, Any]:
    """Random values for any sheet's fields, by their types."""
    values: dict[str, Any] = {}
    choices: dict[str, list[Any]] = {}
    for mark in the_map.marks:
        choices.setdefault(mark.field, []).append(mark.value)
    for name, options in choices.items():
        kind = the_map.types.get(name)
        if kind == "count":
            values[name] = rng.randint(0, len(options))
        elif kind == "yes-no":
            values[name] = rng.random() < 0.5
        elif kind == "list":
            values[name] = [v for v in options if rng.random() < 0.4]
        else:
            values[name] = rng.choice([None, *options])
    return values


@pytest.mark.parametrize("family", OWN_FAMILIES)
def test_a_sheet_of_ones_own_is_never_scored_wrong_without_a_flag(own: tuple[Any, Any], family: str) -> None:
    sheet, kind = own
    rng = random.Random(family)
    filled = marks_for(sheet.map, random_values(sheet.map, rng))
    camera = families.FAMILIES[family].camera
    photo = families.make(replace(families.FAMILIES[family], camera=replace(camera, megapixels=(MEGAPIXELS,))), sheet,
                          filled, 1)
    verdict, _, _ = check(sheet, photo, [kind])
    if family == "clean":
        assert verdict.outcome == "right"


def test_photo_issues_and_refusals_are_data(tmp_path: Any) -> None:
    """The reader's reasons as the table companion shows them: a code, the fields, a sentence, what to change."""
    from generator.sheets.photo_reasons import field_issues
    from generator.sheets.marks import Uncertainty

    issues = field_issues([Uncertainty("towers[1]", "…", "glare"), Uncertainty("residents", "…", "faint"),
                           Uncertainty("towers[2]", "…", "glare")])
    assert [(i.code, i.fields) for i in issues] == [("glare", ("towers[1]", "towers[2]")), ("faint", ("residents",))]
    assert issues[0].sentence == "glare over towers[1] and towers[2]" and issues[0].advice.startswith("Light shone")
    with pytest.raises(InputError) as refused:
        read_photo(b"\xff\xd8\xff" + b"\x00" * 10, "x.jpg", kinds(shipped()))
    assert not isinstance(refused.value, PhotoRefused)  # not a photo at all: no photo reason
