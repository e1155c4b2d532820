"""Filled sheets scored: fill a fillable sheet with pypdf as a viewer would, then `donjon score` it.

A filled sheet must give exactly what the same castle written as YAML gives: the same scores, the same broken
rules (their messages naming the file and field), and a clear exit-2 message for what cannot be read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import scoring
from generator.errors import DonjonError, ExitCode
from scoring.engine import Scorer
from scoring.result import RuleWarning, Violation
from tests.sheets.helpers import REPO, castle_values, fill, filled, write

if TYPE_CHECKING:
    from typer.testing import Result

ANA = castle_values("Ana", floors=4, towers=(5, 2, 5, 5), walls={1: (1,), 2: (2, 1), 3: (2, 2), 4: (1,)},
                    guests=("Queen", "jester", "Shepherdess", "KING"), residents=14, sun=True, cloud=True,
                    sky_clouds=1)
BEN = castle_values("Ben", floors=3, towers=(2, 2, 5), walls={1: (1,), 2: (2,), 3: ()}, residents=22,
                    guests=("courtesan", "Prince", "Bohemian"))
CLEO = castle_values("Cleo", floors=2, towers=(5, 5), walls={2: (2, 2)}, residents=15, guests=("princess", "merchant"))

#: the same three castles as an end state
GAME: dict[str, Any] = {"game": "once-upon-a-castle", "version": "great-architect", "sheets": [
    {"player": "Ana", "donjon_floors": 4, "towers": [5, 2, 5, 5], "walls": [{"flags": [1]}, {"flags": [2, 1]},
                                                                            {"flags": [2, 2]}, {"flags": [1]}],
     "sun": True, "cloud": True, "sky_clouds": 1, "residents": 14, "guests": ["queen", "jester", "shepherdess", "king"]},
    {"player": "Ben", "donjon_floors": 3, "towers": [2, 2, 5], "walls": [{"flags": [1]}, {"flags": [2]}, {"flags": []}],
     "residents": 22, "guests": ["courtesan", "prince", "bohemian"]},
    {"player": "Cleo", "donjon_floors": 2, "towers": [5, 5], "walls": [{"flags": [2, 2]}], "residents": 15,
     "guests": ["princess", "merchant"]},
]}


def run(*args: str) -> Result:
    from typer.testing import CliRunner

    from generator.cli import app

    return CliRunner().invoke(app, list(args))


@pytest.fixture
def sheets(tmp_path: Path) -> list[Path]:
    return [filled(tmp_path, f"{name}.pdf", values) for name, values in (("ana", ANA), ("ben", BEN), ("cleo", CLEO))]


def test_one_filled_sheet_scores_like_its_yaml(sheets: list[Path]) -> None:
    result = scoring.score(sheets[0])
    expected = scoring.score({**GAME, "sheets": GAME["sheets"][:1]})
    assert result.valid and result.exit_code == 0
    assert result.players == expected.players
    ana = result.players[0]
    # towers 17, Sun 4, Cloud 4, a sky cloud 2, 14 residents 4, flags 9, Queen 3, Jester 4, Shepherdess 1, King 6
    assert ana.score == 17 + 4 + 4 + 2 + 4 + 9 + 3 + 4 + 1 + 6
    assert result.source.endswith("ana.pdf")


def test_sheets_given_together_are_one_game(sheets: list[Path]) -> None:
    result = Scorer().score_sheets(sheets)
    expected = scoring.score(GAME)
    assert result.valid
    assert result.to_dict() == expected.to_dict()
    assert [p.name for p in result.players] == ["Ana", "Ben", "Cleo"]


def test_the_command_scores_pdfs_as_one_game_and_yaml_files_alone(sheets: list[Path], tmp_path: Path) -> None:
    example = str(REPO / "content" / "examples" / "guildhall.yaml")
    result = run("score", example, *map(str, sheets), "--json")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert json.loads(lines[0])["game"] == "guildhall"
    castle = json.loads(lines[1])
    assert castle["game"] == "once-upon-a-castle" and [p["name"] for p in castle["players"]] == ["Ana", "Ben", "Cleo"]
    table = run("score", *map(str, sheets))
    assert table.exit_code == 0
    assert table.stdout.splitlines()[0].endswith("cleo.pdf: Once Upon a Castle (version: Great Architect; sheets: 3)")
    assert "winner: Ana" in table.stdout


def test_a_wrongly_filled_sheet_breaks_the_same_rules_as_its_yaml(tmp_path: Path) -> None:
    values = castle_values("Dan", floors=2, towers=(3, 5), walls={2: (2, 7)}, residents=31, sun=True, cloud=True,
                           guests=("queen", "queen"))
    pdf = filled(tmp_path, "dan.pdf", values)
    result = scoring.score(pdf)
    same = scoring.score({"game": "once-upon-a-castle", "version": "great-architect", "sheets": [
        {"player": "Dan", "donjon_floors": 2, "towers": [3, 5], "walls": [{"flags": [2, 7]}], "residents": 31,
         "sun": True, "cloud": True, "sky_clouds": 0, "guests": ["queen", "queen"]}]})
    assert not result.valid and result.exit_code == 1
    assert [v.where for v in result.violations] == [v.where for v in same.violations]
    assert [v.rule for v in result.violations] == [v.rule for v in same.violations]
    assert [(w.where, w.rule) for w in result.warnings] == [(w.where, w.rule) for w in same.warnings]
    found: list[Violation | RuleWarning] = [*result.violations, *result.warnings]
    fields = {v.where: v.message.rsplit(" (", 1)[1] for v in found}
    # tower and flag values and the resident track rest on values no rulebook states: warnings, named alike
    assert fields["sheets[0].towers[0]"] == "field tower_1_value)"
    assert fields["sheets[0].walls[0].flags[1]"] == "field wall_2_flag_2)"
    assert fields["sheets[0].residents"] == "field residents)"
    assert fields["sheets[0].sun"] == "field sun)"
    assert fields["sheets[0].cloud"] == "field cloud)"
    assert fields["sheets[0].guests[1]"] == "field guest_2)"
    theirs_all: list[Violation | RuleWarning] = [*same.violations, *same.warnings]
    for mine, theirs in zip(found, theirs_all, strict=True):
        assert mine.message.startswith(theirs.message)


def test_the_sun_drawn_on_two_sheets_names_the_second(tmp_path: Path) -> None:
    first = filled(tmp_path, "a.pdf", castle_values("Ana", towers=(5, 5, 5, 5), sun=True))
    second = filled(tmp_path, "b.pdf", castle_values("Ben", towers=(2, 2, 2, 2), sun=True))
    result = Scorer().score_sheets([first, second])
    assert not result.valid
    (violation,) = result.violations
    assert violation.where == "sheets[1].sun" and violation.rule == "once-upon-a-castle-4"
    assert violation.message.endswith(f"({second}, field sun)")  # several sheets: the file, then the field
    table = run("score", str(first), str(second))
    assert table.exit_code == 1
    assert "Ben and Ana (sheets[0]) both drew the Sun; a game has one" in table.stdout


def test_an_apprentice_sheet_takes_the_printed_vp(tmp_path: Path) -> None:
    pdf = filled(tmp_path, "eve.pdf", castle_values("Eve", floors=2, towers=(5,), guests=(3, 1), residents=6),
                 version="apprentice")
    result = scoring.score(pdf)
    assert result.valid
    assert dict(result.players[0].breakdown) == {"towers": 5, "sun": 0, "cloud": 0, "sky_clouds": 0, "residents": 2,
                                                 "flags": 0, "guest:1": 3, "guest:2": 1}
    short = filled(tmp_path, "fay.pdf", castle_values("Fay", floors=3, guests=(3, 1)), version="apprentice")
    (violation,) = scoring.score(short).violations
    assert violation.where == "sheets[0].guests" and violation.message.endswith("(fields guest_1 to guest_4)")


def test_great_architect_guests_by_the_name_on_their_card(tmp_path: Path) -> None:
    pdf = filled(tmp_path, "gus.pdf", castle_values("Gus", floors=1, guests=("Dagobert the Dog",)))
    assert dict(scoring.score(pdf).players[0].breakdown)["guest:dagobert"] == 1


def test_a_blank_name_is_the_files(tmp_path: Path) -> None:
    pdf = filled(tmp_path, "hugo.pdf", castle_values("", towers=(2,)))
    assert scoring.score(pdf).players[0].name == "hugo"


def unreadable(path: Path | list[Path]) -> str:
    with pytest.raises(DonjonError) as caught:
        if isinstance(path, list):
            Scorer().score_sheets(path)
        else:
            scoring.score(path)
    assert caught.value.exit_code == ExitCode.UNREADABLE
    return str(caught.value)


def test_text_where_a_number_belongs_names_file_and_field(tmp_path: Path) -> None:
    pdf = filled(tmp_path, "ivy.pdf", castle_values("Ivy", towers=("five", 2), residents="lots"))
    message = unreadable(pdf)
    assert "ivy.pdf: cannot be read as a filled castle sheet (2 problems):" in message
    assert "ivy.pdf: field tower_1_value: expected a whole number, got 'five'" in message
    assert "ivy.pdf: field residents: expected a whole number, got 'lots'" in message
    one = filled(tmp_path, "jo.pdf", castle_values("Jo", walls={1: ("2.5",)}))
    assert unreadable(one).endswith("jo.pdf: field wall_1_flag_1: expected a whole number, got '2.5'")


@pytest.mark.parametrize(("code", "heading"), [
    ("fr", "lou.pdf : illisible comme feuilles remplies pour Oh mon château (2 problèmes) :"),
    ("de", "lou.pdf: nicht lesbar als ausgefüllte Bögen für Once Upon a Castle (2 Probleme):")])
def test_a_filled_sheet_that_cannot_be_read_is_told_so_in_the_language(tmp_path: Path, code: str,
                                                                       heading: str) -> None:
    """`--lang fr|de`: the heading over the problems of filled sheets whose values the game's format refuses is in
    the language, as an end state's is (the fields keep their names); English as it was."""
    pdf = filled(tmp_path, "lou.pdf", castle_values("Lou", guests=("Quene", "Jestr")))
    said = run("score", str(pdf), "--lang", code)
    assert said.exit_code == 2
    assert heading in said.stderr.replace("\u00a0", " ").replace("\u202f", " ")
    assert "cannot be read as" not in said.stderr and "filled Once Upon a Castle sheets" not in said.stderr
    english = run("score", str(pdf))
    assert "lou.pdf: cannot be read as filled Once Upon a Castle sheets (2 problems):" in english.stderr


