"""The result picture draws every player's name: what Open Sans lacks (emoji, Chinese, Japanese) in a font of the
machine that has it, and what no font has as "?", never the empty box a font draws for a glyph it has not."""

from __future__ import annotations

import io
import os
import unicodedata
from typing import Any

import pytest

from generator.render import picture_text
from generator.web import share

#: A character of Unicode's private use plane 15: no font has it, on any machine.
NOWHERE = "\U000F0000"
#: A Chinese name and an emoji with a skin tone and a zero-width joiner (an astronaut): what Open Sans has not.
CJK_EMOJI = "王小明 👩🏽\u200d🚀"


def game(names: list[str]) -> dict[str, Any]:
    players = [{"name": name, "place": place, "score": 30 - place, "breakdown": {"vp": 3}}
               for place, name in enumerate(names, 1)]
    return {"result": {"players": players, "winner": names[0]}, "team": [], "played_at": "2026-11-28T02:00",
            "end_state": {}}


def picture(names: list[str]) -> bytes:
    return share.result_png(game(names), "Guildhall", {"vp": "VP"})


def cmap(face: tuple[str, int]) -> set[int]:
    from fontTools.ttLib import TTFont

    with TTFont(face[0], fontNumber=face[1], lazy=True) as font:
        return set(font.getBestCmap())


def visible(text: str) -> str:
    """`text` without what only changes the character before it (zero-width joiner, skin tone)."""
    return "".join(c for c in text if unicodedata.category(c) != "Cf" and not 0x1F3FB <= ord(c) <= 0x1F3FF)


def test_a_character_no_font_has_is_drawn_as_a_question_mark_not_a_box() -> None:
    # in the name and in "… wins.", which names the winner
    assert picture([f"Ana{NOWHERE}", "Bo"]) == picture(["Ana?", "Bo"])


@pytest.mark.parametrize("bold", [True, False])
def test_each_character_of_an_emoji_and_cjk_name_is_drawn_in_a_font_that_has_it(bold: bool) -> None:
    drawn = picture_text.runs(CJK_EMOJI, bold)
    for run, face in drawn:
        missing = [c for c in run if ord(c) not in cmap(face)]
        assert not missing, (run, face)
    # every character the name has is there, or said as "?" (a joiner or skin tone goes with its emoji)
    seen = visible("".join(run for run, _ in drawn))
    assert len(seen) == len(visible(CJK_EMOJI))
    for char, shown in zip(visible(CJK_EMOJI), seen, strict=True):
        assert shown in (char, picture_text.MISSING)
        if shown == picture_text.MISSING:  # said as "?" only where no font of the machine has it
            assert picture_text.fallback(char, bold) is None


def test_without_fontconfig_the_name_is_drawn_with_question_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    picture_text.fallback.cache_clear()
    monkeypatch.setenv("PATH", "")
    try:
        assert [run for run, _ in picture_text.runs("王 Ana", True)] == ["? Ana"]
        assert picture(["王小明", "Bo"]) == picture(["???", "Bo"])
    finally:
        picture_text.fallback.cache_clear()


def test_the_picture_of_a_cjk_and_emoji_name_is_the_same_bytes_each_time() -> None:
    from PIL import Image

    one = picture([CJK_EMOJI, "Bo"])
    assert picture([CJK_EMOJI, "Bo"]) == one
    assert Image.open(io.BytesIO(one)).width == share.WIDTH


def test_where_the_machine_has_the_fonts_the_name_is_not_question_marks() -> None:
    if picture_text.fallback("王", True) is None or picture_text.fallback("🚀", True) is None:
        # CI installs them (.ci/run): there a missing font is a failure, not a skipped test
        assert not os.environ.get("DONJON_REQUIRE_FONTS"), "no font on this machine has 王 or 🚀"
        pytest.skip("no font on this machine has 王 or 🚀 (Debian: fonts-wqy-microhei or fonts-noto-cjk, "
                    "fonts-noto-color-emoji)")
    assert picture([CJK_EMOJI, "Bo"]) != picture(["??? ?", "Bo"])
    assert "".join(run for run, _ in picture_text.runs(CJK_EMOJI, True)) == CJK_EMOJI


#: Names whose characters as a reader sees them (Unicode's grapheme clusters) are each several code points, written
#: out here by hand: an emoji family (zero-width joiners), a thumb with a skin tone, two flags (pairs of regional
#: indicators), accents typed as combining marks, a Devanagari conjunct with its vowel sign, Hangul in jamo.
CLUSTERED = (
    ["A", "n", "a", " ", "👨\u200d👩\u200d👧\u200d👦", "👍🏽", "🇫🇷", "🇩🇪", "👩🏽\u200d🚀"],
    ["Z", "o", "e\u0301", " ", "A", "n", "a", "i\u0308", "s", " ", "N", "g\u0303", "u\u0323\u0302", "y"],
    ["न", "म", "स\u094d\u0924\u0947", " ", "क\u094d\u0937\u093f", "ज"],
    ["\u1100\u1161\u11a8", "\u1100\u1161", " ", "\u1112\u1161\u11ab", "\u1100\u1173\u11af"],
)


