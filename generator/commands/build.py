"""`donjon build`: print-ready decks, as home-print PDF sheets and one SVG per card."""

# Annotations are not postponed here (no `from __future__ import annotations`): typer reads the command's with
# typing.get_type_hints on every run, which compiles and evaluates each one written as text. Names imported only
# for type checking are quoted.
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from generator.backends import BACKENDS, names
from generator.commands import (
    ALSO_HELP,
    LANG_HELP,
    folder_option,
    is_terminal,
    language_option,
    messages_language_of,
    reported_before_placed,
    reports_errors,
    settle,
    warn_of_a_language_nobody_holds,
    warn_of_sheets_not_in,
    warning_line,
)
from generator.wording import plural

if TYPE_CHECKING:  # for annotations only: the command module imports nothing heavy at start-up
    from collections.abc import Sequence

    from generator.build.options import BuildOptions, Written
    from generator.catalog.deck import Deck
    from generator.content import Content
    from generator.games.base import GameCatalog
    from generator.i18n import Language
    from generator.render.imposition import PrintOptions
    from generator.render.ink import PressSettings

HELP = """\
Build print-ready decks: PDF sheets for home printing and an SVG of every card.

TARGET is `all` (the default: every deck of every game), a game by its id (such as guildhall),
one deck as GAME/DECK (guildhall/old-world-economy-vp), or, with --content, a deck or a score sheet of your
own by its id. Writes OUT/GAME/DECK.pdf (fronts, then backs for duplex printing, with crop marks) and
OUT/GAME/DECK/svg/CARD.svg with OUT/GAME/DECK/svg/back.svg (OUT/decks/... for a deck of your own), and for a
game its reference (OUT/references/) and score sheets (OUT/score-sheets/GAME/, OUT/score-sheets/SHEET/ for a
sheet of your own). Nothing is replaced unless every
output was made and its report printed (a report that cannot be written leaves the files in OUT as they
were). Lengths take a unit (3mm, 0.125in, 9pt); a bare number is millimetres (points for
--crop-width). Print the PDFs at 100% (actual size), duplex on the long edge, or with --duplex fold on one side:
fold each sheet on its dashed line, glue, cut.

--cards builds a few cards of one deck (1-10,15 or names); --watch builds, then builds again whatever a saved
file changes (add --serve to see the preview page, reloading itself, at http://127.0.0.1:8000/preview/).
"""

#: The help of build's `--lang`: the cards' language, and the messages' too where donjon speaks it.
BUILD_LANG_HELP = LANG_HELP + (" In fr or de, the build also says its problems, warnings and summary in that "
                               "language (file names, lines and keys as your files write them).")

#: The port --serve listens on unless told otherwise (the usual port of a local development server).
DEFAULT_PORT = 8000

#: Limits on the sheet options: beyond them a value is a typo, not a wish. Bleed: up to 1/4 in, the most print
#: services ask for (most ask 1/8 in or 3 mm).
MAX_BLEED_MM = 6.35
MAX_GUTTER_MM = 20.0
MAX_CROP_LENGTH_MM = 15.0
MIN_CROP_WIDTH_PT = 0.25
MAX_CROP_WIDTH_PT = 3.0
MAX_BACK_OFFSET_MM = 10.0


def _length(option: str, text: str, low: float, high: float, unit: str = "mm") -> float:
    """A length option in `unit` (mm or pt), given as `3`, `3mm`, `0.125in` or `9pt` (a bare number is in `unit`)."""
    from generator.catalog.common import parse_length
    from generator.i18n import phrase
    from generator.units import MM_PER_UNIT

    raw = text.strip()
    if re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)", raw):
        value = float(raw)
    else:
        sign = -1.0 if raw.startswith("-") else 1.0
        parsed = parse_length(raw.lstrip("+-"))
        if parsed is None:
            raise _usage(option, phrase("{value} is not a length; write it like 3mm, 0.125in or 9pt",
                                        value=_quoted(text)))
        value = sign * parsed / MM_PER_UNIT[unit]
    if not low <= value <= high:
        raise _usage(option, phrase("{value} {unit} is out of range; it must be from {low} to {high} {unit}",
                                    value=_g(value), unit=unit, low=_g(low), high=_g(high)))
    return value