@pytest.mark.parametrize(("code", "said"), [
    ("fr", ["ivy.pdf : illisible comme feuille remplie (feuille du château) (2 problèmes) :",
            "ivy.pdf: champ tower_1_value: un nombre entier est attendu ici, pas « five »",
            "ivy.pdf: champ residents: un nombre entier est attendu ici, pas « lots »",
            "lea.pdf: champ guest_1: invité inconnu : « Quen » (vouliez-vous dire « queen » ?)"]),
    ("de", ["ivy.pdf: nicht lesbar als ausgefüllter Bogen (Burgbogen) (2 Probleme):",
            "ivy.pdf: Feld tower_1_value: hier gehört eine ganze Zahl hin, nicht „five“",
            "ivy.pdf: Feld residents: hier gehört eine ganze Zahl hin, nicht „lots“",
            "lea.pdf: Feld guest_1: Gast unbekannt: „Quen“ (war „queen“ gemeint?)"])])
def test_what_a_filled_form_holds_that_cannot_be_read_is_said_in_the_language(tmp_path: Path, code: str,
                                                                               said: list[str]) -> None:
    """`--lang fr|de`: the form reader's own problems (text where a number belongs), their heading and the form
    field each names (`champ guest_1`: the PDF's name of it, kept) are in the language; a guest not known keeps its
    id in `did you mean`. English as it was (test_text_where_a_number_belongs_names_file_and_field)."""
    ivy = filled(tmp_path, "ivy.pdf", castle_values("Ivy", towers=("five", 2), residents="lots"))
    lea = filled(tmp_path, "lea.pdf", castle_values("Lea", floors=1, guests=("Quen",)))
    told = [run("score", str(pdf), "--lang", code) for pdf in (ivy, lea)]
    assert [t.exit_code for t in told] == [2, 2]
    stderr = "".join(t.stderr for t in told).replace("\u00a0", " ").replace("\u202f", " ")
    for line in said:
        assert line in stderr
    assert "field " not in stderr and "expected a whole number" not in stderr and "a filled" not in stderr
    english = run("score", str(ivy)).stderr + run("score", str(lea)).stderr
    assert "ivy.pdf: cannot be read as a filled castle sheet (2 problems):" in english
    assert "ivy.pdf: field tower_1_value: expected a whole number, got 'five'" in english
    assert "lea.pdf: field guest_1: unknown guest 'Quen' (did you mean 'queen'?)" in english