@pytest.mark.parametrize("clusters", CLUSTERED, ids=["emoji", "combining", "devanagari", "jamo"])
def test_a_name_too_long_for_the_picture_is_cut_between_whole_characters(clusters: list[str]) -> None:
    """The picture cuts a name too wide for its line with "…": never inside an emoji made of several (the family
    falling apart into its people, a flag into letters), nor between a letter and its accent ("Zoé" is not
    "Zoe…"). At every width the cut keeps as many whole characters as fit, the "…" included."""
    name = "".join(clusters)
    full = picture_text.text_length(name, True, 44)
    for width in range(0, int(full) + 8):
        cut = share._fit(name, True, 44, width)
        if cut == name:
            assert full <= width
            continue
        assert picture_text.text_length(cut, True, 44) <= width, (width, cut)
        if cut == "":
            continue  # not even one character and the "…" fit
        assert cut.endswith("…"), (width, cut)
        kept = [k for k in range(1, len(clusters)) if "".join(clusters[:k]).rstrip() == cut[:-1].rstrip()]
        assert kept, f"at {width} px the cut {cut!r} splits a character of {clusters}"
        longer = "".join(clusters[:kept[-1] + 1]).rstrip() + "…"
        assert picture_text.text_length(longer, True, 44) > width, f"at {width} px {longer!r} fits, not only {cut!r}"


def test_a_name_typed_with_combining_accents_keeps_them() -> None:
    """A phone may send "Anaïs" as an i and a combining diaeresis (and "Nguyễn" with two stacked marks): Open Sans
    has the accented letters but not every combining mark, so the picture draws the name composed, as the
    page shows it, never "Anais"."""
    for decomposed in ("Anai\u0308s", "Nguye\u0302\u0303n"):
        composed = unicodedata.normalize("NFC", decomposed)
        assert composed != decomposed and picture([decomposed, "Ben"]) == picture([composed, "Ben"])
        assert picture_text.runs(decomposed, True) == picture_text.runs(composed, True)


def test_the_note_under_a_house_value_stays_within_the_pictures_margins() -> None:
    """A score resting on a house value is said so under the table: in German the note ran on one line to the
    picture's right edge (1,072 of its 1,080 px), past the 60 px margin every other line keeps."""
    from PIL import Image

    from generator.i18n import language

    approximate = game(["Ana", "Ben"])
    approximate["result"]["players"][0]["inferred"] = True
    drawn = Image.open(io.BytesIO(share.result_png(approximate, "Guildhall", {"vp": "VP"}, language("de"))))
    rgb = drawn.convert("RGB")
    data, paper = rgb.tobytes(), sum(share.PAPER)
    ink = [x for y in range(250, rgb.height) for x in range(rgb.width)
           if abs(sum(data[3 * (y * rgb.width + x):3 * (y * rgb.width + x) + 3]) - paper) > 60]
    assert ink and max(ink) <= share.WIDTH - 60


def test_a_breakdowns_number_stays_on_the_line_of_its_label() -> None:
    """A breakdown wrapped between a part's name and its points left the number alone on the next line
    ("Bohémienne†" / "1" in French), where it read as a score of its own."""
    from PIL import Image, ImageDraw

    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    font = picture_text.font(False, 30)
    text = "Tours 9, Soleil 0, Nuage de fin 0, Habitants coloriés 9, Drapeaux 3, Courtisane† 2, Bohémienne† 1"
    for width in range(200, 1200, 7):
        lines = share._wrapped(scratch, text, font, width)
        assert " ".join(lines) == text
        assert not any(line.split(" ")[0].rstrip(",").isdigit() for line in lines), (width, lines)


def test_a_long_games_name_is_cut_within_the_pictures_margins() -> None:
    """A sheet of one's own is named by its designer, at any length: the title ran off the picture's right edge."""
    from PIL import Image

    drawn = Image.open(io.BytesIO(share.result_png(game(["Ana", "Bo"]), "The Lantern Harbour Guild of Night Fishers "
                                                   "and Their Boats", {"vp": "VP"}))).convert("RGB")
    data, width = drawn.tobytes(), drawn.width
    white = [x for y in range(20, 100) for x in range(width)
             if min(data[3 * (y * width + x):3 * (y * width + x) + 3]) > 200]  # the title, white on the band
    assert white and max(white) <= share.WIDTH - 60