def _g(value: float) -> str:
    """A length in a refusal: `0.5` as English writes it (`:g`), `0,5` in the language of the messages."""
    from generator.i18n import messages_language

    lang = messages_language()
    return f"{value:g}" if lang is None else lang.number(value)


def _quoted(value: object) -> str:
    """A value given on the command line, quoted in a refusal as the language of the messages quotes ('x' in
    English)."""
    from generator.sayings import quote

    return quote(value)


def _usage(option: str, message: str) -> Exception:
    from generator.errors import UsageError

    return UsageError(option, message)


def _choice(option: str, value: str, choices: tuple[str, ...]) -> str:
    from generator.i18n import phrase

    key = value.strip().lower()
    if key not in choices:
        raise _usage(option, phrase("{value} is not one of {choices}", value=_quoted(value),
                                    choices=", ".join(choices)))
    return key


#: A custom paper's sides, in millimetres: from A7's short side to a large-format press sheet.
MIN_PAPER_MM = 74.0
MAX_PAPER_MM = 1500.0


def paper_option(text: str) -> str:
    """`--paper`: a named size (a4, letter, a3, a5, legal, tabloid) or a custom one as WxH with a unit (330x480mm,
    12x18in); the name, or the custom size written the one way donjon reads it."""
    from generator.i18n import phrase
    from generator.render.imposition import SHEET_PAPERS, paper_size
    from generator.units import PT_PER_MM

    key = text.strip().lower().replace(" ", "").replace("×", "x")
    if key in SHEET_PAPERS:
        return key
    if re.fullmatch(r"\d+(\.\d+)?x\d+(\.\d+)?", key):
        key += "mm"  # a bare size is in millimetres, as every length option
    try:
        w, h = paper_size(key)
    except ValueError:
        raise _usage("--paper", phrase("{value} is not one of {papers} nor a size like 330x480mm or 12x18in",
                                       value=_quoted(text), papers=", ".join(SHEET_PAPERS))) from None
    if not (MIN_PAPER_MM <= w / PT_PER_MM and h / PT_PER_MM <= MAX_PAPER_MM):
        raise _usage("--paper", phrase("{value}: each side must be from {low} to {high} mm", value=_quoted(text),
                                       low=_g(MIN_PAPER_MM), high=_g(MAX_PAPER_MM)))
    return key


def print_options(paper: str, orientation: str, bleed: Optional[bool], bleed_size: Optional[str], gutter: str,
                  crop_length: str, crop_width: str, duplex: str, back_offset: str,
                  cut_lines: bool = False) -> "PrintOptions":
    """The PrintOptions the command line asks for (every value checked, naming its option)."""
    from generator.render.imposition import DUPLEX, ORIENTATIONS, PrintOptions, document_paper
    from generator.render.model import mm

    paper_id = paper_option(paper)
    if bleed_size is not None and bleed is False:
        raise _usage("--bleed-size", "cannot be used with --no-bleed")
    bleed_mm = 0.0
    if bleed or bleed_size is not None:
        # 3 mm is the common bleed on metric paper; on inch paper, 1/8 in (3.175 mm) is what North American
        # printers use.
        default = "0.125in" if document_paper(paper_id) == "letter" else "3mm"
        bleed_mm = _length("--bleed-size", bleed_size or default, 0.5, MAX_BLEED_MM)
    offset = [part.strip() for part in back_offset.split(",")]
    if len(offset) != 2 or not all(offset):
        raise _usage("--back-offset", f"{back_offset!r} is not X,Y in millimetres (like 0.5,-1)")
    dx, dy = (_length("--back-offset", part, -MAX_BACK_OFFSET_MM, MAX_BACK_OFFSET_MM) for part in offset)
    chosen_duplex = _choice("--duplex", duplex, DUPLEX)
    if chosen_duplex == "fold" and (dx, dy) != (0.0, 0.0):
        raise _usage("--back-offset", "means nothing with --duplex fold: fronts and backs are printed on the same "
                                      "side of the sheet, so they are always in register")
    return PrintOptions(
        paper=paper_id,
        orientation=_choice("--orientation", orientation, ORIENTATIONS),
        bleed=mm(bleed_mm),
        gutter=mm(_length("--gutter", gutter, 0.0, MAX_GUTTER_MM)),
        crop_length=mm(_length("--crop-length", crop_length, 0.0, MAX_CROP_LENGTH_MM)),
        crop_width=_length("--crop-width", crop_width, MIN_CROP_WIDTH_PT, MAX_CROP_WIDTH_PT, unit="pt"),
        duplex=chosen_duplex,
        back_offset=(mm(dx), mm(dy)),
        cut_lines=cut_lines,
    )


