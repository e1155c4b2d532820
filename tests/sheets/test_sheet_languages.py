"""The castle sheets in French and German: a golden page per language, the same marks as in English (so a photo of
a French or German sheet is read with the same map), a filled French fillable sheet scored with French names.

`pytest --regenerate` writes the golden pages anew (review them: render the PDF and look at it)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from generator.catalog.translations import localise
from generator.games.castle.sheets import drawn, read_sheets
from tests.sheets.helpers import GOLDEN, PAPERS, VERSIONS, castle_values, fill, shipped
from tests.sheets.test_sheet_golden import dumped, loaded

LANGUAGES = ("fr", "de")
#: The page kept as each language's golden copy: the scan-ready Great Architect sheet prints the most words.
PAGE = "castle-sheet-great-architect-a4"


@pytest.fixture(scope="module", params=LANGUAGES)
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The castle's sheets as `donjon build --lang` writes them, once per language."""
    from generator.backends import backend
    from generator.build.options import BuildOptions
    from generator.build.score_sheets import make_score_sheets
    from generator.content import load_content
    from generator.output import transaction

    code = request.param
    out = tmp_path_factory.mktemp(code)
    content = load_content(games=["once-upon-a-castle"])
    with transaction(out):
        make_score_sheets(content, list(content.games()), out, backend("pdf"), BuildOptions(lang=code))
    return code, out / "score-sheets" / "once-upon-a-castle"


def test_a_sheet_page_per_language_draws_what_its_golden_copy_draws(built: tuple[str, Path],
                                                                     regenerate: bool) -> None:
    from tests.conftest import _wrote_golden
    from tests.pdfnormal import differences, normalised

    code, folder = built
    golden = GOLDEN / "drawn" / "lang" / f"{PAGE}.{code}.jsonl.gz"
    lines = normalised(folder / f"{PAGE}.pdf")
    if _wrote_golden(golden, dumped(lines), regenerate):
        return
    diff = differences(loaded(golden.read_bytes()), lines)
    assert not diff, f"{PAGE}.pdf in {code} draws something else than {golden}\n" + "\n".join(diff)


@pytest.mark.parametrize("name", [f"castle-sheet-{v}-{p}" for v in VERSIONS for p in PAPERS])
def test_every_map_of_marks_is_the_english_one(built: tuple[str, Path], name: str) -> None:
    """Only words change with the language: each scan-ready sheet's map of marks is the English golden copy, byte
    for byte, so the one map reads a photo of a sheet printed in any language."""
    _, folder = built
    assert (folder / f"{name}.marks.json").read_bytes() == (GOLDEN / "drawn" / f"{name}.marks.json").read_bytes()


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_photo_of_a_sheet_in_another_language_is_read(code: str) -> None:
    pytest.importorskip("cv2")
    from tests.scan.helpers import GREAT, expected, fill_marks, photograph, rendered

    sheet = drawn(localise(shipped(), code), "great-architect", "a4", "scan")
    assert sheet.map is not None
    image = fill_marks(sheet.map, rendered(sheet.page()), GREAT)
    read = read_sheets([(photograph(image, turn=90.0), "ana.jpg")], shipped())
    assert read.uncertain == ()
    values = {k: v for k, v in read.document.data["sheets"][0].items() if k != "player"}
    assert values == expected("great-architect", "a4", GREAT)


def test_a_french_fillable_sheet_filled_with_french_names_scores(tmp_path: Path) -> None:
    """The French fillable sheet: its fields' tooltips in French, its form the English one's; filled with the
    guests' French names (as a French table writes them), it reads and scores as the English names do."""
    import pypdf

    import scoring
    from generator.backends.pdf import write_pdf

    sheet = drawn(localise(shipped(), "fr"), "great-architect", "a4", "fillable")
    english = drawn(shipped(), "great-architect", "a4", "fillable")
    assert [(f.name, f.kind) for f in sheet.forms] == [(f.name, f.kind) for f in english.forms]
    tooltips = {f.name: f.tooltip for f in sheet.forms}
    assert tooltips["player"] == "votre nom" and tooltips["tower_1_value"].startswith("la valeur écrite sur la tour")
    blank = tmp_path / "blank.pdf"
    write_pdf([sheet.page()], blank, title="feuille", lang="fr")
    fields = pypdf.PdfReader(blank).get_fields() or {}
    assert fields["guest_1"].get("/TU") == "invité 1\u00a0: le nom de l\u2019invité"
    values = castle_values("Ana", floors=2, towers=(5, 2), walls={1: (2,)}, guests=("Reine", "bouffon"))
    french = fill(blank, tmp_path / "ana.pdf", values)
    read = read_sheets([(french.read_bytes(), "ana.pdf")], shipped())
    assert read.uncertain is None and read.document.data["sheets"][0]["guests"] == ["Reine", "bouffon"]
    in_english = fill(blank, tmp_path / "en.pdf", {**values, "guest_1": "Queen", "guest_2": "Jester"})
    scored, expected = scoring.score(french), scoring.score(in_english)
    assert scored.violations == expected.violations == ()
    assert [(p.score, dict(p.breakdown)) for p in scored.players] == [(p.score, dict(p.breakdown))
                                                                       for p in expected.players]
    assert dict(scored.players[0].breakdown)["guest:queen"] == 3