@pytest.mark.parametrize(("code", "said"), [
    ("fr", {"big": "champ tower_1_value: est un nombre à 40 chiffres",
            "kim": "champ wall_2_flag_1: contient une valeur, mais wall_2 n’est pas coché (un drapeau se dresse sur un "
                   "rempart construit (004 Flags))",
            "odd": "champ floor_1: n’est pas une case à cocher, comme sur une feuille donjon (feuille du château)",
            "odd ": "champ income: n’est pas un champ d’une feuille donjon (feuille du château)",
            "ver": "champ version: vaut « queenly », qui n’est aucune des feuilles que donjon lit ici",
            "blank": "blank.pdf: n’a rien de rempli",
            "notes": "notes.pdf: n’est pas un PDF",
            "paper": "paper.pdf: n’a aucun champ de formulaire",
            "tax": "tax.pdf: a des champs de formulaire mais pas de champ « version »",
            "locked": "locked.pdf: est protégé par un mot de passe",
            "broken": "broken.pdf: est un PDF endommagé",
            "two": "b.pdf: champ version : cette feuille est de la version Apprentice, mais"}),
    ("de", {"big": "Feld tower_1_value: ist eine Zahl mit 40 Ziffern",
            "kim": "Feld wall_2_flag_1: enthält einen Wert, aber wall_2 ist nicht angekreuzt (eine Fahne steht auf "
                   "einer gebauten Mauer (004 Flags))",
            "odd": "Feld floor_1: ist kein Ankreuzfeld, wie auf einem donjon-Bogen (Burgbogen)",
            "odd ": "Feld income: ist kein Feld eines donjon-Bogens (Burgbogen)",
            "ver": "Feld version: ist „queenly“, aber das ist keiner der Bögen",
            "blank": "blank.pdf: ist leer",
            "notes": "notes.pdf: ist kein PDF",
            "paper": "paper.pdf: hat keine Formularfelder",
            "tax": "tax.pdf: hat Formularfelder, aber kein Feld „version“",
            "locked": "locked.pdf: ist mit einem Passwort geschützt",
            "broken": "broken.pdf: ist ein beschädigtes PDF",
            "two": "b.pdf: Feld version: dieser Bogen gehört zur Version Apprentice,"})])