def formats_of(text: str) -> tuple[str, ...]:
    """The backends `--format` names, in the order of the backends table."""
    from generator.i18n import phrase

    known = names()
    chosen = [part.strip().lower() for part in text.split(",") if part.strip()]
    unknown = [f for f in chosen if f not in known]
    if unknown or not chosen:
        raise _usage("--format", phrase("{value}: choose {names} or {both}", value=_quoted(text),
                                        names=", ".join(known), both=",".join(known)))
    return tuple(f for f in known if f in chosen)


@reports_errors
def build(
    target: Optional[str] = typer.Argument(
        None, show_default=False, metavar="TARGET",
        help="all (default), a game id, GAME/DECK, or the id of a deck or a sheet of your own in --content."),
    content_dir_text: Optional[str] = typer.Option(
        None, "--content", show_default=False, metavar="DIR",
        help="A content folder to build instead of the shipped games: game folders and/or deck folders "
             "(a folder with a deck.yaml), or one deck folder."),
    out_text: str = typer.Option("output", "--out", metavar="DIR",
                             help="The folder to write into (created if needed)."),
    paper: str = typer.Option(
        "a4", "--paper", metavar="SIZE",
        help="Paper size: a4, letter, a3, a5, legal, tabloid, or your own as WIDTHxHEIGHT with a unit "
             "(330x480mm, 12x18in). The build says how many cards fit a page before it draws them."),
    orientation: str = typer.Option("portrait", "--orientation", metavar="portrait|landscape",
                                    help="portrait or landscape (landscape fits 8 poker cards instead of 9)."),
    bleed: Optional[bool] = typer.Option(
        None, "--bleed/--no-bleed", show_default=False,
        help="Extend each card's background past its cut line, so an uneven cut shows no white edge "
             "(cards then sit further apart, and fewer may fit on a page). Default: no bleed."),
    bleed_size: Optional[str] = typer.Option(
        None, "--bleed-size", show_default=False, metavar="LENGTH",
        help="How far the bleed extends (implies --bleed): default 3mm on metric paper, 0.125in on Letter, "
             "Legal and Tabloid; at most 1/4 in (0.25in)."),
    gutter: str = typer.Option("0", "--gutter", metavar="LENGTH", help="Space between cards (0 to 20 mm), e.g. 2mm."),
    crop_length: str = typer.Option("4mm", "--crop-length", metavar="LENGTH",
                                    help="Length of the crop marks in the margins (0 for none, at most 15mm)."),
    crop_width: str = typer.Option("0.5", "--crop-width", metavar="PT",
                                   help="Line width of the crop marks in points (0.25 to 3)."),
    duplex: str = typer.Option(
        "long", "--duplex", metavar="long|short|none|fold",
        help="long: a page of backs after each page of fronts, for printing on both sides flipped on the long "
             "edge; short: the same for flipping on the short edge; none: fronts only; fold: fronts and their "
             "backs side by side on one page with a fold line, for printers that print one side only."),
    cut_lines: bool = typer.Option(
        False, "--cut-lines",
        help="Also draw thin cut lines along every card edge across the whole sheet (a guide for a paper "
             "trimmer, or when folding hides the crop marks)."),
    back_offset: str = typer.Option(
        "0,0", "--back-offset", metavar="X,Y",
        help="X,Y in mm: move every back by this much (x right, y up, seen on the back side) to make up for a "
             "printer that does not print both sides in line; at most 10 mm each way."),
    formats: str = typer.Option(
        ",".join(names()), "--format", metavar=",".join(names()),
        help="What to write, one or more separated by commas: "
             + "; ".join(f"{b.name}: {b.makes}" for b in BACKENDS) + "."),
    unique: bool = typer.Option(False, "--unique",
                                help="One copy of each card instead of the deck's counts (a proof set)."),
    guides: bool = typer.Option(
        False, "--guides",
        help="A proof to check a layout, not to cut: draw over every card its cut line (magenta), the edge of "
             "its bleed (dashed blue) and the safe area text keeps inside (dashed green)."),
    cards: Optional[str] = typer.Option(
        None, "--cards", show_default=False, metavar="LIST",
        help="Build only these cards of the deck TARGET names: positions in its table from 1 and ranges "
             "(1-10,15), or card names or ids (\"Fire Ball,Goblin\"), separated by commas."),
    watch: bool = typer.Option(
        False, "--watch",
        help="Build, then keep watching the content folder: each time a deck, table, layout, picture, font or "
             "icon is saved, build again the decks it changes, and report errors without stopping (Ctrl-C stops)."),
    serve: bool = typer.Option(
        False, "--serve",
        help="With --watch: also write the preview page of the decks after each build and serve the output "
             "folder on this machine only (127.0.0.1); the page reloads itself when the cards change."),
    port: int = typer.Option(DEFAULT_PORT, "--port", metavar="N",
                             help="The port --serve listens on (0: any free port)."),
    ink: str = typer.Option(
        "normal", "--ink", metavar="normal|light",
        help="light: spare a home printer's ink: no full backgrounds, card art as a frame, fills as light tints, "
             "every word kept readable."),
    colour: str = typer.Option(
        "rgb", "--colour", metavar="rgb|cmyk",
        help="The sheets' colours: rgb, or cmyk through an ICC profile (FOGRA39 unless --profile), with an "
             "OutputIntent, for a print shop printing your sheets."),
    profile: Optional[str] = typer.Option(
        None, "--profile", show_default=False, metavar="FILE",
        help="Your own CMYK ICC output profile (.icc) for --colour cmyk."),
    printer: Optional[str] = typer.Option(
        None, "--printer", show_default=False, metavar="NAME",
        help="A printer saved with `donjon printer add`: its back offset moves every back and its scale every "
             "sheet (instead of --back-offset), the references' and score sheets' PDF pages too (a score "
             "sheet's SVG stays as designed: print the PDF on that printer)."),
    lang_text: Optional[str] = typer.Option(None, "--lang", show_default=False, metavar="LANG", help=BUILD_LANG_HELP),
    also_text: Optional[str] = typer.Option(None, "--also", show_default=False, metavar="LANG", help=ALSO_HELP),
) -> None:
    """Build print-ready decks: PDF sheets with crop marks and duplex backs, and an SVG of every card."""
    out = folder_option(out_text, "--out")
    content_dir = folder_option(content_dir_text, "--content")
    import time

    from generator.build.decks import build as run
    from generator.build.options import BuildOptions
    from generator.build.outputs import games_of
    from generator.content import all_decks, load_content, pick_cards, select
    from generator.i18n import messages_in, phrase, phrase_n
    from generator.output import prepare_dir
    from generator.resources import display_path

    start = time.perf_counter()
    if target is not None and not target.strip():
        raise _usage("TARGET", phrase("is empty: name a game, a deck, or all"))
    lang = language_option(lang_text, "--lang")
    also = language_option(also_text, "--also")
    spoken = messages_language_of(lang)
    with messages_in(spoken):
        sheet_options = print_options(paper, orientation, bleed, bleed_size, gutter, crop_length, crop_width, duplex,
                                      back_offset, cut_lines)
        if printer is not None:
            from generator.printers import find_printer
            from generator.render.model import mm

            if back_offset.strip() not in ("0,0", "0, 0"):
                raise _usage("--back-offset", "goes without --printer, which brings the printer's own")
            saved = find_printer(printer)
            sheet_options = sheet_options._replace(back_offset=(mm(saved.back_offset[0]), mm(saved.back_offset[1])),
                                                   scale=saved.scale)
        options = BuildOptions(sheet_options, formats_of(formats), unique, _choice("--ink", ink, ("normal", "light")),
                               press_settings(_choice("--colour", colour, ("rgb", "cmyk")), profile), lang, also,
                               guides)
        if (target or "").strip().lower() == "calibration":
            _calibration(out, options)
            return
        if serve and not watch:
            raise _usage("--serve", "goes with --watch (to see a preview once, run `donjon preview`)")
        if not 0 <= port <= 65535:
            raise _usage("--port", phrase("{value} is not a port (0 to 65535)", value=str(port)))
        if watch:
            prepare_dir(out)
            _watch(content_dir, target or "all", out, options, cards, serve, port)
            return
        content = load_content(content_dir)
        decks = select(all_decks(content, lang, also), target or "all", [g.info.id for g in content.games()])
        if lang is not None:
            warn_of_a_language_nobody_holds(lang, decks, content.user_decks)
            warn_of_sheets_not_in(lang, games_of(content, target or "all"))
        if also is not None:
            warn_of_a_language_nobody_holds(also, decks, content.user_decks, "--also")
        if not any(backend.imposed for backend in BACKENDS if backend.name in options.formats):
            _warn_of_documents_left_out(formats, games_of(content, target or "all"))
        if cards is not None:
            if len(decks) != 1:
                shown = ", ".join(d.key for d in decks[:6]) + (", ..." if len(decks) > 6 else "")
                raise _usage("--cards", phrase("picks cards of one deck; name it as TARGET ({target} is {decks}: "
                                               "{shown})", target=target or "all",
                                               decks=phrase_n("{n} deck", "{n} decks", len(decks)), shown=shown))
            decks = [pick_cards(decks[0], cards)]
        prepare_dir(out)
        settle()
        if any(backend.imposed for backend in BACKENDS if backend.name in options.formats):
            for line in sheet_plans(decks, options):
                typer.echo(line)
        with reported_before_placed(out, "build"):
            total = sum(len(d.cards) if unique else d.total for d in decks)
            if is_terminal():
                with typer.progressbar(length=total, label="Drawing cards", file=sys.stderr) as bar:
                    report = run(content, decks, target or "all", out, options, bar.update)
            else:
                report = run(content, decks, target or "all", out, options, lambda n: None)
            files = 0
            for result in report.results:
                for warning in result.warnings:
                    typer.echo(warning_line(str(warning)), err=True)
                for w in result.written:
                    files += w.files
                    typer.echo(wrote_line(w))
            for w in report.others:
                files += w.files
                # TRANSLATORS: a file a build wrote, then what it is (a card reference, a score sheet)
                typer.echo(phrase("wrote {path}: {what}", path=display_path(w.path), what=w.what))
            seconds = time.perf_counter() - start
            if spoken is not None:
                typer.echo(built_line(spoken, len(report.results), report.cards, report.pages, files, seconds))
                return
            if not report.results:  # sheets of one's own alone: no deck, no card to count
                typer.echo(f"Built no deck: {plural(files, 'file')} ({plural(report.pages, 'page')}) in "
                           f"{seconds:.2f} s.")
                return
            rate = f" ({report.cards / seconds:.0f} cards/s)" if seconds > 0 else ""
            # an SVG or PNG build imposes nothing: its cards are files, not pages ("352 cards on 0 pages" said
            # otherwise)
            on_pages = f" on {plural(report.pages, 'page')}" if report.pages else ""
            typer.echo(f"Built {plural(len(report.results), 'deck')}: {plural(report.cards, 'card')}{on_pages}, "
                       f"{plural(files, 'file')} in {seconds:.2f} s{rate}.")


