"""Imposition on the model: how many cards fit, where they go, crop marks, duplex backs and the page line."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import UsageError
from generator.render.model import Drawing, Line, Page, TextRun, mm
from generator.render.imposition import (
    PAPERS,
    PageHeading,
    PrintOptions,
    crop_marks,
    grid,
    page_count,
    pages,
    paper_size,
)

POKER = (mm(63), mm(88))


@pytest.mark.parametrize(("paper", "orientation", "cols", "rows"), [
    ("a4", "portrait", 3, 3), ("letter", "portrait", 3, 3),
    ("a4", "landscape", 4, 2), ("letter", "landscape", 4, 2),
])
def test_nine_poker_cards_on_a4_and_letter(paper: str, orientation: str, cols: int, rows: int) -> None:
    g = grid(*POKER, PrintOptions(paper=paper, orientation=orientation))
    assert (g.cols, g.rows) == (cols, rows)
    # centred
    assert g.x0 == pytest.approx(g.page_w - g.x0 - g.width)
    assert g.y0 == pytest.approx(g.page_h - g.y0 - g.height)


def test_page_sizes() -> None:
    assert PAPERS["a4"] == pytest.approx((mm(210), mm(297)))
    assert PAPERS["letter"] == (612.0, 792.0)
    assert PrintOptions(paper="letter", orientation="landscape").page_size == (792.0, 612.0)


def test_bleed_and_gutter_space_the_cards() -> None:
    g = grid(*POKER, PrintOptions(orientation="landscape", bleed=mm(3), gutter=mm(2)))
    assert g.step_x == pytest.approx(mm(63 + 6 + 2))
    x0, _ = g.slot(0)
    x1, _ = g.slot(1)
    assert x1 - x0 == pytest.approx(mm(71))
    assert x0 - g.x0 == pytest.approx(mm(3))  # the trim box sits inside its bleed


def test_cards_too_big_for_the_paper() -> None:
    # too big for any paper: the same advice whichever orientation was asked for (no "try landscape", then
    # "try portrait")
    for way in ("portrait", "landscape"):
        with pytest.raises(UsageError, match=r"card fits on no paper donjon knows .* \(--format svg\)"):
            grid(mm(350), mm(450), PrintOptions(orientation=way))
    # a paper that holds it is named: the smallest (Tabloid, 11 x 17 in, is a little smaller than A3)
    with pytest.raises(UsageError, match=r"does not fit on A4 portrait paper inside the margins; try --paper tabloid$"):
        grid(mm(250), mm(300), PrintOptions())
    with pytest.raises(UsageError, match="does not fit on A4 portrait paper inside the margins; try --orientation "
                                         "landscape"):
        grid(mm(250), mm(180), PrintOptions())
    with pytest.raises(UsageError, match="does not fit on Letter portrait .*; try --paper a4"):
        grid(mm(195), mm(262), PrintOptions(paper="letter"))


def test_papers_of_every_size_hold_cards() -> None:
    # A3 is A4 doubled: twice the poker cards (16 against 9 in portrait... 4 x 4 against 3 x 3)
    assert grid(*POKER, PrintOptions(paper="a3")).per_page == 16
    assert grid(*POKER, PrintOptions(paper="a5", orientation="landscape")).per_page == 3
    assert grid(*POKER, PrintOptions(paper="tabloid")).per_page == 16
    assert grid(*POKER, PrintOptions(paper="legal", orientation="landscape")).per_page == 10  # 5 x 2
    custom = grid(*POKER, PrintOptions(paper="330x480mm"))
    assert (custom.page_w, custom.page_h) == pytest.approx((mm(330), mm(480)))
    assert paper_size("12x18in") == pytest.approx((864.0, 1296.0))
    with pytest.raises(ValueError):
        paper_size("huge")


def _inside(x: float, y: float, box: tuple[float, float, float, float]) -> bool:
    bx, by, bw, bh = box
    return bx - 1e-6 < x < bx + bw + 1e-6 and by - 1e-6 < y < by + bh + 1e-6


@pytest.mark.parametrize("options", [
    PrintOptions(), PrintOptions(bleed=mm(3), orientation="landscape"), PrintOptions(gutter=mm(4)),
    PrintOptions(paper="letter", bleed=mm(3.175), crop_length=mm(8), crop_width=1.0),
])
def test_crop_marks_extend_trim_lines_and_never_touch_a_card(options: PrintOptions) -> None:
    g = grid(*POKER, options)
    for count in (g.per_page, 2, 1):
        marks = [m for m in crop_marks(g, count, options) if isinstance(m, Line)]
        assert marks and all(m.width == options.crop_width for m in marks)
        boxes = []
        for i in range(count):
            x, y = g.slot(i)
            boxes.append((x - g.bleed, y - g.bleed, g.card_w + 2 * g.bleed, g.card_h + 2 * g.bleed))
        trims_x = {round(g.slot(i)[0] + e, 3) for i in range(count) for e in (0, g.card_w)}
        trims_y = {round(g.slot(i)[1] + e, 3) for i in range(count) for e in (0, g.card_h)}
        for m in marks:
            length = abs(m.x2 - m.x1) + abs(m.y2 - m.y1)
            assert length == pytest.approx(options.crop_length, abs=2e-3)  # ends rounded to 0.001 pt
            for t in (0.0, 0.25, 0.5, 0.75, 1.0):
                px, py = m.x1 + t * (m.x2 - m.x1), m.y1 + t * (m.y2 - m.y1)
                assert not any(_inside(px, py, b) for b in boxes), "a crop mark crosses a card"
                assert 0 <= px <= g.page_w and 0 <= py <= g.page_h
            if m.x1 == m.x2:
                assert round(m.x1, 3) in trims_x
            else:
                assert round(m.y1, 3) in trims_y
        # every trim line has its marks
        assert {round(m.x1, 3) for m in marks if m.x1 == m.x2} == trims_x
        assert {round(m.y1, 3) for m in marks if m.y1 == m.y2} == trims_y


def _deck(n: int) -> list[Drawing]:
    return [Drawing(POKER[0], POKER[1], (), 0.0, f"card{i}") for i in range(n)]


BACK = Drawing(POKER[0], POKER[1], (), 0.0, "back")


def _pages(n: int, options: PrintOptions) -> list[Page]:
    g = grid(*POKER, options)
    return list(pages(iter(_deck(n)), n, BACK, g, options, PageHeading("Game", "Deck")))


@pytest.mark.parametrize(("cards", "options", "expected"), [
    (120, PrintOptions(), 28),
    (30, PrintOptions(), 8),
    (120, PrintOptions(duplex="none"), 14),
    (120, PrintOptions(duplex="short"), 28),
    (120, PrintOptions(orientation="landscape"), 30),
    (120, PrintOptions(paper="letter"), 28),
    (9, PrintOptions(), 2),
    (10, PrintOptions(duplex="none"), 2),
])
def test_page_counts(cards: int, options: PrintOptions, expected: int) -> None:
    made = _pages(cards, options)
    assert len(made) == expected == page_count(cards, grid(*POKER, options), options)
    assert [p.kind for p in made[:2]] == (["fronts", "backs"] if options.duplex != "none" else ["fronts"] * 2)
    assert sum(len(p.placed) for p in made if p.kind == "fronts") == cards


def test_long_edge_backs_mirror_the_columns() -> None:
    options = PrintOptions(duplex="long")
    fronts, backs = _pages(9, options)
    for front, back in zip(fronts.placed, backs.placed):
        assert back.x == pytest.approx(fronts.width - front.x - POKER[0])
        assert back.y == pytest.approx(front.y)
        assert not back.turned and back.drawing is BACK


def test_short_edge_backs_mirror_the_rows_and_turn() -> None:
    options = PrintOptions(duplex="short")
    fronts, backs = _pages(9, options)
    for front, back in zip(fronts.placed, backs.placed):
        assert back.x == pytest.approx(front.x)
        assert back.y == pytest.approx(fronts.height - front.y - POKER[1])
        assert back.turned


def test_landscape_long_edge_flips_top_to_bottom() -> None:
    fronts, backs = _pages(8, PrintOptions(orientation="landscape", duplex="long"))
    assert backs.placed[0].turned
    assert backs.placed[0].y == pytest.approx(fronts.height - fronts.placed[0].y - POKER[1])


def test_back_offset_moves_backs_right_and_up() -> None:
    plain = _pages(9, PrintOptions())[1]
    moved = _pages(9, PrintOptions(back_offset=(mm(1.5), mm(-0.5))))[1]
    for a, b in zip(plain.placed, moved.placed):
        assert b.x - a.x == pytest.approx(mm(1.5))
        assert b.y - a.y == pytest.approx(mm(0.5))  # y up is 0.5 mm down for -0.5


def test_a_page_line_on_every_page() -> None:
    made = _pages(20, PrintOptions())
    for number, page in enumerate(made, start=1):
        lines = [item.text for item in page.items if isinstance(item, TextRun) and "page" in item.text]
        assert lines == [f"Game · Deck · {page.kind if page.kind == 'fronts' else 'backs, flip on the long edge'}"
                         f" · page {number} of {len(made)} · print at 100% (actual size)"]


@pytest.mark.parametrize("options", [PrintOptions(), PrintOptions(paper="letter"), PrintOptions(orientation="landscape"),
                                     PrintOptions(paper="letter", orientation="landscape", bleed=mm(3.175))])
def test_the_page_line_stays_clear_of_cards_and_marks(options: PrintOptions) -> None:
    g = grid(*POKER, options)
    page = _pages(g.per_page, options)[0]
    cards = [(p.x - g.bleed, p.y - g.bleed, g.card_w + 2 * g.bleed, g.card_h + 2 * g.bleed) for p in page.placed]
    marks = [m for m in page.items if isinstance(m, Line) and m.width == options.crop_width]
    for run in (i for i in page.items if isinstance(i, TextRun)):
        if run.rotate:
            box = (run.x - run.size, run.y - run.width, run.size * 1.3, run.width)
        else:
            box = (run.x, run.y - run.size, run.width, run.size * 1.3)
        assert box[0] >= mm(3) and box[1] >= mm(3)
        assert box[0] + box[2] <= g.page_w - mm(3) and box[1] + box[3] <= g.page_h - mm(3)
        for c in cards:
            assert box[0] + box[2] <= c[0] or c[0] + c[2] <= box[0] or box[1] + box[3] <= c[1] or c[1] + c[3] <= box[1]
        for m in marks:
            assert not (_inside(m.x1, m.y1, box) or _inside(m.x2, m.y2, box))


def test_a_page_line_the_font_cannot_draw_is_an_error() -> None:
    from generator.errors import FitError

    g = grid(*POKER, PrintOptions())
    with pytest.raises(FitError, match="holds '☃', which the font Open Sans cannot draw"):
        list(pages(iter(_deck(1)), 1, BACK, g, PrintOptions(), PageHeading("Game", "Snow ☃ deck")))


@pytest.mark.parametrize(("paper", "orientation"), [("105x148mm", "portrait"), ("105x148mm", "landscape"),
                                                    ("4x6in", "portrait")])
def test_a_page_line_too_long_for_a_narrow_paper_is_printed_whole_inside_the_margins(paper: str,
                                                                                     orientation: str) -> None:
    """A6 and 4 x 6 in photo paper hold a poker card, but not the page line of the German backs of a shipped deck
    in one line (148 mm at 6.5 pt, 92 to 95 mm of room): the build was refused ("shorten the deck's name", a name
    the user does not own). Every word of the line is printed, inside the printable band, clear of the card and of
    the crop marks, at 5 pt or more."""
    from generator.i18n import language
    from generator.render.imposition import EDGE, MIN_FOOTER_SIZE

    options = PrintOptions(paper=paper, orientation=orientation)
    g = grid(*POKER, options)
    german = language("de")
    heading = PageHeading("Guildhall", "Old World Economy: Berufe", german)
    made = list(pages(iter(_deck(240)), 240, BACK, g, options, heading))
    assert len(made) == 480  # one card a page, and its back
    for page in (made[0], made[1], made[-1]):
        runs = [i for i in page.items if isinstance(i, TextRun)]
        side = german._("backs, flip on the long edge") if page.kind == "backs" else german._("fronts")
        assert " · ".join(run.text for run in runs) == (
            f"Guildhall · Old World Economy: Berufe · {side} · "
            f"{german._('page {number} of {total}').format(number=page.number, total=480)} · "
            f"{german._('print at 100% (actual size)')}")
        cards = [(p.x, p.y, g.card_w, g.card_h) for p in page.placed]
        marks = [m for m in crop_marks(g, len(page.placed), options) if isinstance(m, Line)]
        assert marks or page.kind == "backs"
        for run in runs:
            assert run.size >= MIN_FOOTER_SIZE
            tall = run.size * 1.3
            box = ((run.x - tall, run.y - run.width, tall, run.width) if run.rotate
                   else (run.x, run.y - run.size, run.width, tall))
            assert box[0] >= EDGE - 0.01 and box[1] >= EDGE - 0.01
            assert box[0] + box[2] <= g.page_w - EDGE + 0.01 and box[1] + box[3] <= g.page_h - EDGE + 0.01
            for c in cards:
                assert box[0] + box[2] <= c[0] or c[0] + c[2] <= box[0] or box[1] + box[3] <= c[1] \
                    or c[1] + c[3] <= box[1]
            for m in marks:
                assert not (_inside(m.x1, m.y1, box) or _inside(m.x2, m.y2, box))
        if len(runs) == 2:  # two lines, one under the other
            assert runs[0].size == runs[1].size
            assert abs((runs[1].x - runs[0].x) if runs[0].rotate else (runs[1].y - runs[0].y)) >= runs[0].size


def test_a_page_line_that_fits_no_way_names_the_way_out() -> None:
    from generator.errors import FitError

    g = grid(*POKER, PrintOptions(paper="4x6in"))
    with pytest.raises(FitError, match=r"even in two lines; shorten the deck's name or use a wider --paper"):
        list(pages(iter(_deck(1)), 1, BACK, g, PrintOptions(paper="4x6in"), PageHeading("Game", "Deck " * 40)))


def test_a_right_to_left_name_the_font_cannot_draw_is_quoted_as_it_is_read() -> None:
    """The message quoted the page line in the order it is drawn: a deck named بطاقات سيف read 'فيس تاقاطب' and
    its brackets turned round. It is quoted as written, its letters in the order they come."""
    from generator.errors import FitError

    g = grid(*POKER, PrintOptions())
    with pytest.raises(FitError) as refused:
        list(pages(iter(_deck(1)), 1, BACK, g, PrintOptions(), PageHeading("Game", "بطاقات سيف")))
    said = str(refused.value)
    assert "the page line 'Game · بطاقات سيف · fronts · page 1 of 2 · print at 100% (actual size)'" in said, said
    assert "holds 'ب', 'ط', 'ا', 'ق', 'ت', 'س', 'ي', 'ف', which the font Open Sans cannot draw" in said, said


#: An Arabic name, its letters' four shapes each in Arabic Presentation Forms-B (isolated, final, initial, medial),
#: and the name as drawn left to right: feh final, yeh medial, sin initial.
_SAIF, _SAIF_FORMS, _SAIF_DRAWN = "سيف", "ﺱﺲﺳﺴﻱﻲﻳﻴﻑﻒﻓﻔ", "\ufed2\ufef4\ufeb3"
_JAPANESE = "大市場カード"


@pytest.mark.parametrize("paper", ["a4", "4x6in"])
def test_a_page_line_draws_what_open_sans_lacks_in_the_decks_own_font(tmp_path: Path, paper: str) -> None:
    """A deck named in Arabic, Chinese or Japanese could not build: its page line is in Open Sans, which has none of
    those letters. What Open Sans lacks is drawn in the deck's own font (the first that has it), the Arabic letters
    joined, the name where the sentence puts it (read left to right, as the interface's language is), whether the
    line is whole or broken on a narrow paper."""
    from generator.render import fonts
    from render_helpers import box_font

    own = box_font(tmp_path / "own.ttf", "Own", _SAIF + _SAIF_FORMS + _JAPANESE)
    face = fonts.register_family("own", {"regular": own})["own"]
    options = PrintOptions(paper=paper)
    g = grid(*POKER, options)
    for name, drawn in ((_SAIF, _SAIF_DRAWN), (_JAPANESE, _JAPANESE)):
        made = list(pages(iter(_deck(1)), 1, BACK, g, options, PageHeading("Game", name, faces=(face,))))
        for page in made:
            runs = [i for i in page.items if isinstance(i, TextRun) and i.text != "50 mm"]
            assert [r for r in runs if r.font == face] == [r for r in runs if drawn in r.text]
            assert all(r.font == "open-sans" for r in runs if drawn not in r.text)
            mine = [r for r in runs if r.font == face]
            assert [r.text for r in mine] == [drawn]
            line = [r for r in runs if r.y == mine[0].y]  # the name's line, left to right
            assert [r.x for r in line] == sorted(r.x for r in line)
            text = "".join(r.text for r in line)
            assert text.startswith(f"Game · {drawn} · "), text
            for before, after in zip(line, line[1:]):  # each run starts where the one before ends
                assert after.x == pytest.approx(before.x + before.width, abs=0.01)


def test_a_page_line_no_font_of_the_deck_draws_names_them_all(tmp_path: Path) -> None:
    from generator.errors import FitError
    from generator.render import fonts
    from render_helpers import box_font

    face = fonts.register_family("kana", {"regular": box_font(tmp_path / "kana.ttf", "Kana", "カード")})["kana"]
    g = grid(*POKER, PrintOptions())
    with pytest.raises(FitError, match=r"holds '大', which any of the fonts Open Sans, Kana cannot draw"):
        list(pages(iter(_deck(1)), 1, BACK, g, PrintOptions(), PageHeading("Game", "大カード", faces=(face,))))


# --- a back per card, fold sheets, cut lines ------------------------------------------------------------------------

def _sided(count: int, options: PrintOptions) -> list[Page]:
    from generator.render.imposition import Sided

    cards = [Sided(Drawing(*POKER, (), key=f"f{i}"), Drawing(*POKER, (), key=f"b{i}")) for i in range(count)]
    return list(pages(iter(cards), count, None, grid(*POKER, options), options, PageHeading("Game", "Deck")))


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_each_card_gets_its_own_back_behind_it(duplex: str) -> None:
    fronts, backs = _sided(9, PrintOptions(duplex=duplex))
    from generator.render.imposition import back_position

    g = grid(*POKER, PrintOptions(duplex=duplex))
    for front, back in zip(fronts.placed, backs.placed):
        assert back.drawing.key == "b" + str(front.drawing.key)[1:]
        assert (back.x, back.y, back.turned) == pytest.approx(back_position(g, (front.x, front.y),
                                                                           PrintOptions(duplex=duplex)))


@pytest.mark.parametrize(("orientation", "fold", "per_page"), [
    ("portrait", "vertical", 3),    # A4 portrait: a column of three fronts beside a column of their backs
    ("landscape", "vertical", 4),   # A4 landscape: two columns of two on each side
])
def test_fold_sheets_mirror_each_back_across_the_fold(orientation: str, fold: str, per_page: int) -> None:
    options = PrintOptions(duplex="fold", orientation=orientation)
    g = grid(*POKER, options)
    assert (g.fold, g.per_page) == (fold, per_page)
    made = _sided(per_page + 1, options)
    assert [p.kind for p in made] == ["fold", "fold"] == ["fold"] * page_count(per_page + 1, g, options)
    page = made[0]
    fronts = [p for p in page.placed if str(p.drawing.key).startswith("f")]
    backs = {str(p.drawing.key)[1:]: p for p in page.placed if str(p.drawing.key).startswith("b")}
    middle = page.width / 2
    for front in fronts:
        back = backs[str(front.drawing.key)[1:]]
        assert front.x + POKER[0] < middle < back.x  # fronts on the left, backs on the right
        assert back.x + POKER[0] / 2 - middle == pytest.approx(middle - (front.x + POKER[0] / 2))
        assert back.y == pytest.approx(front.y) and not back.turned
    [fold_line] = [i for i in page.items if isinstance(i, Line) and i.dash]
    assert fold_line.x1 == fold_line.x2 == pytest.approx(middle)
    # the grids and their crop marks stay clear of the fold line
    marks = [i for i in page.items if isinstance(i, Line) and not i.dash]
    assert all(max(m.x1, m.x2) < middle or min(m.x1, m.x2) > middle for m in marks)
    words = [i.text for i in page.items if isinstance(i, TextRun)]
    assert any("fold on the dashed line, glue, then cut · page 1 of 2" in w for w in words)


def test_a_horizontal_fold_turns_the_backs() -> None:
    options = PrintOptions(duplex="fold", paper="letter", crop_length=0)
    g = grid(mm(63), mm(63), options)  # squares: three across in each half of a Letter page, folded top to bottom
    assert g.fold == "horizontal" or g.fold == "vertical"
    wide = grid(mm(88), mm(50), PrintOptions(duplex="fold"))
    assert wide.fold == "horizontal" and (wide.cols, wide.rows) == (2, 2)
    page = list(pages(iter([Drawing(mm(88), mm(50), (), key="f")]), 1, Drawing(mm(88), mm(50), (), key="b"),
                      wide, PrintOptions(duplex="fold"), PageHeading("G", "D")))[0]
    front, back = page.placed
    assert back.turned and back.x == pytest.approx(front.x)
    assert back.y + mm(50) / 2 - page.height / 2 == pytest.approx(page.height / 2 - (front.y + mm(50) / 2))


def test_fold_refuses_what_does_not_fit() -> None:
    with pytest.raises(UsageError, match="--duplex: fold: a 120 x 200 mm card .* do not fit side by side"):
        grid(mm(120), mm(200), PrintOptions(duplex="fold"))


@pytest.mark.parametrize(("paper", "orientation", "bleed"), [
    ("a5", "portrait", 0.0), ("a5", "portrait", 3.0), ("105x148mm", "portrait", 0.0), ("105x148mm", "landscape", 0.0),
    ("4x6in", "portrait", 0.0), ("4x6in", "landscape", 3.0), ("74x105mm", "portrait", 0.0), ("a5", "portrait", 6.0),
])
def test_the_advice_of_a_fold_that_does_not_fit_is_advice_that_works(paper: str, orientation: str,
                                                                     bleed: float) -> None:
    """A poker card folded on A6 (105 x 148 mm) portrait was told "try --orientation landscape", and in landscape
    "try --orientation portrait": neither holds it. Every way the refusal names builds."""
    import re

    options = PrintOptions(paper=paper, orientation=orientation, bleed=mm(bleed), duplex="fold")
    with pytest.raises(UsageError) as refused:
        grid(*POKER, options)
    advice = str(refused.value).split("; try ", 1)[1]
    ways = advice.split(", or ")
    assert ways
    for way in ways:
        changed = options
        for flag, value in re.findall(r"(--paper|--orientation|--duplex) (\S+)", way):
            changed = changed._replace(**{flag[2:]: value})
        if "no --bleed" in way:
            changed = changed._replace(bleed=0.0)
        assert changed != options, way
        assert grid(*POKER, changed).per_page > 0, way


def test_cut_lines_run_along_every_trim_line_beside_the_crop_marks() -> None:
    options = PrintOptions(cut_lines=True)
    g = grid(*POKER, options)
    page = _pages(9, options)[0]
    faint = [i for i in page.items if isinstance(i, Line) and i.colour == "#b0b0b0"]
    verticals = sorted({round(i.x1, 3) for i in faint if i.x1 == i.x2})
    horizontals = sorted({round(i.y1, 3) for i in faint if i.y1 == i.y2})
    assert len(verticals) == 4 and len(horizontals) == 4  # three cards across share four cut lines
    for line in faint:
        if line.x1 == line.x2:  # across the whole grid and into the margins
            assert line.y1 < g.y0 and line.y2 > g.y0 + g.height
    crop = [i for i in page.items if isinstance(i, Line) and i.colour == "#000000"]
    assert crop  # beside, not instead of, the crop marks
    assert not [i for i in _pages(9, PrintOptions())[0].items if isinstance(i, Line) and i.colour == "#b0b0b0"]


def test_a_part_filled_fold_sheet_marks_the_slots_its_backs_are_in() -> None:
    options = PrintOptions(duplex="fold", orientation="landscape", cut_lines=True)
    [page] = _sided(1, options)  # one card in a grid of 2 x 2
    front, back = page.placed
    marks = [i for i in page.items if isinstance(i, Line) and i.colour in ("#000000", "#b0b0b0")]
    verticals = {round(i.x1, 2) for i in marks if i.x1 == i.x2}
    for card in (front, back):
        assert round(card.x, 2) in verticals and round(card.x + POKER[0], 2) in verticals
    # and no mark stands where no card is: two edges of the front, two of the back
    assert len(verticals) == 4


@pytest.mark.parametrize("size", [(63, 88), (57.15, 88.9), (70, 120), (44, 68), (70, 70), (22, 22)])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_crop_marks_and_the_ruler_stay_printable(size: tuple[float, float], paper: str, orientation: str,
                                                 bleed: float) -> None:
    """Every crop mark keeps out of the 5 mm band printers leave blank, and the 50 mm ruler is on every page
    (it was missing on Letter with bleed and on the backs of bleed floor tiles, fitted to the grid's width)."""
    from generator.render.imposition import EDGE, RULER, crop_marks, page_line
    from generator.render.model import Line

    options = PrintOptions(paper=paper, orientation=orientation, bleed=mm(bleed))
    g = grid(mm(size[0]), mm(size[1]), options)
    marks = [m for m in crop_marks(g, g.per_page, options) if isinstance(m, Line)]
    assert marks
    for mark in marks:
        for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
            assert EDGE - 0.01 <= x <= g.page_w - EDGE + 0.01 and EDGE - 0.01 <= y <= g.page_h - EDGE + 0.01
    line = page_line(g, "Once Upon a Castle · Great Architect guests · backs, flip on the long edge · page 12 of 12 · "
                        "print at 100% (actual size)", options)
    rulers = [i for i in line if isinstance(i, Line) and abs(abs(i.x2 - i.x1) + abs(i.y2 - i.y1) - RULER) < 0.01]
    assert len(rulers) == 1, "the 50 mm ruler is missing"