def test_a_pdf_that_is_no_filled_sheet_is_told_so_in_the_language(tmp_path: Path, code: str,
                                                                  said: dict[str, str]) -> None:
    """`--lang fr|de`: what makes a PDF no filled sheet (not a PDF, a password, damaged, no form, another form,
    a field of another kind, a number too long, a value beside an unticked box, a version not known, nothing
    filled, sheets of two versions) is said in the language, as the form's other problems are; English as it was
    (test_what_is_not_a_filled_sheet, test_another_form_is_not_a_sheet and the tests beside them)."""
    from generator.backends.pdf import write_pdf
    from generator.render.model import FormField, Page

    def form(name: str, *fields: tuple[str, str]) -> Path:  # another PDF form: text boxes, each with its value
        write_pdf([Page(300, 300, (), (), fields=tuple(FormField(n, "text", 10, 10 + 30 * i, 100, 20, value=v)
                                                       for i, (n, v) in enumerate(fields)))],
                  tmp_path / name, title="x")
        return tmp_path / name

    kim = castle_values("Kim", walls={2: (2,)})
    kim["wall_2"] = False
    (tmp_path / "notes.pdf").write_text("game: once-upon-a-castle\n", encoding="utf-8")
    (tmp_path / "broken.pdf").write_bytes(write(tmp_path / "whole.pdf").read_bytes()[:3000])
    files = {"big": [filled(tmp_path, "big.pdf", castle_values("Big", towers=("9" * 40,)))],
             "kim": [filled(tmp_path, "kim.pdf", kim)],
             "odd": [form("odd.pdf", ("version", "apprentice"), ("income", "5"), ("floor_1", "x"))],
             "ver": [form("ver.pdf", ("version", "queenly"))],
             "blank": [write(tmp_path / "blank.pdf")], "notes": [tmp_path / "notes.pdf"],
             "paper": [write(tmp_path / "paper.pdf", fillable=False)],
             "tax": [form("tax.pdf", ("income", ""))],
             "locked": [encrypt(filled(tmp_path, "ana.pdf", ANA), tmp_path / "locked.pdf", "secret", "AES-256")],
             "broken": [tmp_path / "broken.pdf"],
             "two": [filled(tmp_path, "a.pdf", castle_values("Ana", towers=(2,))),
                     filled(tmp_path, "b.pdf", castle_values("Ben", towers=(2,)), version="apprentice")]}
    for key, line in said.items():
        told = run("score", *map(str, files[key.strip()]), "--lang", code)
        assert told.exit_code == 2, told.output
        assert line in told.stderr.replace("\u00a0", " ").replace("\u202f", " "), told.stderr
        for english in ("is not a", "is a number of", "holds a value", "which is no sheet", "has nothing filled",
                        "has no form fields", "has form fields but", "is protected", "is a damaged", "is a sheet of",
                        "field ", "castle sheet", "stands on a built wall"):  # the sheet layout's words too
            assert english not in told.stderr, told.stderr