def built_line(lang: "Language", decks: int, cards: int, pages: int, files: int, seconds: float) -> str:
    """The last line of a build that says its messages in `lang` (`--lang fr`): what the English one says, in the
    language's words and numbers."""
    from generator.i18n import N_

    took = lang.number(seconds, decimals=2)
    if not decks:
        return lang._(N_("Built no deck: {files} ({pages}) in {seconds} s.")).format(
            files=lang.nformat("{n} file", "{n} files", files), pages=lang.nformat("{n} page", "{n} pages", pages),
            seconds=took)
    rate = lang._(N_(" ({rate} cards/s)")).format(rate=lang.number(round(cards / seconds))) if seconds > 0 else ""
    counted = (lang.nformat("{n} card on {pages}", "{n} cards on {pages}", cards,
                            pages=lang.nformat("{n} page", "{n} pages", pages)) if pages
               else lang.nformat("{n} card", "{n} cards", cards))
    return lang.ngettext("Built {n} deck: {cards}, {files} in {seconds} s{rate}.",
                         "Built {n} decks: {cards}, {files} in {seconds} s{rate}.", decks).format(
        n=lang.number(decks), cards=counted, files=lang.nformat("{n} file", "{n} files", files), seconds=took,
        rate=rate)


def wrote_line(w: "Written") -> str:
    """A deck's file or folder a build wrote, in the language of its messages (`--lang fr`): `wrote out/x.pdf: 2 pages,
    18 cards`, `wrote out/x/svg/: 9 SVG files`."""
    from generator.i18n import phrase, phrase_n
    from generator.resources import display_path

    if w.folder:
        # TRANSLATORS: a folder a build wrote (its path ends in /), then its files: "9 SVG files"
        return phrase("wrote {path}/: {files}", path=display_path(w.path),
                      files=phrase_n("{n} {what} file", "{n} {what} files", w.files, what=w.what))
    # TRANSLATORS: a deck's document a build wrote, then its pages and cards
    return phrase("wrote {path}: {pages}, {cards}", path=display_path(w.path),
                  pages=phrase_n("{n} page", "{n} pages", w.pages), cards=phrase_n("{n} card", "{n} cards", w.cards))


