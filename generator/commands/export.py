"""`donjon export png|tts`: card images for print services and Tabletop Simulator."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TypeVar

import typer
from typer.core import TyperGroup

from generator.commands import (
    ALSO_HELP,
    LANG_HELP,
    decimal,
    folder_option,
    is_terminal,
    language_option,
    reported_before_placed,
    reports_errors,
    speaks_the_cards_language,
    warn_of_a_language_nobody_holds,
    warning_line,
)

if TYPE_CHECKING:  # annotations only: nothing heavy at start-up
    from generator.catalog.deck import Deck
    from generator.content import Content
    from generator.output import Transaction
    from generator.prepress.services import Service
    from generator.render.ink import PressSettings

HELP = """\
Export cards for print services (The Game Crafter, MakePlayingCards, DriveThruCards, PrintNinja, MB PRINT) and
Tabletop Simulator, and pictures of the decks (showcase).

`donjon export --service NAME` writes exactly what a print service asks for, named as it asks, and checks each
PDF against the service's rules (the preflight of `donjon check-print`). Services: drivethrucards (dtc),
thegamecrafter (tgc), makeplayingcards (mpc), printninja (pn), mbprint (mb; a European printer: Fogra39, 3 mm
bleed). Each
service's rules, with the page each was read in and when, are in templates/services/. Exit 1 when a file would
be refused (it is written all the same, so you can look at it). Exit 3 when a file, or the report on standard
output, cannot be written: the files are put in place only after their report, so then none is, and the files
an earlier export left in OUT stay as they were.
"""

PNG_HELP = """\
One PNG per card face and one of each deck's back, at a print service's size with bleed.