def test_a_guest_twice_on_sheets_in_two_languages_is_named_as_its_sheet_writes_it(tmp_path: Path) -> None:
    """Jürgen's German sheet and Amy's English one, both holding the Queen: the file's names were told German by
    Jürgen's sheet, and Amy's `Queen` was reported as "Königin is already in Jürgen's castle". It is named as her
    sheet writes it, with the article of the message's English (exit 1 as before, the field named)."""
    from generator.backends.pdf import write_pdf
    from generator.errors import ExitCode
    from scoring.engine import Scorer

    blanks = {}
    for code, catalog in (("de", localise(shipped(), "de")), ("en", shipped())):
        blanks[code] = tmp_path / f"blank-{code}.pdf"
        write_pdf([drawn(catalog, "great-architect", "a4", "fillable").page()], blanks[code], title="sheet", lang=code)
    jurgen = fill(blanks["de"], tmp_path / "jurgen.pdf", castle_values("Jürgen", floors=2, guests=("Königin", "Narr")))
    amy = fill(blanks["en"], tmp_path / "amy.pdf", castle_values("Amy", floors=1, guests=("Queen",)))
    result = Scorer().score_sheets([jurgen, amy])
    assert result.exit_code == ExitCode.INVALID
    (violation,) = result.violations
    assert violation.where == "sheets[1].guests[0]"
    assert violation.message.startswith("the Queen is already in Jürgen's castle (sheets[0].guests[0])"), violation
    assert violation.message.endswith("amy.pdf, field guest_1)"), violation


LANTERN_FR = """
languages:
  fr:
    name: Port aux Lanternes
    words: {digits: {tens: diz., units: unit.}}
    values:
      goods:
        - {id: salt, name: Sel}
        - {id: rope, name: Corde}
        - {id: tar, name: Goudron}
        - {id: silk, name: Soie}
        - {id: spice, name: Épices}
        - {id: tea, name: Thé}
        - {id: wool, name: Laine}
        - {id: amber, name: Ambre}
"""


def lantern_in_french(tmp_path: Path, french: str = LANTERN_FR) -> Path:
    """A copy of the sample sheet Lantern Harbour (tests/sheets/test_own_sheet.SHEET) in `tmp_path/lantern`, its
    sheet.yaml given `french` (the French of LANTERN_FR, or a variation of it a test makes): the folder."""
    import shutil

    from tests.sheets.test_own_sheet import SHEET

    folder = tmp_path / "lantern"
    shutil.copytree(SHEET, folder)
    spec = folder / "sheet.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + french, encoding="utf-8")
    return folder