@pytest.mark.parametrize(("code", "field"), [("fr", "(champ wall_1_flag_1)"), ("de", "(Feld wall_1_flag_1)")])
def test_the_form_field_a_rule_speaks_of_is_named_in_the_language(tmp_path: Path, code: str, field: str) -> None:
    """`--lang fr|de`: a rule's message on a filled sheet names the form field its value came from in the language
    (the field's own name kept), as the message around it is; English `(field wall_1_flag_1)` as before."""
    pdf = filled(tmp_path, "kim.pdf", castle_values("Kim", floors=1, towers=(5,), walls={1: (9,)}))
    said = run("score", str(pdf), "--lang", code)
    assert said.exit_code == 0 and field in said.stdout and "(field " not in said.stdout
    assert "(field wall_1_flag_1)" in run("score", str(pdf)).stdout


def test_a_whole_number_written_as_a_decimal_is_read_as_its_yaml_is(tmp_path: Path) -> None:
    """A tower typed `5.0` in a viewer (as a form or a spreadsheet writes a number) was refused ("expected a whole
    number, got '5.0'") where the same castle's YAML `5.0` is read as 5 (scoring.formats: a whole number written as
    a decimal is that number; end-states.md rule 0, every value a whole number). The sheet now gives what its YAML
    gives; a fraction (`2.5`) is still refused (test_text_where_a_number_belongs_names_file_and_field)."""
    pdf = filled(tmp_path, "ivy.pdf", castle_values("Ivy", floors=1, towers=("5.0", "2."), walls={1: ("2.00",)},
                                                    guests=("Queen",), residents="14.0"))
    as_yaml = {"game": "once-upon-a-castle", "version": "great-architect", "sheets": [
        {"player": "Ivy", "donjon_floors": 1, "towers": [5.0, 2.0], "walls": [{"flags": [2.0]}],
         "residents": 14.0, "guests": ["queen"]}]}
    result, expected = scoring.score(pdf), scoring.score(as_yaml)
    assert result.valid and expected.valid, (result.violations, expected.violations)
    assert result.players == expected.players and result.players[0].score == 5 + 2 + 2 + 4 + 3