TARGET is `all` (the default), a game, GAME/DECK, or with --content a deck of your own by its id.
Presets: tgc (The Game Crafter: 825x1125 px for a poker card, 1/8 in bleed), mpc (MakePlayingCards: 822x1122
px, 0.12 in bleed), dtc (DriveThruCards' size, 1/8 in bleed; `donjon export --service dtc` writes the PDF the
service asks for), plain (the card's own size, no bleed). Writes OUT/png/GAME/DECK/CARD.png (OUT/png/decks/DECK/ for a
deck of your own), back.png (or backs/CARD.png when cards have backs of their own) and manifest.csv (file, id,
name and copies of every image). Images are RGB (RGBA, transparent outside, for pieces that are not rectangles:
a deck's `shape`), and two exports of the same input give the same bytes.
"""

TTS_HELP = """\
Tabletop Simulator decks: sheets of card faces, the back, and a saved object to load them.

TARGET is `all` (the default), a game, GAME/DECK, or with --content a deck of your own by its id.
Writes OUT/tts/GAME/DECK/: faces-1.png (and faces-2.png... when a deck has more than 69 different cards; each
sheet at most 10x7 cards and 4096 px a side), back.png, and DECK.json with its thumbnail DECK.png. Copy
DECK.json and DECK.png into Tabletop Simulator's Saves/Saved Objects folder and spawn the deck from Objects >
Saved Objects. The images are found by file:/// paths on this computer; with --base-url they are found at
BASE-URL/GAME/DECK/... once you upload the OUT/tts folder there, which other players need.
"""

class _ExportGroup(TyperGroup):
    """`donjon export`: a word that names no command of it is most likely the decks meant for `--service` (as every
    other command takes them, `donjon build guildhall`): the refusal says where they go."""

    # (typed loosely: typer's click is its own copy, its types private to it)
    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            commands = ", ".join(self.list_commands(ctx))
            ctx.fail(f"No such command {name!r} (the commands are {commands}). Decks for a print service are named "
                     f"with --decks: donjon export --service NAME --decks {name}; after a command they come last: "
                     f"donjon export tts {name}.")
        return super().resolve_command(ctx, args)


app = typer.Typer(cls=_ExportGroup, help=HELP, no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  invoke_without_command=True,
                  context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})

R = TypeVar("R")


def N_(message: str) -> str:
    """A message marked for the catalogs, said where it is shown (generator.i18n.N_, without importing the languages
    when the command line starts: `donjon --help` loads none)."""
    return message

_TARGET_HELP = "all (default), a game id, GAME/DECK, or the id of a deck of your own in --content."
_CONTENT_HELP = ("A content folder to export instead of the shipped games: game folders and/or deck folders, "
                 "or one deck folder.")
_JOBS_HELP = "Processes rendering at once (default: one per core)."


def _usage(option: str, message: str) -> Exception:
    from generator.errors import UsageError

    return UsageError(option, message)


def check_jobs(value: Optional[int]) -> int:
    from generator.export.jobs import MAX_JOBS, cores

    if value is None:
        return cores()
    if not 1 <= value <= MAX_JOBS:
        raise _usage("--jobs", _out_of_range(value, 1, MAX_JOBS))
    return value


def _out_of_range(value: int, low: int, high: int) -> str:
    """The refusal of a whole number given to an option out of its range, in the language of the messages."""
    from generator.i18n import phrase

    return phrase("{value} is out of range; it must be from {low} to {high}", value=str(value), low=str(low),
                  high=str(high))


def _quoted(value: str) -> str:
    from generator.sayings import phrase_quoted

    return phrase_quoted(value, None)


def inches(value: float) -> str:
    """A size in inches as the command's messages write it: `2.75` in English (as `f"{value:g}"`), `2,75` in French
    and German."""
    from generator.i18n import messages_language

    spoken = messages_language()
    return f"{value:g}" if spoken is None else spoken.number(value)


def check_base_url(base_url: str) -> None:
    """An http(s) address the images' names can be added to: no query or fragment, which would end up in the
    middle of every address (`https://host/x?q/GAME/DECK/back.png`)."""
    from urllib.parse import urlsplit

    text = base_url.strip()
    from generator.i18n import phrase

    if not re.fullmatch(r"https?://[^\s\"'<>\\]+", text):
        raise _usage("--base-url", phrase("{value} is not an http:// or https:// address", value=_quoted(base_url)))
    parts = urlsplit(text)
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise _usage("--base-url", phrase("{value} has a query (?...) or a fragment (#...): give the address of the "
                                          "folder alone, like https://example.org/my-decks", value=_quoted(base_url)))
    if not parts.hostname:
        raise _usage("--base-url", phrase("{value} names no host", value=_quoted(base_url)))


def _decks(content_dir: Optional[Path], target: Optional[str], lang_text: Optional[str] = None,
           also_text: Optional[str] = None, option: str = "TARGET") -> tuple[Content, list[Deck]]:
    """The decks `target` chooses; a mistake in it is named as `option` (the argument TARGET, or `--decks`)."""
    from generator.content import all_decks, load_content, select
    from generator.errors import UsageError
    from generator.i18n import phrase

    if target is not None and not target.strip():
        raise UsageError(option, phrase("is empty: name a game, a deck, or all"))
    lang, also = language_option(lang_text, "--lang"), language_option(also_text, "--also")
    content = load_content(content_dir)
    try:
        decks = select(all_decks(content, lang, also), target or "all")
    except UsageError as err:  # select() speaks for `donjon build`; name what was wrong here
        raise UsageError(option, err.reason) from None
    if lang is not None:
        warn_of_a_language_nobody_holds(lang, decks, content.user_decks)
    if also is not None:
        warn_of_a_language_nobody_holds(also, decks, content.user_decks, "--also")
    return content, decks


def with_progress(total: int, label: str, work: Callable[[Callable[[int], None]], R]) -> R:
    """`work(progress)` with a progress bar on stderr when a person is watching, else without."""
    if is_terminal():
        from generator.i18n import phrase

        with typer.progressbar(length=total, label=phrase(label), file=sys.stderr) as bar:
            return work(bar.update)
    return work(lambda n: None)


@app.command("png", help=PNG_HELP)
@reports_errors
@speaks_the_cards_language
def png(
    target: Optional[str] = typer.Argument(None, show_default=False, metavar="TARGET", help=_TARGET_HELP),
    preset: str = typer.Option("tgc", "--preset", metavar="tgc|mpc|dtc|plain",
                               help="The print service's size: tgc, mpc, dtc, or plain (trim size, no bleed)."),
    dpi: Optional[int] = typer.Option(None, "--dpi", show_default=False, metavar="N",
                                      help="Pixels per inch, 72 to 1200 (default 300, the services' own)."),
    content_dir_text: Optional[str] = typer.Option(None, "--content", show_default=False, metavar="DIR",
                                               help=_CONTENT_HELP),
    out_text: str = typer.Option("output", "--out", metavar="DIR", help="The folder to write into (OUT/png/...)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", show_default=False, metavar="N", help=_JOBS_HELP),
    lang_text: Optional[str] = typer.Option(None, "--lang", show_default=False, metavar="LANG", help=LANG_HELP),
    also_text: Optional[str] = typer.Option(None, "--also", show_default=False, metavar="LANG", help=ALSO_HELP),
) -> None:
    """One PNG per card face and each deck's back, at a print service's size."""
    out = folder_option(out_text, "--out")
    content_dir = folder_option(content_dir_text, "--content")
    import time

    from generator.export.geometry import MAX_DPI, MIN_DPI, PRESETS
    from generator.export.png import MANIFEST, PngOptions, export_png
    from generator.i18n import phrase, phrase_n
    from generator.output import prepare_dir
    from generator.prepress.services import find_service
    from generator.resources import display_path

    start = time.perf_counter()
    key = preset.strip().lower()
    if key not in PRESETS:
        raise _usage("--preset", phrase("{value} is not one of {choices}", value=_quoted(preset),
                                        choices=", ".join(PRESETS)))
    if dpi is not None and not MIN_DPI <= dpi <= MAX_DPI:
        raise _usage("--dpi", _out_of_range(dpi, MIN_DPI, MAX_DPI))
    # a service's size: its cards measured against its safe margin too, as `export --service` measures them
    measured = find_service(key) if PRESETS[key].snap else None
    options = PngOptions(PRESETS[key], dpi, check_jobs(jobs), service=measured)
    content, decks = _decks(content_dir, target, lang_text, also_text)
    prepare_dir(out)
    with reported_before_placed(out, "export"):
        total = sum(len(d.cards) + 1 for d in decks)
        report = with_progress(total, N_("Rendering cards"), lambda progress: export_png(content, decks, out, options,
                                                                                         progress))
        for deck in report.decks:
            w, h = deck.size
            backs = (phrase("the back") if deck.backs == 1
                     else phrase_n("{n} back, in backs/", "{n} backs, in backs/", deck.backs))
            # TRANSLATORS: a deck's folder donjon export png wrote; {faces} is "3 faces", {backs} "the back" or
            # "2 backs, in backs/", {manifest} the name of the list of files
            typer.echo(phrase_n("wrote {path}/: {n} PNG file of {w}x{h} px ({faces} and {backs}), {manifest}",
                                "wrote {path}/: {n} PNG files of {w}x{h} px ({faces} and {backs}), {manifest}",
                                deck.faces + deck.backs, path=display_path(deck.folder), w=w, h=h,
                                faces=phrase_n("{n} face", "{n} faces", deck.faces), backs=backs,
                                manifest=MANIFEST))
            if measured is not None:
                _say_margins(deck, measured)
        seconds = time.perf_counter() - start
        rate = phrase(" ({rate} images/s)", rate=decimal(report.images / seconds, 0)) if seconds > 0 else ""
        typer.echo(phrase("Exported {decks}: {files} ({size}) in {seconds} s{rate}.",
                          decks=phrase_n("{n} deck", "{n} decks", len(report.decks)),
                          files=phrase_n("{n} PNG file", "{n} PNG files", report.images),
                          size=phrase(PRESETS[key].label),
                          seconds=decimal(seconds, 2), rate=rate))


@app.command("tts", help=TTS_HELP)
@reports_errors
@speaks_the_cards_language
def tts(
    target: Optional[str] = typer.Argument(None, show_default=False, metavar="TARGET", help=_TARGET_HELP),
    content_dir_text: Optional[str] = typer.Option(None, "--content", show_default=False, metavar="DIR",
                                               help=_CONTENT_HELP),
    out_text: str = typer.Option("output", "--out", metavar="DIR", help="The folder to write into (OUT/tts/...)."),
    base_url: Optional[str] = typer.Option(
        None, "--base-url", show_default=False, metavar="URL",
        help="Where you will upload the OUT/tts folder (https://...): the saved objects then name their images "
             "there instead of by file:/// paths on this computer."),
    jobs: Optional[int] = typer.Option(None, "--jobs", show_default=False, metavar="N", help=_JOBS_HELP),
    lang_text: Optional[str] = typer.Option(None, "--lang", show_default=False, metavar="LANG", help=LANG_HELP),
    also_text: Optional[str] = typer.Option(None, "--also", show_default=False, metavar="LANG", help=ALSO_HELP),
) -> None:
    """Tabletop Simulator decks: face sheets, the back and a saved object."""
    out = folder_option(out_text, "--out")
    content_dir = folder_option(content_dir_text, "--content")
    import time

    from generator.export.tts import export_tts
    from generator.i18n import phrase, phrase_n
    from generator.output import prepare_dir
    from generator.resources import display_path

    start = time.perf_counter()
    if base_url is not None:
        check_base_url(base_url)
    jobs_count = check_jobs(jobs)
    content, decks = _decks(content_dir, target, lang_text, also_text)
    prepare_dir(out)
    with reported_before_placed(out, "export"):
        total = sum(len(d.cards) + 1 for d in decks)
        report = with_progress(total, N_("Rendering sheets"), lambda progress: export_tts(
            content, decks, out, jobs_count, base_url.strip() if base_url else None, progress))
        for deck in report.decks:
            w, h = deck.cell
            sheets = ", ".join(f"{s.name} ({s.columns}x{s.rows})" for s in deck.sheets)
            backs = "back.png" if deck.uniform else phrase("their backs (backs-N.png)")
            # TRANSLATORS: a deck's folder donjon export tts wrote: its sheets of cards, backs and saved object
            typer.echo(phrase("wrote {path}/: {sheets}, {backs}, {saved}; cards of {w}x{h} px",
                              path=display_path(deck.folder), sheets=sheets, backs=backs, saved=deck.saved.name,
                              w=w, h=h))
        seconds = time.perf_counter() - start
        cards = sum(d.deck.total for d in report.decks)
        # TRANSLATORS: the last line of donjon export tts; a sheet here is a picture of many cards for the game
        typer.echo(phrase("Exported {decks} for Tabletop Simulator: {cards} on {sheets} in {seconds} s.",
                          decks=phrase_n("{n} deck", "{n} decks", len(report.decks)),
                          cards=phrase_n("{n} card", "{n} cards", cards),
                          sheets=phrase_n("{n} sheet", "{n} sheets", sum(len(d.sheets) for d in report.decks)),
                          seconds=decimal(seconds, 2)))


DTC_HELP = """\
One RGB PDF per deck at DriveThruCards' sizes: every page one side of one card with 1/8 in of bleed, each card's
back followed by its front (the service's page order), every copy in deck order.

TARGET is `all` (the default), a game, GAME/DECK, or with --content a deck of your own by its id.
Writes OUT/dtc/GAME/DECK.pdf (OUT/dtc/decks/DECK.pdf for a deck of your own; a poker card's pages are
2.75 x 3.75 in). Vector text with embedded fonts, in RGB: the file to upload, CMYK in PDF/X-1a:2003 as the
service asks and checked by the preflight, is `donjon export --service dtc`'s.
"""


@app.command("dtc", help=DTC_HELP)
@reports_errors
@speaks_the_cards_language
def dtc(
    target: Optional[str] = typer.Argument(None, show_default=False, metavar="TARGET", help=_TARGET_HELP),
    content_dir_text: Optional[str] = typer.Option(None, "--content", show_default=False, metavar="DIR",
                                                   help=_CONTENT_HELP),
    out_text: str = typer.Option("output", "--out", metavar="DIR", help="The folder to write into (OUT/dtc/...)."),
    lang_text: Optional[str] = typer.Option(None, "--lang", show_default=False, metavar="LANG", help=LANG_HELP),
    also_text: Optional[str] = typer.Option(None, "--also", show_default=False, metavar="LANG", help=ALSO_HELP),
) -> None:
    """DriveThruCards' sizes: one RGB PDF per deck, back then front of every card."""
    out = folder_option(out_text, "--out")
    content_dir = folder_option(content_dir_text, "--content")
    import time

    from generator.export.dtc import export_dtc
    from generator.i18n import phrase, phrase_n
    from generator.output import prepare_dir
    from generator.resources import display_path

    start = time.perf_counter()
    content, decks = _decks(content_dir, target, lang_text, also_text)
    prepare_dir(out)
    with reported_before_placed(out, "export"):
        total = sum(d.total for d in decks)
        report = with_progress(total, N_("Drawing cards"), lambda progress: export_dtc(content, decks, out,
                                                                                        progress))
        for deck in report.decks:
            w, h = deck.size_in
            # TRANSLATORS: a PDF donjon export dtc wrote: its pages, their size in inches, its cards
            typer.echo(phrase("wrote {path}: {pages} of {w} x {h} in ({cards}, back then front, RGB)",
                              path=display_path(deck.path), pages=phrase_n("{n} page", "{n} pages", deck.pages),
                              w=inches(w), h=inches(h), cards=phrase_n("{n} card", "{n} cards", deck.deck.total)))
        seconds = time.perf_counter() - start
        typer.echo(phrase("Exported {decks} for DriveThruCards in {seconds} s.",
                          decks=phrase_n("{n} deck", "{n} decks", len(report.decks)), seconds=decimal(seconds, 2)))


@app.callback()
@reports_errors
@speaks_the_cards_language
def service(
    ctx: typer.Context,
    service_name: Optional[str] = typer.Option(
        None, "--service", show_default=False, metavar="NAME",
        help="A print service: drivethrucards (dtc), thegamecrafter (tgc), makeplayingcards (mpc), printninja (pn), "
             "mbprint (mb). Writes OUT/print/SERVICE/... as the service asks."),
    target: Optional[str] = typer.Option(None, "--decks", show_default=False, metavar="TARGET", help=_TARGET_HELP),
    content_dir_text: Optional[str] = typer.Option(None, "--content", show_default=False, metavar="DIR",
                                                   help=_CONTENT_HELP),
    out_text: str = typer.Option("output", "--out", metavar="DIR", help="The folder to write into."),
    colour: Optional[str] = typer.Option(
        None, "--colour", show_default=False, metavar="rgb|cmyk",
        help="The PDFs' colours: cmyk (through the service's ICC profile, with its ink limit and rich black) or rgb; "
             "default: what the service asks."),
    profile: Optional[str] = typer.Option(
        None, "--profile", show_default=False, metavar="FILE",
        help="Your own ICC output profile (the service's or your printer's .icc) for --colour cmyk, instead of the "
             "one donjon ships for the service."),
    pdfx: Optional[str] = typer.Option(
        None, "--pdfx", show_default=False, metavar="x1a|x4|none",
        help="The PDF/X standard of a CMYK PDF; default: what the service asks."),
    jobs: Optional[int] = typer.Option(None, "--jobs", show_default=False, metavar="N", help=_JOBS_HELP),
    as_json: bool = typer.Option(False, "--json", help="The preflight report as JSON, one object per file and line, "
                                                       "alone on standard output (what was written goes to standard "
                                                       "error)."),
    lang_text: Optional[str] = typer.Option(None, "--lang", show_default=False, metavar="LANG", help=LANG_HELP),
    also_text: Optional[str] = typer.Option(None, "--also", show_default=False, metavar="LANG", help=ALSO_HELP),
) -> None:
    """Export for a print service (`--service NAME`), or run one of the commands below."""
    from generator.i18n import phrase, phrase_n

    if ctx.invoked_subcommand is not None:
        if service_name is not None:
            raise _usage("--service", phrase("goes alone: `donjon export --service NAME`, not with `{command}`",
                                             command=ctx.invoked_subcommand))
        return
    if service_name is None:
        typer.echo(ctx.get_help())
        return
    out = folder_option(out_text, "--out")
    content_dir = folder_option(content_dir_text, "--content")
    import time

    from generator.prepress.services import find_service

    start = time.perf_counter()
    chosen = find_service(service_name)
    if colour is not None and colour.strip().lower() not in ("rgb", "cmyk"):
        raise _usage("--colour", phrase("{value} is not rgb or cmyk", value=_quoted(colour)))
    if pdfx is not None and pdfx.strip().lower() not in ("x1a", "x4", "none"):
        raise _usage("--pdfx", phrase("{value} is not x1a, x4 or none", value=_quoted(pdfx)))
    _press_options_fit(chosen, colour, profile, pdfx)
    jobs_count = check_jobs(jobs)  # a PDF service draws in this process, but a wrong --jobs is said all the same
    own_profile = icc_file(profile) if profile is not None else None
    content, decks = _decks(content_dir, target, lang_text, also_text, "--decks")
    from generator.output import prepare_dir

    prepare_dir(out)
    # with --json, standard output is the reports alone (a program reads it line by line); what was written and
    # the summary are for the person watching, on standard error
    aside = as_json
    press = None if chosen.delivery == "png" else chosen.press(
        colour.strip().lower() if colour else None, own_profile,
        None if pdfx is None else ("" if pdfx.strip().lower() == "none" else pdfx.strip().lower()))
    with reported_before_placed(out, "export") as tx:
        if press is None:
            _service_images(chosen, content, decks, out, jobs_count, aside)
            refused = False
            count = len(decks)
        else:
            refused, count = _service_pdfs(chosen, press, content, decks, out, tx, as_json)
        typer.echo(phrase("Exported {decks} for {service} in {seconds} s.",
                          decks=phrase_n("{n} deck", "{n} decks", count), service=chosen.name,
                          seconds=decimal(time.perf_counter() - start, 2)), err=aside)
    if refused:
        raise typer.Exit(1)


def _service_pdfs(chosen: Service, press: PressSettings, content: Content, decks: list[Deck], out: Path,
                  tx: Transaction, as_json: bool) -> tuple[bool, int]:
    """Draw each deck's PDF for a PDF service into the transaction `tx`, check each where it is staged, and report
    it; whether any would be refused, and how many files were made."""
    from generator.export.service import export_pdfs
    from generator.i18n import language, phrase, phrase_n
    from generator.prepress.preflight import add_product, add_shape, check_pdf
    from generator.resources import display_path

    total = sum(d.total for d in decks)
    report = with_progress(total, N_("Drawing cards"), lambda progress: export_pdfs(content, decks, out, chosen,
                                                                                    press, progress))
    refused = False
    for file in report.files:
        w, h = file.size_in
        # TRANSLATORS: a PDF donjon export --service wrote: its pages, their size in inches, its cards, the order
        # of its pages, its colours (RGB, CMYK, and its PDF/X standard)
        typer.echo(phrase("wrote {path}: {pages} of {w} x {h} in ({cards}, {order}, {colours})",
                          path=display_path(file.path), pages=phrase_n("{n} page", "{n} pages", file.pages),
                          w=inches(w), h=inches(h), cards=phrase_n("{n} card", "{n} cards", file.deck.total),
                          order=chosen.order,
                          colours=f"{press.space.upper()}{', PDF/X-' + press.pdfx[1:] if press.pdfx else ''}"),
                   err=as_json)
        staged = tx.staged_file(file.path)
        result = check_pdf(staged or file.path, chosen, display_path(file.path), pictures=file.pictures,
                           enlarged=file.enlarged)
        add_shape(result, file.deck.key, file.deck.shape, language(file.deck.lang))
        add_product(result, file.deck.key, file.deck.card_size, language(file.deck.lang))
        refused = refused or result.refused
        _say(result, as_json)
        _say_outlined_margins(file, chosen)
    return refused, len(report.files)


def _say_outlined_margins(file: object, service: Service) -> None:
    """A warning on standard error for each layout box closer to the cut than the safe margin of a service taking
    text as outlines: the preflight sees its text as paths, with no name."""
    from generator.export.safe_zone import margin_warning
    from generator.export.service import ServiceFile
    from generator.i18n import language
    from generator.wording import visible_lines

    assert isinstance(file, ServiceFile)
    for margin in file.margins:
        said = margin_warning(file.deck.key, margin, service, language(file.deck.lang))
        typer.echo(warning_line(visible_lines(said)), err=True)


def _press_options_fit(chosen: Service, colour: Optional[str], profile: Optional[str], pdfx: Optional[str]) -> None:
    """Refuse press options the export could not follow, rather than drop them without a word: the pictures an
    image service takes are RGB PNGs, and an RGB PDF has neither an ICC output profile nor a PDF/X standard (both
    of donjon's, X-1a and X-4, are written here with a CMYK output intent)."""
    from generator.i18n import phrase

    given = [name for name, value in (("--colour", colour), ("--profile", profile), ("--pdfx", pdfx))
             if value is not None]
    if chosen.delivery == "png" and given:
        raise _usage(given[0], phrase("{service} takes PNG pictures, in RGB; --colour, --profile and --pdfx are for "
                                      "the PDF services", service=chosen.name))
    if (colour or chosen.colour).strip().lower() != "rgb":
        return
    if profile is not None:
        raise _usage("--profile", phrase("an ICC profile converts to CMYK; it cannot be used with --colour rgb"))
    if pdfx is not None and pdfx.strip().lower() != "none":
        raise _usage("--pdfx", phrase("{value} is a CMYK standard; it cannot be written with --colour rgb",
                                      value=pdfx.strip().lower()))


def icc_file(text: str) -> Path:
    """`--profile FILE`: a CMYK ICC profile (its header says so), or an input error naming the file."""
    from generator.errors import InputError
    from generator.i18n import phrase

    path = Path(text).expanduser()
    try:
        head = path.read_bytes()[:40]
    except OSError as err:
        raise InputError(text, phrase("cannot be read ({reason})", reason=str(err.strerror or err))) from None
    if len(head) < 40 or head[36:40] != b"acsp" or head[16:20] != b"CMYK":
        raise InputError(text, phrase("is not a CMYK ICC profile (an .icc file whose colour space is CMYK)"))
    return path


def _say(result: object, as_json: bool) -> None:
    from generator.prepress.preflight import Preflight

    assert isinstance(result, Preflight)
    if as_json:
        import json

        typer.echo(json.dumps(result.as_json(), ensure_ascii=False))
    else:
        for line in result.lines():
            typer.echo(line)


def _service_images(chosen: object, content: Content, decks: list[Deck], out: Path, jobs_count: int,
                    aside: bool) -> None:
    """The PNG files of an image service; `aside`: what was written said on standard error (with --json)."""
    from generator.export.png import MANIFEST, PngOptions, export_png
    from generator.export.service import preset
    from generator.i18n import language, phrase_n
    from generator.prepress.preflight import product_warning, shape_warning
    from generator.prepress.services import Service
    from generator.resources import display_path

    assert isinstance(chosen, Service)
    options = PngOptions(preset(chosen), None, jobs_count, ("print", chosen.id), chosen)
    total = sum(len(d.cards) + 1 for d in decks)
    report = with_progress(total, N_("Rendering cards"), lambda progress: export_png(content, decks, out, options,
                                                                                     progress))
    for deck in report.decks:
        w, h = deck.size
        # TRANSLATORS: a deck's folder donjon export --service wrote for a service taking pictures
        typer.echo(phrase_n("wrote {path}/: {n} PNG file of {w}x{h} px at {dpi} dpi, {manifest} (each face's copies, "
                            "as {service} asks them)", "wrote {path}/: {n} PNG files of {w}x{h} px at {dpi} dpi, "
                            "{manifest} (each face's copies, as {service} asks them)", deck.faces + deck.backs,
                            path=display_path(deck.folder), w=w, h=h, dpi=chosen.dpi, manifest=MANIFEST,
                            service=chosen.name), err=aside)
        for said in (shape_warning(deck.deck.key, deck.deck.shape, chosen, language(deck.deck.lang)),
                     product_warning(deck.deck.key, deck.deck.card_size, chosen, language(deck.deck.lang))):
            if said is not None:
                typer.echo(warning_line(said), err=True)
        _say_margins(deck, chosen)


def _say_margins(deck: object, service: object) -> None:
    """A warning on standard error for each box of the deck closer to the service's cut than its safe margin, and
    for each picture printed below a good resolution."""
    from generator.export.png import PngDeck
    from generator.export.resolution import resolution_warning
    from generator.export.safe_zone import margin_warning
    from generator.i18n import language
    from generator.prepress.services import Service
    from generator.wording import visible_lines

    assert isinstance(deck, PngDeck) and isinstance(service, Service)
    for margin in deck.margins:
        said = margin_warning(deck.deck.key, margin, service, language(deck.deck.lang))
        typer.echo(warning_line(visible_lines(said)), err=True)
    for picture in deck.pictures:
        said = resolution_warning(deck.deck.key, picture, service, language(deck.deck.lang))
        typer.echo(warning_line(visible_lines(said)), err=True)


SHOWCASE_HELP = """\
Pictures of each deck for a crowdfunding page or a BoardGameGeek post: a hand of its first cards fanned out, and
a spread of the deck on a table (a face-down draw pile and its cards dealt face up).

TARGET is `all` (the default), a game, GAME/DECK, or with --content a deck of your own by its id.
Writes OUT/showcase/GAME/DECK-hand.png and DECK-table.png (OUT/showcase/decks/ for a deck of your own), RGB
PNGs; two exports of the same input give the same bytes.
"""


@app.command("showcase", help=SHOWCASE_HELP)
@reports_errors
@speaks_the_cards_language
def showcase(
    target: Optional[str] = typer.Argument(None, show_default=False, metavar="TARGET", help=_TARGET_HELP),
    content_dir_text: Optional[str] = typer.Option(None, "--content", show_default=False, metavar="DIR",
                                                   help=_CONTENT_HELP),
    out_text: str = typer.Option("output", "--out", metavar="DIR",
                                 help="The folder to write into (OUT/showcase/...)."),
    dpi: int = typer.Option(150, "--dpi", metavar="N", help="Pixels per inch of the cards, 72 to 600."),
    in_hand: int = typer.Option(5, "--hand", metavar="N", help="Cards in the hand, 1 to 12."),
    on_table: int = typer.Option(12, "--table", metavar="N", help="Cards dealt on the table, 1 to 36."),
    lang_text: Optional[str] = typer.Option(None, "--lang", show_default=False, metavar="LANG", help=LANG_HELP),
    also_text: Optional[str] = typer.Option(None, "--also", show_default=False, metavar="LANG", help=ALSO_HELP),
) -> None:
    """A hand and a table spread of each deck, as PNG pictures."""
    out = folder_option(out_text, "--out")
    content_dir = folder_option(content_dir_text, "--content")
    import time

    from generator.export.showcase import export_showcase
    from generator.i18n import phrase, phrase_n
    from generator.output import prepare_dir
    from generator.resources import display_path

    start = time.perf_counter()
    for option, value, low, high in (("--dpi", dpi, 72, 600), ("--hand", in_hand, 1, 12),
                                     ("--table", on_table, 1, 36)):
        if not low <= value <= high:
            raise _usage(option, _out_of_range(value, low, high))
    content, decks = _decks(content_dir, target, lang_text, also_text)
    prepare_dir(out)
    with reported_before_placed(out, "export"):
        report = with_progress(len(decks), N_("Drawing pictures"), lambda progress: export_showcase(
            content, decks, out, dpi, in_hand, on_table, progress))
        for deck in report.decks:
            (hw, hh), (tw, th) = deck.hand_size, deck.table_size
            # TRANSLATORS: the two pictures donjon export showcase drew of a deck: a hand of cards, and a table
            typer.echo(phrase("wrote {hand} ({hw}x{hh} px) and {table} ({tw}x{th} px)", hand=display_path(deck.hand),
                              hw=str(hw), hh=str(hh), table=display_path(deck.table), tw=str(tw), th=str(th)))
        seconds = time.perf_counter() - start
        typer.echo(phrase("Exported {decks} as pictures in {seconds} s.",
                          decks=phrase_n("{n} deck", "{n} decks", len(report.decks)), seconds=decimal(seconds, 2)))