def _warn_of_documents_left_out(formats: str, games: "Sequence[GameCatalog]") -> None:
    """Card references and fillable score sheets are PDF documents (the SVG and PNG backends write one file per
    card; a form is PDF only): a build whose --format leaves out pdf writes none of them, and with svg only the
    sheets to print, as SVGs. Said, naming each game or sheet left out, so that a designer building `--format svg`
    for a sheet of their own is not told "0 files" and nothing else, nor left looking for a fillable sheet."""
    from generator.games.sheet_game import SheetCatalog
    from generator.i18n import phrase
    from generator.registry import find_game

    svg = "svg" in formats_of(formats)
    for game in games:
        sheets = find_game(game.info.id).score_sheets(game)  # lazy: no page is drawn to know
        if isinstance(game, SheetCatalog):
            where, what = game.sheet.origin, (phrase("its fillable score sheets are written only when --format "
                                                     "holds pdf") if svg else
                                              phrase("its score sheets are written only when --format holds pdf"))
        elif sheets:
            where, what = game.info.id, (phrase("its card reference and fillable score sheets are written only when "
                                                "--format holds pdf") if svg else
                                         phrase("its card reference and score sheets are written only when --format "
                                                "holds pdf"))
        else:
            where, what = game.info.id, phrase("its card reference is written only when --format holds pdf")
        printed = phrase(" (the sheets to print are written as SVGs)") if svg and any(s.svg for s in sheets) else ""
        typer.echo(warning_line(phrase("{where}: {what}{printed}: --format {formats} writes none (add pdf: --format "
                                       "pdf,svg)", where=where, what=what, printed=printed, formats=formats)),
                   err=True)