def test_a_flag_on_a_wall_not_built(tmp_path: Path) -> None:
    values = castle_values("Kim", walls={2: (2,)})
    values["wall_2"] = False
    message = unreadable(filled(tmp_path, "kim.pdf", values))
    assert ("kim.pdf: field wall_2_flag_1: holds a value, but wall_2 is not ticked (a flag stands on a built wall "
            "(004 Flags)): tick wall_2 or clear wall_2_flag_1") in message


def test_an_unknown_guest_names_the_field(tmp_path: Path) -> None:
    message = unreadable(filled(tmp_path, "lea.pdf", castle_values("Lea", floors=1, guests=("Quen",))))
    assert message.startswith(f"{tmp_path / 'lea.pdf'}: field guest_1: unknown guest 'Quen' (did you mean 'queen'?)")


def test_an_apprentice_guest_written_as_a_name(tmp_path: Path) -> None:
    pdf = filled(tmp_path, "max.pdf", castle_values("Max", floors=1, guests=("Queen",)), version="apprentice")
    assert unreadable(pdf).endswith("max.pdf: field guest_1: expected a whole number, got 'Queen'")


def test_sheets_of_two_versions(tmp_path: Path) -> None:
    one = filled(tmp_path, "a.pdf", castle_values("Ana", towers=(2,)))
    two = filled(tmp_path, "b.pdf", castle_values("Ben", towers=(2,)), version="apprentice")
    assert (f"{two}: field version: is a sheet of the Apprentice version, but {one} is one of the Great Architect "
            "version; the sheets of one game share a version") in unreadable([one, two])


def test_sheets_of_two_versions_are_named_as_each_sheet_prints_them(tmp_path: Path) -> None:
    # the player holds a German Great Architect sheet and a French Apprentice one: the refusal says the words
    # printed on each, not donjon's ids
    one = filled(tmp_path, "a.pdf", castle_values("Ana", towers=(2,)), lang="de")
    two = filled(tmp_path, "b.pdf", castle_values("Ben", towers=(2,)), version="apprentice", lang="fr")
    result = run("score", str(one), str(two))
    assert result.exit_code == 2, result.output
    assert (f"{two}: field version: is a sheet of the Petits Bâtisseurs version, but {one} is one of the "
            "Baumeister version") in result.stderr
    assert "apprentice" not in result.stderr and "great-architect" not in result.stderr
    as_json = run("score", str(one), str(two), "--json")
    assert as_json.exit_code == 2
    assert "Petits Bâtisseurs version, but" in json.loads(as_json.stdout)["error"]


@pytest.mark.parametrize(("code", "said"), [
    ("fr", "champ version\u00a0: cette feuille est de la version Petits Bâtisseurs, mais {one} est de la version "
           "Baumeister\u202f; toutes les feuilles d’une partie doivent être de la même version"),
    ("de", "Feld version: dieser Bogen gehört zur Version Petits Bâtisseurs, {one} aber zur Version Baumeister; alle "
           "Bögen einer Partie müssen zur selben Version gehören")])
def test_sheets_of_two_versions_are_told_as_the_language_writes_it(tmp_path: Path, code: str, said: str) -> None:
    """`--lang fr|de`: the two-version refusal is one sentence of the language, the field's colon set as the
    language sets it (French: a no-break space before it), both versions named as their sheets print them."""
    one = filled(tmp_path, "a.pdf", castle_values("Ana", towers=(2,)), lang="de")
    two = filled(tmp_path, "b.pdf", castle_values("Ben", towers=(2,)), version="apprentice", lang="fr")
    told = run("score", str(one), str(two), "--lang", code)
    assert told.exit_code == 2, told.output
    assert f"{two}: {said.format(one=one)}" in told.stderr, told.stderr
    as_json = run("score", str(one), str(two), "--lang", code, "--json")
    assert as_json.exit_code == 2
    assert said.format(one=one) in json.loads(as_json.stdout)["error"]


