"""`donjon score FILE...`: check end states by the rules of their game and score them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from generator.commands import (
    error_line,
    folder_option,
    interface_language,
    refuse_missing_folder,
    reports_errors,
    warning_line,
)

if TYPE_CHECKING:
    from generator.content import Content
    from generator.errors import Problem
    from generator.i18n import Language

HELP = """\
Check end states of Guildhall, Once Upon a Castle or Guédelon by the rules and score them.

Each FILE is a YAML or JSON end state naming its game in `game:` (see content/examples/), a filled
Once Upon a Castle score sheet (the fillable PDF of `donjon build`), or a photo (JPEG, PNG, HEIC) of a filled
scan-ready castle sheet (castle-sheet-VERSION-PAPER.pdf, printed). Prints a score table per file: the points
of each player by source, the places, the winner, and every rule broken, each on its own line. A check that
rests on a value no rulebook states (a review's tower values, donjon's own resident track) gives a warning, not
a violation: the file is still scored, and the warning says the value's source and confidence. Points computed
from such a value are marked. With --json, prints one JSON object per file, one per line, in the order given;
with several files each line names its "file", and a file that cannot be read (alone too) gets {"file": ...,
"error": ...}.
Filled sheets and photos given together are the sheets of one game: they are scored together, as one result.
A FILE given as - is an end state (YAML, or JSON when it starts with { or [) read from standard input
(some-tool | donjon score -); its messages name standard input and the line.

With --sheet, the filled sheets and photos are those of a sheet of your own (a folder with a sheet.yaml, or
its id in --content): each field's value is printed, and the score of each category when the sheet declares
scoring rules, the total and the players ranked.

A mark of a photo that cannot be decided is never guessed: it is listed (field, photo, why) and the game is not
scored (exit 1) until it is confirmed with --set FIELD=VALUE. With several photos, name the photo: by its file
(ben.jpg:towers[2]=5, the file as given or its name alone) or by its place (sheets[1].towers[2]=5, from 0 in
the order given). Of several photos, one that cannot be read (no whole sheet in it, a sheet of another
version...) does not hide the others: each photo is listed, one that cannot be read with why and what to change
(in the JSON, under "unread", as for a photo given alone), the others with their values to confirm, and nothing
is scored until every photo is read (a --set for a photo not read is not applied, and said so). Photos given the
same name in --names (a.jpg a2.jpg --names Ana,Ana) are photos of one sheet, say a second one from another angle
to move a glare off the marks: they are read as one sheet, mark by mark (a mark
one photo cannot decide takes what another sees; a mark they read differently is listed, "the photos
disagree"), named in --set by the name (Ana:towers[2]=5) or any of its photos, and listed under "combined" in
the JSON; photos that differ at more than 3 marks are refused as different players' sheets (exit 2). Photos
need the scan extra: pip install 'donjon[scan]'.

With --lang fr or de, everything said is in that language: the heading, the table, the summary, every rule
broken and warning with the section and source it cites, and the values a photo left to confirm. The JSON keeps
its keys and codes (`where`, `confidence`, `reason`, the breakdown's keys, `mill`: "built") and says its
messages (`message`, `source`, `why`, `advice`, `error`) in that language.

Exit codes: 0 every file is a valid, finished game (warnings or not); 1 a file breaks rules, records a game
still in progress, or has marks to confirm; 2 a file cannot be read (not YAML, JSON, a filled sheet or a photo
of one, wrong types, unknown keys or names, duplicate keys, unknown game, a sheet that needs a password; or one
of several photos scored together, or photos given as one sheet that show different sheets; or a --set that
cannot be taken: every one of a run is listed; or --set or --names with no sheet or photo to apply to; or
--lang not en, fr or de); 3
--annotate cannot be written. With several files, the highest.
"""

CONTENT_HELP = "A content folder whose catalogs (tower values, VP cards, tiles...) replace the shipped ones."

#: The help of `--lang` here: the words are all donjon's, in the languages its catalogs hold.
SCORE_LANG_HELP = ("The language to write in: en (the default), fr or de: the table, the summary and every message "
                   "(with --json, the messages; the keys and codes stay as they are).")


@reports_errors
def score(
    # text, not Path: typer validates each Path one by one, which a thousand files feel
    files: list[str] = typer.Argument(..., metavar="FILE...",
                                      help="End-state files (YAML or JSON; - for standard input), filled castle "
                                           "sheets (PDF) or photos of filled scan-ready castle sheets (JPEG, PNG, "
                                           "HEIC).",
                                      show_default=False),
    json_: bool = typer.Option(False, "--json", help="Print one JSON object per file instead of a table."),
    strict: bool = typer.Option(False, "--strict", help="Make every warning a violation: for games played on "
                                "donjon's own printed sheets, where its house values are the truth."),
    content_text: Optional[str] = typer.Option(None, "--content", metavar="DIR", help=CONTENT_HELP,
                                               show_default=False),
    names: Optional[str] = typer.Option(None, "--names", metavar="NAME,NAME...",
                                        help="The players of the filled sheets and photos given, in order, "
                                             "separated by commas (Ana,Ben); photos default to Player 1, Player "
                                             "2... Photos given the same name are photos of one sheet, read as one "
                                             "(Ana,Ana,Ben: the first two are Ana's sheet).",
                                        show_default=False),
    confirm: Optional[list[str]] = typer.Option(None, "--set", metavar="FIELD=VALUE",
                                                help="Confirm a value a photo left uncertain: towers[1]=5, "
                                                     "walls[0]=true, residents=14, guests=queen,jester, "
                                                     "towers[2]=none; with several photos, FILE:FIELD=VALUE "
                                                     "(ben.jpg:towers[1]=5) or sheets[N].FIELD=VALUE (N from 0, "
                                                     "in the order given); a sheet of several photos by its "
                                                     "name or any of its photos (Ana:towers[1]=5). Repeat for "
                                                     "each.", show_default=False),
    sheet_text: Optional[str] = typer.Option(None, "--sheet", metavar="SHEET",
                                             help="Read the filled sheets and photos as a sheet of your own: its "
                                                  "folder (with a sheet.yaml), or its id in --content.",
                                             show_default=False),
    lang_text: Optional[str] = typer.Option(None, "--lang", show_default=False, metavar="LANG",
                                            help=SCORE_LANG_HELP),
    annotate_text: Optional[str] = typer.Option(None, "--annotate", metavar="DIR",
                                                help="Write each photo into DIR with what was read drawn over it "
                                                     "(NAME.read.jpg; photos of one sheet: each with what it read "
                                                     "on its own) and its name box cropped (NAME.name.png); "
                                                     "photos of one file name get their place as well "
                                                     "(NAME-0, NAME-1, from 0 in the order given).",
                                                show_default=False),
) -> None:
    """Check end states by the rules of their game and score them."""
    lang = interface_language(lang_text)  # first: the refusals of the options below are said in it
    content = folder_option(content_text, "--content")
    annotate = folder_option(annotate_text, "--annotate")
    from generator.errors import UsageError, refused_sets, stop_if_requested
    from generator.games.base import SheetOptions
    from generator.i18n import language
    from generator.wording import visible_lines
    from scoring.batch import score_paths
    from scoring.engine import STDIN, Scorer, is_sheet

    refuse_missing_folder(content, "--content")
    say = lang or language()  # the command line's refusals too, in the table's language
    confirmed = []
    malformed = []
    for item in confirm or ():
        field, sep, value = item.partition("=")
        if not sep or not field.strip():
            malformed.append(UsageError(f"--set {item}", say._("expected FIELD=VALUE, such as towers[1]=5")))
        confirmed.append((field.strip(), value.strip()))
    if malformed:  # each said, before any photo is read (a second or more each)
        raise refused_sets(malformed, lang)
    if confirmed and not any(is_sheet(path) for path in files):
        # an end state is read exactly: a value to confirm there would be applied to nothing, and the user would
        # believe the result corrected (with sheets among the files, `confirmations` names the photo at fault);
        # the sheets' reader imported only here: end states alone never need it (a sixtieth of scoring one file)
        from generator.sheets.read import NO_PHOTO

        raise UsageError(f"--set {', '.join(field for field, _ in confirmed)}", say._(NO_PHOTO))
    players = tuple(n.strip() for n in names.split(",")) if names is not None else ()
    if any(not n for n in players):
        raise UsageError(f"--names {names}", say._("a name is empty; give one name per sheet, separated by commas"))
    if players and not any(is_sheet(path) for path in files):
        # an end state names its players itself: the names would be dropped, and the user would believe them used
        raise UsageError(f"--names {names}", say._("names the players of filled sheets and photos, and none was "
                                                   "given (a YAML or JSON end state names its players itself)"))
    if annotate is not None and annotate.exists() and not annotate.is_dir():
        from generator.errors import OutputError

        raise OutputError(f"--annotate {annotate}", "is a file, not a folder: name a folder to write into")
    options = SheetOptions(players, tuple(confirmed), annotate, unread_alone=json_, lang=lang)
    source: Path | Content | None = content
    sheet = None
    from generator.i18n import messages_in

    with messages_in(lang):  # a sheet's or a folder's problems and warnings in the table's language
        if sheet_text is not None:
            source, sheet = _own_sheet(sheet_text, content, lang)
        elif content is not None:
            from generator.content import load_content

            source = load_content(content)  # a content folder holding sheets of one's own registers them
    worst = 0
    printed = False
    if files.count(STDIN) > 1:
        count = files.count(STDIN)
        raise UsageError("FILE -", say.ngettext("is given {n} time; standard input is read once",
                                                "is given {n} times; standard input is read once",
                                                count).format(n=say.number(count)))
    scorer = Scorer(source, strict=strict, sheet_options=options, sheet=sheet, stdin=True,
                    lang=lang)
    for outcome in score_paths(files, scorer, json_):
        stop_if_requested()  # a stop whose exception Python dropped (in a finaliser) ends the command here
        worst = max(worst, outcome.exit_code)
        if outcome.error is not None:
            typer.echo(error_line(visible_lines(outcome.error), lang), err=True)
        if json_:
            if outcome.output is not None:
                typer.echo(outcome.output)
        elif outcome.output is not None:  # a file that cannot be read has none; sheets of which one is unread do
            typer.echo(("\n" if printed else "") + outcome.output)
            printed = True
    if worst:
        raise typer.Exit(worst)


def _own_sheet(given: str, content: Optional[Path], lang: "Language | None" = None) -> tuple[Content, str]:
    """The content a sheet of one's own is read with, and its id: `given` is its folder, or its id in `content`."""
    from generator.content import load_content
    from generator.errors import UsageError
    from generator.sheets.own import load_sheet

    folder = Path(given)
    if (folder / "sheet.yaml").is_file():
        loaded = load_content(content or folder)
        sheet, problems = load_sheet(folder, content or folder)
        if sheet is None:
            from generator.errors import ContentError

            raise ContentError(problems)
        _say_notes(sheet.notes(), lang)
        return loaded, sheet.id
    if content is None:
        raise UsageError(f"--sheet {given}", "is neither a folder with a sheet.yaml nor, with --content, the id of "
                                             "a sheet in it")
    loaded = load_content(content)
    if given not in loaded.catalogs:
        raise UsageError(f"--sheet {given}", f"is no sheet of {content} (it holds "
                                             f"{', '.join(loaded.catalogs) or 'nothing'})")
    found = getattr(loaded.catalogs[given], "sheet", None)
    _say_notes(found.notes() if found is not None else [], lang)
    return loaded, given


def _say_notes(notes: list[Problem], lang: "Language | None" = None) -> None:
    """A sheet's warnings on standard error, before the table they explain (players named by their files), `warning:`
    in the table's language (`avertissement :`)."""
    for note in notes:
        typer.echo(warning_line(str(note), lang), err=True)
