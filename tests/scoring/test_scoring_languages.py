"""`donjon score --lang fr|de`: a French or German table reads its result in its language at the command line, as
the companion says it on the phones; the JSON keeps its keys and codes, its messages in that language."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.cli import app
from generator.i18n import language
from scoring.result import Result, Uncertain, Unconfirmed, Unread
from scoring.table import render
from tests.conftest import REPO

EXAMPLES = REPO / "content" / "examples"
CASES = REPO / "tests" / "scoring" / "cases"
GAMES = ("guildhall", "once-upon-a-castle", "guedelon")

runner = CliRunner()

#: Words of each language the result of every game says (the heading's `players`/`sheets`, the place row, the
#: summary's "winner"/"won").
SAID = {
    "fr": {"guildhall": ("joueurs : 3", "place", "gagnant : Ana, avec 21 PV"),
           "once-upon-a-castle": ("feuilles : 3", "place", "gagnant : Ana, avec 54 points"),
           "guedelon": ("joueurs : 3", "place", "gagné : le château a été achevé au tour 17 (année 1244)")},
    "de": {"guildhall": ("Personen: 3", "Platz", "Sieger: Ana, mit 21 SP"),
           "once-upon-a-castle": ("Bögen: 3", "Platz", "Sieger: Ana, mit 54"),
           "guedelon": ("Personen: 3", "Platz", "gewonnen: die Burg wurde in Runde 17 fertig (Jahr 1244)")},
}

#: English words no French or German line of the report may hold (outside the rulebook sections cited, whose
#: titles stay as printed, and the format's own words: paths, keys such as completed_chapters, --strict).
ENGLISH = re.compile(r"\b(the|is|has|holds|with|winner|players|sheets|rules? broken|warnings?|not scored|"
                     r"computed from|events|in play|left to build|round|team)\b")


def _said(line: str) -> str:
    """A line without what stays English by design: the rulebook sections cited at its end (`[004 Towers]`, a
    warning's `[M: ...]` is translated and kept), the file's path, and the format's keys."""
    line = re.sub(r"\[\d{3}[^\]]*\]$", "", line)
    line = re.sub(r"^\s*\S+\.(yaml|json)(:\d+)?:( [\w\[\]\.-]+:)?", "", line)  # the file, the line, the path
    return re.sub(r"\b[a-z]+(_[a-z]+)+\b|\b\w+\[\d+\][\w\[\]\.]*|--strict|mill ?: \S+|\(mill ?: \w+\)", "", line)


@pytest.mark.parametrize("code", ["fr", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_an_example_is_said_in_the_language_asked(code: str, game: str) -> None:
    result = runner.invoke(app, ["score", str(EXAMPLES / f"{game}.yaml"), "--lang", code])
    assert result.exit_code == 0, result.output
    # French typography's no-break spaces read as spaces here
    lines = result.stdout.replace("\u00a0", " ").replace("\u202f", " ").splitlines()
    setting, place, summary = SAID[code][game]
    assert setting in lines[0]
    assert any(line.split()[:1] == [place] for line in lines)
    assert lines[-1].startswith(summary)
    for line in lines:
        assert not ENGLISH.search(_said(line)), line


@pytest.mark.parametrize(("code", "heading"), [
    ("fr", "métiers : Maçon, Chasseur, Colporteur, Voleur, Érudit, Percepteur ;"),
    ("de", "Berufe: Maurer, Jäger, Hausierer, Räuber, Gelehrter, Steuereintreiber;")])
def test_the_guildhall_heading_names_the_professions_as_the_language_does(code: str, heading: str) -> None:
    """`--lang fr|de`: the heading names the professions in play as the language's cards print them, though the
    file calls one by its English name (`Tax Collector`, which told the rules the file names things in English);
    the rules' messages keep naming them as the file does. English as it was."""
    result = runner.invoke(app, ["score", str(EXAMPLES / "guildhall.yaml"), "--lang", code])
    assert result.exit_code == 0, result.output
    assert heading in result.stdout.splitlines()[0].replace("\u00a0", " ").replace("\u202f", " ")
    english = runner.invoke(app, ["score", str(EXAMPLES / "guildhall.yaml")]).stdout.splitlines()[0]
    assert english.endswith("(VP cards: Job Faire; professions: Bricklayer, Hunter, Peddler, Robber, Scholar, "
                            "Tax Collector; players: 3)")


def test_english_is_the_default_and_said_as_before() -> None:
    plain = runner.invoke(app, ["score", str(EXAMPLES / "once-upon-a-castle.yaml")])
    english = runner.invoke(app, ["score", str(EXAMPLES / "once-upon-a-castle.yaml"), "--lang", "en"])
    assert plain.exit_code == english.exit_code == 0
    assert plain.stdout == english.stdout
    assert "  towers " in plain.stdout and plain.stdout.rstrip().endswith("winner: Ana, with 54 points")


@pytest.mark.parametrize("code", ["fr", "de"])
@pytest.mark.parametrize("game", ["guildhall", "castle", "guedelon"])
def test_every_broken_rule_and_warning_of_a_game_is_said_in_the_language(code: str, game: str) -> None:
    """Each case of the game's rules that the scorer reads (broken rules, warnings and their sources, games in
    progress): no English sentence is left in the report."""
    files = sorted(str(p) for p in (CASES / game).glob("*.yaml"))
    result = runner.invoke(app, ["score", *files, "--lang", code])
    assert result.exit_code == 2, result.output  # among the cases, files that cannot be read
    reported = [line for line in result.stdout.splitlines() if line.startswith("  ") and ": " in line]
    assert len(reported) > 20
    for line in result.stdout.splitlines():
        assert not ENGLISH.search(_said(line)), line
    broken = {"fr": "enfreinte", "de": "verletzt"}[code]
    assert broken in result.stdout


@pytest.mark.parametrize("code", ["fr", "de"])
def test_json_keeps_its_keys_and_codes_and_says_its_messages_in_the_language(code: str) -> None:
    files = [str(CASES / "guildhall" / "many-violations.yaml"), str(EXAMPLES / "guedelon.yaml")]
    english = [json.loads(line) for line in runner.invoke(app, ["score", *files, "--json"]).stdout.splitlines()]
    result = runner.invoke(app, ["score", *files, "--json", "--lang", code])
    assert result.exit_code == 1, result.output
    said = [json.loads(line) for line in result.stdout.splitlines()]

    def keys(value: object) -> object:
        if isinstance(value, dict):
            return {k: keys(v) for k, v in value.items()}
        if isinstance(value, list):
            return [keys(v) for v in value]
        return None

    assert [keys(o) for o in said] == [keys(o) for o in english]
    violations, guedelon = said
    assert [v["where"] for v in violations["violations"]] == [v["where"] for v in english[0]["violations"]]
    for ours, theirs in zip(violations["violations"], english[0]["violations"], strict=True):
        assert ours["message"] != theirs["message"]
    for ours, theirs in zip(violations["warnings"], english[0]["warnings"], strict=True):
        assert (ours["where"], ours["confidence"]) == (theirs["where"], theirs["confidence"])
        assert ours["message"] != theirs["message"] and ours["source"] != theirs["source"]
    assert guedelon["mill"] == "built" and guedelon["players"][0]["breakdown"] == english[1]["players"][0]["breakdown"]


@pytest.mark.parametrize("given", ["es", "pt-BR", "french", "12", ""])
def test_a_language_donjon_does_not_score_in_is_a_usage_error(given: str) -> None:
    result = runner.invoke(app, ["score", str(EXAMPLES / "guildhall.yaml"), "--lang", given])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "--lang" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("given", ["FR", "fr-CA", "de_AT"])
def test_a_language_is_taken_with_its_region(given: str) -> None:
    result = runner.invoke(app, ["score", str(EXAMPLES / "guildhall.yaml"), "--lang", given])
    assert result.exit_code == 0, result.output
    assert "gagnant" in result.stdout or "Sieger" in result.stdout


def test_help_says_lang_and_what_the_json_keeps() -> None:
    result = runner.invoke(app, ["score", "--help"], env={"COLUMNS": "200", "TERMINAL_WIDTH": "200"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "--lang" in text and "keys and codes" in text


@pytest.mark.parametrize("code, asked, advice", [
    ("fr", "confirmez avec --set towers[1]=VALEUR", "que changer (tours #2)"),
    ("de", "bestätigen mit --set towers[1]=WERT", "was ändern (Türme #2)"),
])
def test_values_a_photo_left_uncertain_are_asked_in_the_language(code: str, asked: str, advice: str) -> None:
    """What a photo left to confirm, and a photo not read: the reader's words are English; the table says them as
    the companion does, by their reasons' codes."""
    from generator.sheets.advice import refusal, uncertainty

    glare = uncertainty("", "glare")
    blurred = refusal("the photo is blurred", "blurred")
    assert glare is not None and blurred is not None
    photos = Unconfirmed((Uncertain("towers[1]", "ana.jpg", "glare over towers[1]", "sheets[0].towers[1]", "glare",
                                    glare.advice),),
                         (Unread("ben.jpg", 1, "the photo is blurred", "blurred", blurred.advice),),
                         ("ana.jpg", "ben.jpg"))
    result = Result("once-upon-a-castle", False, False, (), None, (), source="game", summary="-", parts=(photos,))
    text = render(result, language(code))
    assert asked.replace("towers[1]", "sheets[0].towers[1]") in text
    assert advice in text
    assert "glare" not in text and "blurred" not in text and "confirm with" not in text
    english = render(result)
    assert "(confirm with --set sheets[0].towers[1]=VALUE)" in english and "ben.jpg: not read: the photo is" in english


def test_a_value_to_confirm_names_its_field_once() -> None:
    """A value a photo left to confirm is said with its field named once, then what `--set` takes: French and
    German reasons start with the field ("tours #3 : deux valeurs remplies"), and the line put its id before them
    ("ben.jpg: towers[2] : tours #3 : deux valeurs remplies"); an English rule's reason starts with it too ("storm
    is marked but boats is empty"). What to change names the fields as the lines do."""
    from generator.sheets.advice import uncertainty

    two = uncertainty("", "two-values")
    assert two is not None
    doubts = (Uncertain("towers[2]", "ben.jpg", "the units 2 and 5 are both filled; a digit takes one value",
                        "ben.jpg:towers[2]", "two-values", two.advice),
              Uncertain("storm", "ben.jpg", "storm is marked but boats is empty: a rule", "ben.jpg:storm", "rules"))
    photos = Unconfirmed(doubts, (), ("ben.jpg",))
    result = Result("once-upon-a-castle", False, False, (), None, (), source="game", summary="-", parts=(photos,))
    french = render(result, language("fr")).replace("\u00a0", " ").splitlines()
    assert "  ben.jpg : tours #3 : deux valeurs remplies (confirmez avec --set ben.jpg:towers[2]=VALEUR)" in french
    assert any(line.startswith("    que changer (tours #3) : ") for line in french), french
    english = render(result).splitlines()
    assert "  ben.jpg: towers[2]: the units 2 and 5 are both filled; a digit takes one value (confirm with --set " \
           "ben.jpg:towers[2]=VALUE)" in english, english
    assert "  ben.jpg: storm is marked but boats is empty: a rule (confirm with --set ben.jpg:storm=VALUE)" in english
    assert any(line.startswith("    what to change (towers[2]): ") for line in english), english


def test_the_installed_command_scores_in_german() -> None:
    bin_dir = Path(sys.executable).parent
    done = subprocess.run([str(bin_dir / "donjon"), "score", str(EXAMPLES / "guildhall.yaml"), "--lang", "de"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "Sieger: Ana, mit 21 SP"
    unknown = subprocess.run([str(bin_dir / "donjon"), "score", str(EXAMPLES / "guildhall.yaml"), "--lang", "es"],
                             capture_output=True, text=True, timeout=120, check=False)
    assert unknown.returncode == 2 and "--lang es" in unknown.stderr and "Traceback" not in unknown.stderr


@pytest.mark.parametrize("code, heading, unknown, missing", [
    ("fr", "illisible comme état de fin pour Oh mon château (2 problèmes)", "clé inconnue",
     "la clé « guests » manque"),  # (the message's narrow spaces read as spaces below)
    ("de", "nicht lesbar als Endstand für Once Upon a Castle (2 Probleme)", "unbekannter Schlüssel",
     "der Schlüssel „guests“ fehlt"),
])
def test_a_file_that_cannot_be_read_is_told_so_in_the_language(code: str, heading: str, unknown: str, missing: str,
                                                                  tmp_path: Path) -> None:
    end = tmp_path / "end.yaml"
    end.write_text("game: once-upon-a-castle\nversion: great-architect\nsheets:\n  - player: Ana\n"
                   "    donjon_floors: 1\n    towers: []\n    walls: []\n    residents: 3\n    flag: 2\n",
                   encoding="utf-8")
    result = runner.invoke(app, ["score", str(end), "--lang", code])
    assert result.exit_code == 2 and result.stdout == ""
    said = result.stderr.replace("\u00a0", " ").replace("\u202f", " ")
    assert heading in said and unknown in said and missing in said
    assert "cannot be read" not in said and "unknown key" not in said and "missing the key" not in said


@pytest.mark.parametrize("code", ["fr", "de"])
def test_the_json_of_photos_says_why_and_what_to_change_in_the_language(code: str) -> None:
    """`--json --lang`: a photo's `why` and `advice` (uncertain values, photos not read) in the language, as the
    companion says them; `field`, `set`, `reason`, `file` as they are."""
    from generator.sheets.advice import refusal, uncertainty
    from scoring.engine import _in_language

    glare, blurred = uncertainty("", "glare"), refusal("the photo is blurred", "blurred")
    assert glare is not None and blurred is not None
    photos = Unconfirmed((Uncertain("towers[1]", "ana.jpg", "glare over towers[1]", "sheets[0].towers[1]", "glare",
                                    glare.advice),),
                         (Unread("ben.jpg", 1, "the photo is blurred", "blurred", blurred.advice),),
                         ("ana.jpg", "ben.jpg"))
    english, said = photos.to_dict(), _in_language(photos, language(code)).to_dict()
    for kind in ("uncertain", "unread"):
        [ours], [theirs] = said[kind], english[kind]
        assert ours.keys() == theirs.keys()
        assert {k: v for k, v in ours.items() if k not in ("why", "advice")} == \
            {k: v for k, v in theirs.items() if k not in ("why", "advice")}
        assert ours["why"] != theirs["why"] and ours["advice"] == language(code)._(theirs["advice"]) != theirs["advice"]
    assert _in_language(photos, language("en")) is photos


#: How the `*` note of points computed from donjon's own default, and a --strict violation resting on one, say its
#: confidence in German: "Verlässlichkeit: Hausregel", the word the companion's pages and the references show (the
#: note said "berechnet aus einem Wert der Sicherheit Haus", the strict line "Sicherheit Haus: ein Verstoß")
GERMAN_CONFIDENCE = ("berechnet aus einem Wert (Verlässlichkeit: Hausregel; Vorgabe von donjon, nicht offiziell)",
                     "(eine Vorgabe von donjon, Verlässlichkeit: Hausregel; unter --strict ein Verstoß)")


@pytest.mark.parametrize("code", ["fr", "de"])
def test_donjons_own_default_is_named_in_the_language(code: str) -> None:
    """`--lang fr|de`: the confidence `house` (a value of donjon's own) is said as a word of the language in the
    `*` note, a warning's [confidence: source] and a --strict violation; H, M, L stay letters; the JSON keeps the
    code; English says `house` as before. German says a confidence "Verlässlichkeit: Hausregel" (GERMAN_CONFIDENCE),
    as the companion does."""
    case = str(CASES / "castle" / "every-crown-and-bare-sheets.yaml")
    word = language(code).pgettext("confidence", "house")
    assert word == language(code)._("house")  # the word of the companion's pages and of the references
    runner = CliRunner()
    for strict in ((), ("--strict",)):
        said = runner.invoke(app, ["score", case, "--lang", code, *strict]).stdout
        assert "house" not in said and re.search(rf"[\[;] ?{word}\u00a0?: ", said)  # French: "; défaut donjon : "
        notes = [line for line in said.splitlines() if line.startswith("  * ")]
        assert all(f" {word}" in note for note in notes) and (notes or strict)
        if code == "de":
            assert "Sicherheit" not in said and GERMAN_CONFIDENCE[bool(strict)] in said, said
        english = runner.invoke(app, ["score", case, *strict]).stdout
        assert re.search(r"[\[;] ?house: ", english)
    assert "confidence house (" in runner.invoke(app, ["score", case]).stdout
    scored = json.loads(runner.invoke(app, ["score", case, "--lang", code, "--json"]).stdout)
    assert "house" in [w["confidence"] for w in scored["warnings"]]


@pytest.mark.parametrize(("code", "said"), [("fr", "un tableau de clés (player) est attendu ici, pas 3 (un nombre "
                                                   "entier)"),
                                            ("de", "hier gehört eine Zuordnung (player) hin, nicht 3 (eine ganze "
                                                   "Zahl)")])
def test_a_value_where_a_mapping_belongs_is_said_in_the_language(tmp_path: Path, code: str, said: str) -> None:
    """`--lang fr|de`: a player given as a number is refused in the language, the record named as the format spells
    it (as its keys are); English as before."""
    state = tmp_path / "state.yaml"
    state.write_text("game: guildhall\nvp_set: job-faire\nplayers:\n  - 3\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["score", str(state), "--lang", code])
    assert result.exit_code == 2 and f"players[0]: {said}" in result.stderr.replace("\u00a0", " ")
    english = runner.invoke(app, ["score", str(state)])
    assert "players[0]: expected a player (a mapping), got 3 (a whole number)" in english.stderr


@pytest.mark.parametrize(("code", "in_all"), [("fr", "(20 en tout)"), ("de", "(20 insgesamt)")])
def test_a_long_list_of_values_says_how_many_in_the_language(tmp_path: Path, code: str, in_all: str) -> None:
    """`--lang fr|de`: an unknown guest is answered with the first values and how many there are in all, said in
    the language; English as before."""
    state = tmp_path / "state.yaml"
    state.write_text("game: once-upon-a-castle\nversion: great-architect\nsheets:\n  - player: Ana\n"
                     "    guests: [Zzyzx]\n", encoding="utf-8")
    runner = CliRunner()
    said = runner.invoke(app, ["score", str(state), "--lang", code])
    assert said.exit_code == 2 and in_all in said.stderr and "in all" not in said.stderr
    assert "... (20 in all)" in runner.invoke(app, ["score", str(state)]).stderr


#: What a file whose `game:` is wrong or missing is told in each language: (file's text, what is said), the games
#: listed as the language lists them.
GAME_KEY = {
    "fr": [("game: nope\n", "game: jeu inconnu : 'nope' ; donjon compte les points de guildhall, guedelon ou "
                            "once-upon-a-castle"),
           ("players: []\n", "n’a pas la clé 'game' (le jeu dont il garde la fin : guildhall, guedelon ou "
                             "once-upon-a-castle)"),
           ("game: 3\n", "game: le nom d’un jeu est attendu ici (guildhall, guedelon ou once-upon-a-castle), pas 3 "
                         "(un nombre entier)"),
           ("- game\n", "contient une liste, pas un état de fin"),
           ("", "est vide ; un état de fin commence par `game:`")],
    "de": [("game: nope\n", "game: Spiel unbekannt: 'nope'; donjon wertet guildhall, guedelon oder "
                            "once-upon-a-castle"),
           ("players: []\n", "der Schlüssel 'game' fehlt (welches Spiel hier endet: guildhall, guedelon oder "
                             "once-upon-a-castle)"),
           ("game: 3\n", "game: hier gehört der Name eines Spiels hin (guildhall, guedelon oder once-upon-a-castle), "
                         "nicht 3 (eine ganze Zahl)"),
           ("- game\n", "enthält eine Liste, keinen Endstand"),
           ("", "ist leer; ein Endstand beginnt mit `game:`")],
}


@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_game_not_known_is_said_in_the_language(tmp_path: Path, code: str) -> None:
    """`--lang fr|de`: an end state whose `game:` names no game donjon scores, or that has none, is refused in the
    language with the games it knows (their ids, as the key takes them); English as before."""
    runner = CliRunner()
    for index, (text, said) in enumerate(GAME_KEY[code]):
        state = tmp_path / f"state{index}.yaml"
        state.write_text(text, encoding="utf-8")
        told = runner.invoke(app, ["score", str(state), "--lang", code])
        assert told.exit_code == 2 and said in told.stderr.replace("\u00a0", " ").replace("\u202f", " "), told.stderr
        assert " or " not in told.stderr
    english = runner.invoke(app, ["score", str(tmp_path / "state0.yaml")])
    assert "game: unknown game 'nope'; donjon scores guildhall, guedelon or once-upon-a-castle" in english.stderr


@pytest.mark.parametrize(("code", "said"), [
    ("fr", ["erreur : <stdin>: contient une feuille remplie ou une photo ; donnez-les comme fichiers",
            "erreur : FILE -: est donné 2 fois ; l’entrée standard n’est lue qu’une fois"]),
    ("de", ["Fehler: <stdin>: enthält einen ausgefüllten Bogen oder ein Foto; gib diese als Dateien an",
            "Fehler: FILE -: ist 2-mal angegeben; die Standardeingabe wird nur einmal gelesen"])])
def test_an_end_state_piped_in_is_refused_in_the_language(code: str, said: list[str]) -> None:
    """`donjon score - --lang fr|de`: a filled sheet or a photo piped in, and `-` given twice, are refused in the
    language (exit 2, as in English); English as it was."""
    told = [runner.invoke(app, ["score", "-", "--lang", code], input=b"%PDF-1.4 filled"),
            runner.invoke(app, ["score", "-", "-", "--lang", code], input="game: guildhall\n")]
    assert [t.exit_code for t in told] == [2, 2]
    for result, line in zip(told, said):
        assert result.stderr.replace("\u00a0", " ").replace("\u202f", " ").startswith(line), result.stderr
        assert "standard input" not in result.stderr
    english = runner.invoke(app, ["score", "-"], input=b"%PDF-1.4 filled")
    assert english.stderr.startswith("error: <stdin>: holds a filled sheet or a photo; give those as files")
    assert runner.invoke(app, ["score", "-", "-"], input="").stderr == \
        "error: FILE -: is given 2 times; standard input is read once\n"


@pytest.mark.parametrize(("code", "said"), [
    ("fr", "la clé «\u202fguests\u202f» manque (Grands Architectes : les noms des invités"),
    ("de", "„guests“ fehlt (Baumeister: die Namen der Gäste")])
def test_a_missing_key_is_explained_in_the_language(tmp_path: Path, code: str, said: str) -> None:
    """`--lang fr|de`: a key left out is explained by the format's words for it in the language where donjon's
    catalogs hold them (the castle's guests); they were English inside the French or German message. English as
    before."""
    state = tmp_path / "state.yaml"
    state.write_text("game: once-upon-a-castle\nversion: great-architect\nsheets:\n  - player: Ana\n"
                     "    donjon_floors: 0\n    towers: []\n    walls: []\n", encoding="utf-8")
    runner = CliRunner()
    told = runner.invoke(app, ["score", str(state), "--lang", code])
    assert told.exit_code == 2 and said in told.stderr.replace("\u00a0", " "), told.stderr
    assert "Great Architect: the guests' names" not in told.stderr
    assert "missing the key 'guests' (Great Architect: the guests' names; Apprentice: the VP printed" in \
        runner.invoke(app, ["score", str(state)]).stderr


@pytest.mark.parametrize(("code", "name"), [("fr", "Oh mon château"), ("de", "Once Upon a Castle")])
def test_the_game_is_named_as_the_companion_names_it_in_the_language(tmp_path: Path, code: str, name: str) -> None:
    """`score`/`history --lang fr`: the castle is named by its French edition's title, as the companion's pages name
    it in French; it was "Once Upon a Castle" on the command line beside "Oh mon château" on the phones. German keeps
    the name its edition keeps; English as before."""
    import yaml

    from generator.web import store
    from generator.web.db import Database
    from generator.web.games import Games

    example = EXAMPLES / "once-upon-a-castle.yaml"
    runner = CliRunner()
    said = runner.invoke(app, ["score", str(example), "--lang", code]).stdout
    assert said.splitlines()[0].split(": ", 1)[1].startswith(f"{name} (")
    state = yaml.safe_load(example.read_text(encoding="utf-8"))
    result = Games().score(state).result
    assert result is not None
    db = Database(tmp_path / "h.sqlite3")
    try:
        db.write(lambda c: store.save_game(c, "once-upon-a-castle", state, result))
    finally:
        db.close()
    refused = runner.invoke(app, ["score", str(CASES / "castle" / "format-types.yaml"), "--lang", code]).stderr
    assert f" {name} (" in refused and (code != "fr" or "Once Upon" not in refused), refused
    listed = runner.invoke(app, ["history", "list", "--db", str(tmp_path / "h.sqlite3"), "--lang", code]).stdout
    shown = runner.invoke(app, ["history", "show", "1", "--db", str(tmp_path / "h.sqlite3"), "--lang", code]).stdout
    assert f"  {name} " in listed and shown.startswith(f"{name}, ")
    assert runner.invoke(app, ["score", str(example)]).stdout.split(": ", 1)[1].startswith("Once Upon a Castle (")


def test_a_profession_not_in_play_is_said_in_plain_german() -> None:
    """A profession of another set reads "ist in dieser Partie nicht im Spiel" (a play is a Partie, as the
    history's counts say): it read "ist in diesem Spiel nicht im Spiel"."""
    from scoring.engine import Scorer

    result = Scorer().score(CASES / "guildhall" / "many-violations.yaml", language("de"))
    farmer = next(v.message for v in result.violations if v.where.endswith("farmer"))
    assert "Bauer (Old World Economy) ist in dieser Partie nicht im Spiel (im Spiel: Maurer" in farmer


@pytest.mark.parametrize(("code", "name", "chapters"), [
    ("fr", "le nom de la personne", "les chapitres face visible : métier -> les couleurs présentes"),
    ("de", "der Name der Person", "die offenen Kapitel: Beruf -> die vorhandenen Farben")])
def test_a_guildhall_players_missing_keys_are_explained_in_the_language(tmp_path: Path, code: str, name: str,
                                                                         chapters: str) -> None:
    """A Guildhall player without a name and a guildhall: each missing key's explanation in the language (the
    face-up chapters' was English inside the French message; reported seen on a French page). English as
    before."""
    state = tmp_path / "state.yaml"
    state.write_text("game: guildhall\nvp_set: job-faire\nplayers:\n  - completed_chapters: 0\n    vp_cards: []\n"
                     "    vp_tokens: 0\n", encoding="utf-8")
    runner = CliRunner()
    told = runner.invoke(app, ["score", str(state), "--lang", code]).stderr.replace("\u00a0", " ")
    assert name in told and chapters in told and "face-up" not in told and "player's" not in told, told
    english = runner.invoke(app, ["score", str(state)]).stderr
    assert "missing the key 'guildhall' (the face-up chapters: profession -> the colours present)" in english
    assert "missing the key 'name' (the player's name, unique in the game)" in english