def test_a_sheet_of_ones_own_in_another_language(tmp_path: Path) -> None:
    """A sheet of one's own with `languages: {fr: ...}`: `build --lang fr` draws its French name, words and values
    (the rest its own), says French in the PDF, and keeps every mark where the English sheet has it; `lang: fr` in
    its sheet.yaml makes French its own language."""
    import pypdf
    from typer.testing import CliRunner

    from generator.cli import app
    from generator.registry import unregister
    from tests.sheets.test_own_sheet import ID

    folder = lantern_in_french(tmp_path)

    def build(out: str, *lang: str) -> Path:
        try:
            result = CliRunner().invoke(app, ["build", "--content", str(folder), "--out", str(tmp_path / out),
                                              "--format", "pdf", *lang])
        finally:
            unregister(ID)
        assert result.exit_code == 0, result.output
        return tmp_path / out / "score-sheets" / ID

    english, french = build("en"), build("fr", "--lang", "fr")
    text = " ".join(subprocess.run(["pdftotext", str(french / f"{ID}-a4.pdf"), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    assert "Épices" in text and "Goudron" in text and "diz." in text and "Spice" not in text
    reader = pypdf.PdfReader(french / f"{ID}-a4-fillable.pdf")
    assert str(reader.root_object["/Lang"]) == "fr"
    assert reader.metadata is not None and str(reader.metadata.title).startswith("Port aux Lanternes\u00a0: feuille")
    for paper in ("a4", "letter"):
        name = f"{ID}-{paper}.marks.json"
        assert (french / name).read_bytes() == (english / name).read_bytes()
    spec = folder / "sheet.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("players: {", "lang: fr\nplayers: {"), encoding="utf-8")
    own = build("own")
    assert str(pypdf.PdfReader(own / f"{ID}-a4.pdf").root_object["/Lang"]) == "fr"
    assert "Épices" in subprocess.run(["pdftotext", str(own / f"{ID}-a4.pdf"), "-"], capture_output=True, text=True,
                                      check=True).stdout


def test_an_item_a_language_gives_no_name_keeps_the_sheets_own(tmp_path: Path) -> None:
    """A language that names every good but amber (`{id: amber}`): its sheet prints amber as the sheet's own name
    ("Amber"), as "what a language leaves out stays as the sheet has it" says; it printed the bare id "amber" (the
    language's list replaced the sheet's whole), on paper and in what the score table says."""
    from typer.testing import CliRunner

    from generator.cli import app
    from generator.registry import unregister
    from tests.sheets.test_own_sheet import ID

    folder = lantern_in_french(tmp_path, LANTERN_FR.replace("{id: amber, name: Ambre}", "{id: amber}"))
    try:
        result = CliRunner().invoke(app, ["build", "--content", str(folder), "--out", str(tmp_path / "out"),
                                          "--format", "pdf", "--lang", "fr"])
        assert result.exit_code == 0, result.output
        game = tmp_path / "game.yaml"
        game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, goods: [amber, tea]}}\n", encoding="utf-8")
        spec = folder / "sheet.yaml"
        spec.write_text(spec.read_text(encoding="utf-8").replace("players: {", "lang: fr\nplayers: {"),
                        encoding="utf-8")
        scored = CliRunner().invoke(app, ["score", str(game), "--content", str(folder)])
    finally:
        unregister(ID)
    text = subprocess.run(["pdftotext", str(tmp_path / "out" / "score-sheets" / ID / f"{ID}-a4.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout.split()
    assert "Amber" in text and "amber" not in text and "Thé" in text, text
    assert scored.exit_code == 0, scored.output
    assert "Amber et Thé" in scored.stdout, scored.stdout


def test_the_table_offers_a_sheet_of_ones_own_in_the_phones_language(tmp_path: Path) -> None:
    """At the table (`donjon serve --content`), a French phone picks a sheet of one's own's list items by the names
    its `languages: fr` gives (Sel, Épices), as the French sheet prints them, and an English phone by its own; the
    companion offered the sheet's own names (Salt) in every language."""
    from generator.i18n import language
    from generator.registry import unregister
    from generator.web.games import Games
    from tests.sheets.test_own_sheet import ID

    folder = lantern_in_french(tmp_path)
    try:
        games = Games(folder)
        french = games.value_names(ID, ID, language("fr"))["goods"]
        english = games.value_names(ID, ID, language("en"))["goods"]
        german = games.value_names(ID, ID, language("de"))["goods"]
    finally:
        unregister(ID)
    assert french["salt"] == "Sel" and french["spice"] == "Épices"
    assert english["salt"] == "Salt" and german["salt"] == "Salt"  # a language the sheet does not give: its own


def test_content_check_draws_a_sheet_of_ones_own_in_every_language_it_gives(tmp_path: Path) -> None:
    """A French word too wide for its place (the tens of the fish, under `languages: fr`): `content check` says so,
    naming the language, as `build --lang fr` would refuse it; content check drew the sheet in its own language
    only and said OK."""
    from typer.testing import CliRunner

    from generator.cli import app
    from generator.registry import unregister
    from tests.sheets.test_own_sheet import ID

    folder = lantern_in_french(tmp_path, LANTERN_FR.replace("tens: diz.", "tens: dizaines entières"))
    try:
        result = CliRunner().invoke(app, ["content", "check", str(folder)])
    finally:
        unregister(ID)
    assert result.exit_code == 1, result.output
    assert "parts.fish.parts.digits: the word 'dizaines entières' is wider than its label_width" in result.output
    assert "(in fr)" in result.output, result.output



@pytest.mark.parametrize(("code", "warned"), [("de", True), ("fr", False), ("fr-CA", False), ("en", False)])
def test_a_sheet_of_ones_own_built_in_a_language_it_does_not_give_is_said(tmp_path: Path, code: str,
                                                                          warned: bool) -> None:
    """`build --lang de` of a sheet written in English and given in French only: its own words are drawn in
    English among donjon's German ones. It is built (exit 0, as a language nobody holds is), and stderr says so,
    naming the sheet.yaml and the language; it said nothing. A language the sheet gives (its own, or fr for fr-CA)
    says nothing."""
    import sys

    from tests.sheets.test_own_sheet import ID

    folder = lantern_in_french(tmp_path)
    result = subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(folder), "--out",
                             str(tmp_path / "out"), "--format", "pdf", "--lang", code], capture_output=True, text=True,
                            cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "score-sheets" / ID / f"{ID}-a4.pdf").is_file()
    warning = [line for line in result.stderr.splitlines() if "sheet.yaml" in line]
    if warned:
        assert len(warning) == 1, result.stderr
        # build's --lang is its messages' language too: German's word for a warning
        assert warning[0].startswith("Warnung: lantern/sheet.yaml: --lang de:"), warning
        assert "(in fr auch unter languages: angegeben) geschrieben, nicht in de" in warning[0], warning
        assert "`languages: de:`" in warning[0]
    else:
        assert warning == [], result.stderr


#: Lantern Harbour's guild as values with names (`values: guilds`, items with an id and a name, as its goods are),
#: named in German under `languages: de`, with the goods
GUILDS = ("guild: {type: choice, values: [fishers, sailors, merchants]}", "guild: {type: choice, values: guilds}",
          "marks: {kind: bubbles, field: guild, values: [fishers, sailors, merchants],",
          "marks: {kind: bubbles, field: guild, values: guilds,")
GUILD_VALUES = """values:
  guilds: [{id: fishers, name: Fishers}, {id: sailors, name: Sailors}, {id: merchants, name: Merchants}]
"""
LANTERN_DE = """
languages:
  de:
    values:
      guilds: [{id: fishers, name: Fischer}, {id: sailors, name: Seeleute}, {id: merchants, name: Händler}]
      goods: [{id: salt, name: Salz}, {id: rope, name: Seil}, {id: tar, name: Teer}, {id: silk, name: Seide},
              {id: spice, name: Gewürze}, {id: tea, name: Tee}, {id: wool, name: Wolle}, {id: amber, name: Bernstein}]
"""


def with_named_guilds(folder: Path, lang: str = "", german: str = LANTERN_DE) -> None:
    """The Lantern Harbour sheet in `folder` with its guilds a list of values of their own (GUILDS, GUILD_VALUES),
    named in German (`german`, at the end of its sheet.yaml), the sheet itself written in `lang` where given."""
    layout = folder / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    for old, new in zip(GUILDS[::2], GUILDS[1::2], strict=True):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    layout.write_text(text, encoding="utf-8")
    spec = folder / "sheet.yaml"
    spec.write_text((f"lang: {lang}\n" if lang else "") + spec.read_text(encoding="utf-8").replace(
        "values:\n", GUILD_VALUES, 1) + german, encoding="utf-8")


def test_a_choice_of_ones_own_is_named_in_every_language(tmp_path: Path) -> None:
    """A choice's values given as items with a name (`{id: sailors, name: Seeleute}`) are named in the language of
    the sheet: its bubbles on the German sheet say "Seeleute" (the map is the English one), a German player types
    "Seeleute" and "Salz" in the German fillable sheet and the end state holds `sailors` and `salt`, a German phone
    picks "Seeleute". A choice could only print its values as written: the German sheet said "sailors",
    `content check` refused items as a choice's values, and the German fillable refused "Salz"."""
    import json
    import shutil

    from typer.testing import CliRunner

    from generator.cli import app
    from generator.i18n import language
    from generator.registry import unregister
    from generator.web.games import Games
    from tests.sheets.test_own_sheet import ID, SHEET

    folder = tmp_path / "lantern"
    shutil.copytree(SHEET, folder)
    with_named_guilds(folder)

    def run(*args: str) -> Any:
        try:
            return CliRunner().invoke(app, list(args))
        finally:
            unregister(ID)

    for code in ("en", "de"):
        built = run("build", "--content", str(folder), "--out", str(tmp_path / code), "--format", "pdf",
                    "--lang", code)
        assert built.exit_code == 0, built.output
    english, german = (tmp_path / code / "score-sheets" / ID for code in ("en", "de"))
    words = subprocess.run(["pdftotext", str(german / f"{ID}-a4.pdf"), "-"], capture_output=True, text=True,
                           check=True).stdout.split()
    assert {"Fischer", "Seeleute", "Händler", "Bernstein"} <= set(words) and "sailors" not in words
    assert (german / f"{ID}-a4.marks.json").read_bytes() == (english / f"{ID}-a4.marks.json").read_bytes()
    greta = fill(german / f"{ID}-a4-fillable.pdf", tmp_path / "greta.pdf",
                 {"player": "Greta", "guild": "Seeleute", "fish": "3", "good_1": "Salz", "good_2": "bernstein"})
    scored = run("score", str(greta), "--sheet", str(folder), "--json")
    assert scored.exit_code == 0, scored.output
    values = json.loads(scored.stdout)["players"][0]["values"]
    assert (values["guild"], values["goods"]) == ("sailors", ["salt", "amber"])
    try:
        games = Games(folder)
        offered = {code: games.value_names(ID, ID, language(code))["guild"] for code in ("en", "de")}
    finally:
        unregister(ID)
    assert offered == {"en": {"fishers": "Fishers", "sailors": "Sailors", "merchants": "Merchants"},
                       "de": {"fishers": "Fischer", "sailors": "Seeleute", "merchants": "Händler"}}


def test_a_name_a_german_sheet_cannot_take_is_answered_in_german(tmp_path: Path) -> None:
    """The German fillable sheet with "Die Prinzessin" in a guest box was refused with "did you mean 'princess'?;
    expected one of architect, bohemian, ...": ids in English where the sheet prints German names. The sheet says
    its language (the /Lang `build --lang de` writes): the suggestion and the list are the German names it prints,
    even for a word closer to no German name than to an English one ("Kin"); exit 2, the file and field named."""
    from generator.backends.pdf import write_pdf
    from generator.errors import DonjonError, ExitCode

    import scoring

    sheet = drawn(localise(shipped(), "de"), "great-architect", "a4", "fillable")
    blank = tmp_path / "blank.pdf"
    write_pdf([sheet.page()], blank, title="Bogen", lang="de")
    for typed, close in (("Die Prinzessin", "Prinzessin"), ("Kin", "König")):
        pdf = fill(blank, tmp_path / "jurgen.pdf", castle_values("Jürgen", floors=2, towers=(5,), guests=(typed,)))
        with pytest.raises(DonjonError) as caught:
            scoring.score(pdf)
        assert caught.value.exit_code == ExitCode.UNREADABLE
        assert str(caught.value).startswith(
            f"{pdf}: field guest_1: unknown guest {typed!r} (did you mean {close!r}?); expected one of Architekt, "
            "Bohemien, Holzfäller, Bäuerin, Hund Dagobert,"), str(caught.value)


def test_a_guest_given_with_set_by_its_german_name_is_taken() -> None:
    """`donjon score foto.jpg --set guests=Königin,Narr` (the names the German sheet prints) was refused: "guests
    takes values separated by commas (architect, bohemian, ...) or none; 'Königin, Narr' is not one". A guest given
    by any of its names is its id; one that names no guest is refused (exit 2) with the guests as the names typed
    are spelled, German, each with its id."""
    pytest.importorskip("cv2")
    from generator.errors import ExitCode, UsageError
    from generator.games.base import SheetOptions
    from tests.scan.helpers import GREAT, fill_marks, photograph, rendered

    sheet = drawn(localise(shipped(), "de"), "great-architect", "a4", "scan")
    assert sheet.map is not None
    photo = [(photograph(fill_marks(sheet.map, rendered(sheet.page()), GREAT)), "foto.jpg")]
    read = read_sheets(photo, shipped(), SheetOptions(confirmed=(("guests", "Prinzessin, König"),)))
    assert read.document.data["sheets"][0]["guests"] == ["princess", "king"]
    with pytest.raises(UsageError) as caught:
        read_sheets(photo, shipped(), SheetOptions(confirmed=(("guests", "Königin, Prinzesin"),)))
    assert caught.value.exit_code == ExitCode.UNREADABLE
    said = str(caught.value)
    assert said.startswith("--set guests: foto.jpg: guests takes values separated by commas (Architekt (architect), "
                           "Bohemien (bohemian),") and said.endswith("'Prinzesin' is not one"), said


def test_a_rule_broken_on_photos_of_german_sheets_names_the_guests_in_german(tmp_path: Path) -> None:
    """Photos of two German sheets with the Queen in both castles were told "the Queen is already in Player 1's
    castle": the English name, where the sheets print "Königin". The photos' print says their language (the reader
    compares each photo with the sheet in each language), and the rules name the guests in it (exit 1 as before)."""
    pytest.importorskip("cv2")
    from generator.errors import ExitCode
    from scoring.engine import Scorer
    from tests.scan.helpers import GREAT, fill_marks, photograph, rendered

    sheet = drawn(localise(shipped(), "de"), "great-architect", "a4", "scan")
    assert sheet.map is not None
    other = dict(GREAT, guests=["queen"], sky_clouds=0, residents=3, donjon_floors=1)
    paths = []
    for name, values in (("ana.jpg", GREAT), ("ben.jpg", other)):
        paths.append(tmp_path / name)
        paths[-1].write_bytes(photograph(fill_marks(sheet.map, rendered(sheet.page()), values)))
    result = Scorer().score_sheets(paths)
    assert result.exit_code == ExitCode.INVALID
    (violation,) = result.violations
    assert violation.message.startswith("Königin is already in Player 1's castle"), violation


def test_an_uncertain_guest_on_a_photo_of_a_german_sheet_is_said_in_german() -> None:
    """A faint mark on the King's bubble of a German sheet was said "the mark of king is neither filled nor empty":
    the id, where the sheet prints "König". It is said as the print the photo shows names it; `--set` keeps the
    field's id."""
    pytest.importorskip("cv2")
    from tests.scan.helpers import GREAT, fill_marks, photograph, rendered

    sheet = drawn(localise(shipped(), "de"), "great-architect", "a4", "scan")
    assert sheet.map is not None
    image = fill_marks(sheet.map, fill_marks(sheet.map, rendered(sheet.page()), GREAT), {"guests": ["king"]},
                       tone=185, share=0.5)  # a light, small fill: neither filled nor empty
    read = read_sheets([(photograph(image), "foto.jpg")], shipped())
    (doubt,) = read.uncertain or ()
    assert doubt.field == "guests" and doubt.said.startswith("the mark of König is neither filled nor empty"), doubt
    assert doubt.key == "guests"


@pytest.mark.parametrize(("typed", "sheet_lang", "told"), [
    ("Königin,Narr", None, "de"),  # names only German spells
    ("Prince", "fr", "fr"),  # spelled the same in English and French, alone: the sheet's language
    ("Prince", None, "en"),  # ... the catalog's (English) when the sheet's is not known
    ("Prince,Troll,Königin", None, "de"),  # the one name that tells a language apart decides
    ("Königin,Narr,Reine", "fr", "de"),  # a mixed list: the language most of its names are in
])
def test_the_language_of_guests_given_with_set(typed: str, sheet_lang: str | None, told: str) -> None:
    """`--set guests=Prince,Troll,Königin` was answered in English names: the castle's own vote counted Prince
    (English and French) and Troll (every language) for English as much as Königin for German, and broke the tie for
    English, where a YAML file with the same names was read as German. Both now ask one rule
    (`generator.fields.vote_language`): names unique to one language vote, a tie goes to the sheet's language."""
    from generator.games.castle.sheets import typed_language

    names = typed_language(shipped(), [("guests", typed)], sheet_lang)
    assert names.get("guests", {}).get("queen", "Queen") == {"de": "Königin", "fr": "Reine", "en": "Queen"}[told]


def test_a_name_read_as_another_value_tells_no_language() -> None:
    """A French name that the choice reads as another value (an English name first) is no French spelling: a file
    giving it wrote the other value, in English."""
    from generator.fields import name_languages, vote_language

    spelled = {"en": {"page": "Page", "squire": "Squire"}, "fr": {"page": "Écuyer", "squire": "Page"}}
    languages = name_languages(spelled, {"page": "page", "ecuyer": "page", "squire": "squire"})
    assert languages["page"] == ("en",)
    assert vote_language([languages["page"]], "fr") == "en"