def press_settings(colour: str, profile: Optional[str]) -> "PressSettings":
    """`--colour` and `--profile`: RGB as drawn, or CMYK through the profile given or donjon's FOGRA39."""
    from generator.render.ink import PressSettings

    if colour == "rgb":
        if profile is not None:
            raise _usage("--profile", "goes with --colour cmyk")
        return PressSettings()
    from generator.commands.export import icc_file
    from generator.resources import templates_dir

    chosen = icc_file(profile) if profile is not None else templates_dir() / "icc" / "fogra39.icc"
    return PressSettings("cmyk", chosen, "FOGRA39" if profile is None else chosen.stem)


def _calibration(out: Path, options: "BuildOptions") -> None:
    """`donjon build calibration`: OUT/calibration/calibration-PAPER.pdf, the sheet that measures a printer."""
    from generator.backends.pdf import write_pdf
    from generator.i18n import language, phrase
    from generator.output import atomic_path, inside, prepare_dir, transaction
    from generator.render.calibration import printable, sheet, smallest_paper
    from generator.resources import display_path
    from generator.units import PT_PER_MM

    po = options.print_options
    lang = language(options.lang or "en")
    pages = sheet(po, lang)
    if not printable(pages):  # its rulers or crosses would run off the paper: nothing to measure with
        w, h = (round(v / PT_PER_MM) for v in po.page_size)
        need = smallest_paper(po)
        if need is None:
            sx, sy = po.scale
            raise _usage("--printer", phrase("the calibration sheet, scaled by the printer's {sx} x {sy}, would "
                                             "reach the edge of any paper (its rulers start from a corner): build it "
                                             "without --printer", sx=_g(sx), sy=_g(sy)))
        turn = phrase("; use --orientation portrait") if po.orientation == "landscape" and printable(
            sheet(po._replace(orientation="portrait"), lang)) else ""
        raise _usage("--paper", phrase("the calibration sheet does not fit {paper} {orientation} ({w} x {h} mm): it "
                                       "needs {need_w} x {need_h} mm or more, portrait (A4 or Letter), its rulers and "
                                       "crosses 5 mm from each edge{turn}", paper=po.paper,
                                       orientation=po.orientation, w=str(w), h=str(h), need_w=str(need[0]),
                                       need_h=str(need[1]), turn=turn))
    prepare_dir(out)
    target = inside(out, "calibration", f"calibration-{po.paper}.pdf")
    with transaction(out), atomic_path(target, "the calibration sheet") as tmp:
        write_pdf(pages, tmp, title=lang._("donjon calibration sheet"),
                  subject=lang._("duplex offset and scale of a printer"), lang=lang.code)
    typer.echo(phrase("wrote {path}: 2 pages; print both sides at 100%, then `donjon printer add`",
                      path=display_path(target)))