def test_what_is_not_a_filled_sheet(tmp_path: Path) -> None:
    text = tmp_path / "notes.pdf"
    text.write_text("game: once-upon-a-castle\n", encoding="utf-8")
    assert unreadable(text) == f"{text}: is not a PDF (it does not start with %PDF-); a filled castle sheet is a PDF " \
                               "saved from a PDF viewer"
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(write(tmp_path / "whole.pdf").read_bytes()[:3000])
    assert unreadable(broken).startswith(f"{broken}: is a damaged PDF that cannot be read (")
    paper = write(tmp_path / "paper.pdf", fillable=False)
    assert unreadable(paper).startswith(f"{paper}: has no form fields: is it a donjon fillable castle sheet?")
    blank = write(tmp_path / "blank.pdf")
    assert unreadable(blank) == f"{blank}: has nothing filled in: fill in the sheet in a PDF viewer and save it, then " \
                                "score it"
    assert "no such file" in unreadable(tmp_path / "missing.pdf")


def test_another_form_is_not_a_sheet(tmp_path: Path) -> None:
    from generator.backends.pdf import write_pdf
    from generator.render.model import FormField, Page

    other = tmp_path / "tax-return.pdf"
    write_pdf([Page(300, 300, (), (), fields=(FormField("income", "text", 10, 10, 100, 20),))], other, title="x")
    assert "has form fields but no field 'version': it is not a donjon fillable castle sheet" in unreadable(other)
    odd = tmp_path / "odd.pdf"
    write_pdf([Page(300, 300, (), (), fields=(FormField("version", "text", 10, 10, 100, 20, value="apprentice"),
                                              FormField("income", "text", 10, 40, 100, 20, value="5"),
                                              FormField("floor_1", "text", 10, 70, 100, 20, value="x")))],
              odd, title="x")
    message = unreadable(odd)
    assert "odd.pdf: field income: is not a field of a donjon castle sheet" in message
    assert "odd.pdf: field floor_1: is not a checkbox, as it is on a donjon castle sheet" in message


def test_the_command_says_what_is_wrong_without_a_traceback(tmp_path: Path) -> None:
    good = filled(tmp_path, "a.pdf", castle_values("Ana", towers=(2,)))
    bad = filled(tmp_path, "b.pdf", castle_values("Ben", towers=("two",)))
    result = run("score", str(good), str(bad))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip() == f"error: {bad}: field tower_1_value: expected a whole number, got 'two'"