def sheet_plans(decks: list["Deck"], options: "BuildOptions") -> list[str]:
    """How many cards each deck's sheets hold a page, and how many pages it makes: said before anything is drawn,
    so a paper that holds fewer cards than expected is noticed at once."""
    from generator.build.decks import deck_label
    from generator.i18n import N_, phrase, phrase_n
    from generator.render.imposition import grid, page_count, paper_name

    # a paper's orientation in the line, marked for the catalogs (`paysage`, `Querformat`)
    orientations = {"portrait": N_("portrait"), "landscape": N_("landscape")}

    po = options.print_options
    lines = []
    for deck in decks:
        size = deck.card_size
        layout = grid(size.width_pt, size.height_pt, po)
        count = len(deck.cards) if options.unique else deck.total
        # TRANSLATORS: before a build draws: how many cards a page of a deck holds (3 x 3 on A4 portrait) and
        # how many pages it makes; {orientation} is "portrait" or "landscape"
        lines.append(phrase("{deck}: {cards} a page ({cols} x {rows} on {paper} {orientation}), {pages}",
                            deck=deck_label(deck), cards=phrase_n("{n} card", "{n} cards", layout.per_page),
                            cols=layout.cols, rows=layout.rows, paper=paper_name(po.paper),
                            orientation=phrase(orientations.get(po.orientation, po.orientation)),
                            pages=phrase_n("{n} page", "{n} pages", page_count(count, layout, po))))
    return lines


def _watch(content_dir: Optional[Path], target: str, out: Path, options: "BuildOptions", cards: Optional[str],
           serve: bool, port: int) -> None:
    """`--watch`: build, then build again on every save, until Ctrl-C; with `--serve`, keep the preview current."""
    import threading
    from collections.abc import Callable

    from generator.build.watch import PreviewServer, Reporter, watch
    from generator.i18n import phrase

    reporter = Reporter(lambda line: typer.echo(line), lambda line: typer.echo(line, err=True))
    after: Callable[[Content, list[Deck]], None] | None = None
    server = None
    if serve:
        from generator.commands.export import check_jobs
        from generator.export.preview import export_preview

        jobs = check_jobs(None)

        def write_preview(content: "Content", decks: list["Deck"]) -> None:
            export_preview(content, decks, out, jobs, lambda n: None, options.lang)

        after = write_preview

        try:
            server = PreviewServer(out, port)
        except OSError as err:
            raise _usage("--port", phrase("cannot listen on 127.0.0.1:{port} ({reason}); choose another --port, or 0 "
                                          "for any free one", port=str(port), reason=str(err.strerror or err))) \
                from None
    stop = threading.Event()

    def ready() -> None:
        if server is not None:
            server.start()
            typer.echo(f"serving the preview at {server.url} (this machine only)")

    try:
        watch(content_dir, target, out, options, cards, reporter, stop, after, ready)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        if server is not None:
            server.stop()
    typer.echo("stopped watching.")
    import signal

    from generator.errors import Interrupted, requested_stop

    # watchfiles ends its loop quietly on any signal whose exception it caught (`raise_interrupt=False`): Ctrl-C is
    # the watch's own way to end (exit 0), but SIGTERM, SIGHUP or SIGQUIT stop it as they stop any command
    stopped_by = requested_stop()
    if stopped_by is not None and stopped_by != signal.SIGINT:
        raise Interrupted(stopped_by)