def test_a_box_ticked_only_in_its_appearance(tmp_path: Path) -> None:
    """Some viewers tick a checkbox by its appearance state (/AS) and leave its value (/V) unset."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, NameObject

    pdf = filled(tmp_path, "a.pdf", castle_values("Ana", towers=(5, 5, 5, 5)))
    writer = PdfWriter(clone_from=PdfReader(pdf))
    annotations = writer.pages[0]["/Annots"].get_object()
    assert isinstance(annotations, ArrayObject)
    for ref in annotations:
        widget = ref.get_object()
        if widget["/T"] == "sun":
            del widget["/V"]
            widget[NameObject("/AS")] = NameObject("/Yes")
    writer.write(tmp_path / "b.pdf")
    assert dict(scoring.score(tmp_path / "b.pdf").players[0].breakdown)["sun"] == 4


def test_scoring_yaml_never_imports_the_pdf_reader() -> None:
    code = ("import sys; from scoring.batch import score_paths; from scoring.engine import Scorer; "
            f"list(score_paths([{str(REPO / 'content' / 'examples' / 'once-upon-a-castle.yaml')!r}], Scorer(), True)); "
            "print(','.join(m for m in ('pypdf', 'generator.sheets.forms', 'reportlab') if m in sys.modules))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == ""


def test_fill_helper_really_fills(tmp_path: Path) -> None:
    """The round trip above means something only if the filled file holds what was typed."""
    from pypdf import PdfReader

    pdf = fill(write(tmp_path / "blank.pdf"), tmp_path / "f.pdf", {"player": "Ana", "floor_2": True})
    values = {k: v.get("/V") for k, v in (PdfReader(pdf).get_fields() or {}).items()}
    assert values["player"] == "Ana" and values["floor_2"] == "/Yes" and values["floor_1"] in (None, "/Off")


def test_numbers_beyond_reason(tmp_path: Path) -> None:
    huge = filled(tmp_path, "big.pdf", castle_values("Big", towers=("9" * 40,)))
    assert unreadable(huge).endswith("big.pdf: field tower_1_value: is a number of 40 digits; nothing on a castle "
                                     "sheet comes near")
    large = filled(tmp_path, "large.pdf", castle_values("Large", towers=(5_000_000,)))
    assert unreadable(large).endswith("large.pdf: field tower_1_value: is 5000000, beyond the 1,000,000 donjon reads")


def test_a_box_ticked_in_its_appearance_with_a_stale_value(tmp_path: Path) -> None:
    """`/AS /Yes` with `/V /Off`: every viewer shows the box ticked, so it is read as ticked; and the other way
    round, `/AS /Off` with `/V /Yes` shows unticked and is read as unticked."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, NameObject

    pdf = filled(tmp_path, "a.pdf", castle_values("Ana", towers=(5, 5, 5, 5), cloud=True))
    writer = PdfWriter(clone_from=PdfReader(pdf))
    annotations = writer.pages[0]["/Annots"].get_object()
    assert isinstance(annotations, ArrayObject)
    for ref in annotations:
        widget = ref.get_object()
        if widget["/T"] == "sun":
            widget[NameObject("/V")] = NameObject("/Off")
            widget[NameObject("/AS")] = NameObject("/Yes")
        if widget["/T"] == "cloud":
            widget[NameObject("/V")] = NameObject("/Yes")
            widget[NameObject("/AS")] = NameObject("/Off")
    writer.write(tmp_path / "b.pdf")
    points = dict(scoring.score(tmp_path / "b.pdf").players[0].breakdown)
    assert (points["sun"], points["cloud"]) == (4, 0)


def encrypt(source: Path, target: Path, user: str, algorithm: str) -> Path:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(source))
    writer.encrypt(user_password=user, owner_password="owner-secret", algorithm=algorithm)
    writer.write(target)
    return target


@pytest.mark.parametrize("algorithm", ["AES-128", "AES-256", "RC4-128"])
def test_an_encrypted_sheet_any_viewer_opens_is_read(tmp_path: Path, algorithm: str) -> None:
    """A viewer may save a sheet encrypted with an empty user password: it opens without asking, so it scores."""
    plain = filled(tmp_path, "ana.pdf", ANA)
    locked = encrypt(plain, tmp_path / "locked.pdf", "", algorithm)
    assert b"/Encrypt" in locked.read_bytes()
    assert scoring.score(locked).to_dict()["players"] == scoring.score(plain).to_dict()["players"]


def test_a_sheet_that_needs_a_password_says_so(tmp_path: Path) -> None:
    locked = encrypt(filled(tmp_path, "ana.pdf", ANA), tmp_path / "locked.pdf", "secret", "AES-256")
    result = run("score", str(locked))
    assert result.exit_code == 2
    assert "locked.pdf: is protected by a password" in result.stderr and "save a copy without a password" in result.stderr
    assert "damaged" not in result.stderr and "Traceback" not in result.stderr


def test_the_same_sheet_twice_is_refused(tmp_path: Path) -> None:
    ana = filled(tmp_path, "ana.pdf", ANA)
    copy = tmp_path / "ana-copy.pdf"
    copy.write_bytes(ana.read_bytes())
    result = run("score", str(ana), str(copy))
    assert result.exit_code == 2 and "ana-copy.pdf: is the same sheet as" in result.stderr
    # two different sheets of one player (a name typed on both) break rule 6
    other = filled(tmp_path, "ana-again.pdf", castle_values("ana ", towers=(2,)))
    twice = Scorer().score_sheets([ana, other])
    assert [v.rule for v in twice.violations] == ["once-upon-a-castle-6"]
    assert "ana-again.pdf, field player" in twice.violations[0].message
