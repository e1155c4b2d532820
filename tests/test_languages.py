"""Languages (issue 26, phase 1): the interface's catalogs, the catalogs' translations with their provenance, cards,
references and designer decks in French and German, typography, and English staying lean.

Golden files per language (one card, one reference page) are in tests/render/golden/lang/; `pytest --regenerate`
rewrites them (look at them first: `pdftoppm -png`)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from generator.backends.svg import drawing_svg
from generator.build.decks import deck_layouts, deck_origin, deck_view, face_drawing
from generator.catalog.common import every_name
from generator.catalog.translations import localise
from generator.content import Content, all_decks, load_content
from generator.i18n import language, normalise_code
from generator.i18n.catalogs import gaps, undated
from generator.i18n.typography import NBSP, NNBSP, typeset
from tests.conftest import REPO, check_golden, check_golden_pdf, modules_a_build_loads

GOLDEN = REPO / "tests" / "render" / "golden" / "lang"


@pytest.fixture(scope="module")
def shipped() -> Content:
    return load_content()


def test_every_message_is_translated_in_every_language() -> None:
    """Extraction finds every message of the code, layouts and preview, and the French and German catalogs
    translate each (a message missing from a catalog, untranslated or fuzzy, or no longer used, fails)."""
    assert list(gaps()) == []


#: The formal address of German (`prüfen Sie`, `Ihre`) where it is not a sentence's first word: there `Sie` is
#: "they" or "she" too, so only the middle of a sentence tells it.
FORMAL_GERMAN = re.compile(r"(?<![.:!?;]\s)(?<![.:!?;])(?<!^)\b(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|Ihnen)\b")


def test_the_german_messages_say_du_to_the_player_throughout() -> None:
    """donjon's German speaks to its user one way, as its companion and command line do (`prüfe`, `tippe`): a
    message that said Sie (the print shop's, the companion's busy database) read as another program's."""
    from babel.messages.pofile import read_po

    from generator.i18n import catalogs

    with catalogs.po_files()["de"].open("rb") as f:
        catalog = read_po(f)
    formal = [(message.id, text) for message in catalog if message.id
              for text in ((message.string,) if isinstance(message.string, str) else message.string or ())
              if text and FORMAL_GERMAN.search(text)]
    assert formal == []
    assert FORMAL_GERMAN.search("Nichts wurde gespeichert: versuchen Sie es erneut")
    assert not FORMAL_GERMAN.search("Keine Quelle nennt sie: Sie fehlt hier.")


#: donjon's German word for a concept whose English word a message holds, and the words it said for it beside that one:
#: a player is a "Person" (a game's count of players too, "2–4 Personen"), as the companion's forms said while its
#: menu said "Spieler"; a VP card a "Prestigekarte" and a VP token a "Siegpunktmarker", as the German edition and the
#: cards' texts call them (content/guildhall/game.yaml), where the table's form said "SP-Karten" and "SP-Marker"; a
#: player's guild a "Zunfthalle", as the cards say, where the table's form said "Gildenhalle"; a score sheet a
#: "Bogen" (a hundred messages), where the scorer's counts and headings said "Blatt"
GERMAN_WORDS = {"player": "Person", "VP card": "Prestigekarte", "VP token": "Siegpunktmarker"}
GERMAN_OTHERS = re.compile(r"Spieler|SP-Karte|SP-Marker|Prestigevorrat|Gildenhalle|\bBl[aä]tt")


def test_the_german_messages_say_one_word_for_each_concept() -> None:
    """A player, a VP card and a VP token are each called one way in every German message: the table's menu said
    "Spieler" over a page of "Personen", its form "SP-Karten" beside the reference's "Prestigekarten"."""
    from babel.messages.pofile import read_po

    from generator.i18n import catalogs

    with catalogs.po_files()["de"].open("rb") as f:
        catalog = read_po(f)
    other = []
    for message in catalog:
        english = " ".join((message.id,) if isinstance(message.id, str) else message.id)
        for text in ((message.string,) if isinstance(message.string, str) else message.string or ()):
            if text and GERMAN_OTHERS.search(text):
                other.append((message.id, text))
            for concept in ("VP card", "VP token"):  # "player" is also "Name", "wer" ...: its other word is enough
                if text and concept in english and GERMAN_WORDS[concept] not in text:
                    other.append((message.id, text))
    assert other == []


def test_a_catalog_missing_a_message_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.i18n import catalogs

    po = catalogs.po_files()["fr"]
    text = po.read_text(encoding="utf-8")
    broken = tmp_path / "donjon.po"
    broken.write_text(text.replace('msgstr "Sommaire"', 'msgstr ""'), encoding="utf-8")
    monkeypatch.setattr(catalogs, "po_files", lambda: {"fr": broken})
    found = list(catalogs.gaps())
    assert found == [line for line in found if line.startswith("fr: 'Contents'")] and found, found


def test_messages_fall_back_to_english() -> None:
    french = language("fr")
    assert french._("Contents") == "Sommaire"
    assert french._("a message no catalog has") == "a message no catalog has"
    spanish = language("es")  # a language donjon has no catalog for: English words, Spanish numbers
    assert spanish._("Contents") == "Contents" and spanish.number(1234.5) == "1.234,5"
    assert language("fr-CA")._("Contents") == "Sommaire"
    with pytest.raises(ValueError):
        language("not a code")


@pytest.mark.parametrize("code", ["sp", "xx", "zz-AA"])
def test_a_language_babel_does_not_know_writes_numbers_and_dates_as_english(tmp_path: Path, code: str) -> None:
    """A well-formed code no locale data has (`sp`, the typo of `es`): its numbers, dates and lists are written as
    English writes them, as its words are; a build or a reference in it was an internal error (exit 4)."""
    import datetime

    lang = language(code)
    assert lang.number(1234.5) == "1,234.5" and lang.number(3, decimals=1) == "3.0"
    day, english = datetime.date(2026, 1, 31), language("en")
    assert lang.date(day) == english.date(day) and lang.listing(["Ana", "Ben"]) == english.listing(["Ana", "Ben"])
    result = _donjon("reference", "guedelon", "--lang", code, "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "o" / "references" / "guedelon-reference.pdf").is_file()


def test_numbers_and_dates_per_language() -> None:
    import datetime

    from babel.numbers import format_decimal

    for value in (0, 7, 1234, 1234567, 57.15, 0.5):
        assert language("en").number(value) == format_decimal(value, locale="en"), value
    assert language("fr").number(1234.5) == "1\u202f234,5"
    assert language("de").number(1234.5) == "1.234,5"
    assert language("fr").date(datetime.date(2026, 1, 31)) == "31 janvier 2026"
    assert language("de").date(datetime.date(2026, 1, 31)) == "31. Januar 2026"


def test_plural_rules_are_the_languages_own() -> None:
    assert language("fr").ngettext("{n} card", "{n} cards", 0) == "{n} carte"  # French: 0 is singular
    assert language("en").ngettext("{n} card", "{n} cards", 0) == "{n} cards"
    assert language("de").ngettext("{n} card", "{n} cards", 2) == "{n} Karten"


def test_french_and_german_typography() -> None:
    assert typeset("fr", 'Attention : le "chantier" ! Pourquoi? Oui; non') == (
        f"Attention{NBSP}: le «{NNBSP}chantier{NNBSP}»{NNBSP}! Pourquoi{NNBSP}? Oui{NNBSP}; non")
    assert typeset("fr", "l'atelier à 10:30, http://x.fr") == "l\u2019atelier à 10:30, http://x.fr"
    assert typeset("de", 'Er sagt "Hallo", geht\'s?') == "Er sagt \u201eHallo\u201c, geht\u2019s?"
    english = 'He said "hi": fine! It\'s done?'
    assert typeset("en", english) == english
    assert normalise_code("FR_ca") == "fr-CA" and normalise_code("fr ca") is None


def test_localised_catalog_keeps_where_each_text_comes_from(shipped: Content) -> None:
    from generator.registry import find_game

    guedelon = localise(shipped.catalog(find_game("guedelon")), "fr")
    alchemy = next(e for e in guedelon.events if e.id == "alchemy")
    assert alchemy.name == "Alchimie" and alchemy.provenance.translated("name")[0] == "rulebook"
    assert alchemy.provenance.translated("effect") == ("house", "", None)
    assert guedelon.product_name("cut-stone") == "Pierre taillée"
    guildhall = localise(shipped.catalog(find_game("guildhall")), "de")
    weaver = next(p for p in guildhall.professions if p.id == "weaver")
    assert weaver.name == "Weber" and weaver.levels[0].at == 0 and "Hand" in weaver.levels[0].effect
    assert weaver.provenance.translated("levels.at") is None  # the thresholds are numbers, not translated
    assert weaver.provenance.translated("levels.effect") == ("house", "", None)
    vp_deck = next(d for d in guildhall.info.decks if d.id == "old-world-economy-vp")
    assert vp_deck.name == "Old World Economy: Prestigekarten"
    castle = shipped.catalog(find_game("once-upon-a-castle"))
    merchant = next(g for g in castle.guests if g.id == "merchant")
    assert set(every_name(merchant)) == {"Merchant", "Marchand", "Händler"}
    assert localise(castle, "fr").info.name == "Oh mon château"
    assert localise(castle, "es") == castle or localise(castle, "es").guests[0].name == "Architect"  # falls back


@pytest.mark.parametrize(("lang", "also"), [("en", "en"), ("en", "xx"), ("fr", "fr")])
def test_a_second_name_that_is_the_title_itself_is_left_out(tmp_path: Path, shipped: Content, lang: str,
                                                           also: str) -> None:
    """`--also` in the build's own language, or in one nobody holds (whose names fall back to English): no card
    prints its title twice, the games' as a deck of one's own (which falls back to its own language)."""
    mine = load_content(_deck(tmp_path / "content"))
    decks = all_decks(shipped, lang, also) + all_decks(mine, lang, also)
    assert [c.name for d in decks for c in d.cards if c.also] == []
    # a second language that gives other names still prints them
    assert {c.also for d in all_decks(mine, "fr", "de") for c in d.cards} == {"Feuerball", "Shield"}


@pytest.mark.parametrize("command", [
    ["build", "--content", "{deck}", "--format", "svg"],
    ["preview", "--content", "{deck}"],
    ["export", "png", "--content", "{deck}", "--dpi", "72"],
])
def test_an_also_language_nobody_holds_is_said_on_stderr(tmp_path: Path, command: list[str]) -> None:
    """`--also sp` (the typo of es) says so as `--lang sp` does, where it printed every title twice in silence."""
    folder = _deck(tmp_path / "content")
    args = [part.format(deck=folder) for part in command]
    result = _donjon(*args, "--also", "sp", "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    assert "warning: --also sp: donjon has no words in 'sp' (it has en, fr, de)" in result.stderr, result.stderr
    german = _donjon(*args, "--lang", "fr", "--also", "de", "--out", str(tmp_path / "de"))
    assert german.returncode == 0 and "warning:" not in german.stderr, german.stderr


@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_card_in_each_language(shipped: Content, code: str, regenerate: bool) -> None:
    """Golden: the first event card of Guédelon, in the language and with its English name under the title."""
    deck = next(d for d in all_decks(shipped, code, "en") if d.key == "guedelon/events")
    face, _back = deck_layouts(deck, deck_origin(shipped, deck))
    card = deck.cards[0]
    assert card.also == "Alchemy"
    svg = drawing_svg(face_drawing(face, deck, card, deck_view(deck), 0.0), card.name)
    check_golden(GOLDEN / f"guedelon--events--01-alchemy.{code}.svg", svg, regenerate)


@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_reference_page_in_each_language(shipped: Content, code: str, tmp_path: Path, regenerate: bool) -> None:
    """Golden: the events page of the Guédelon reference, in the language (PDF, compared for what it draws)."""
    from generator.backends import backend
    from generator.build.references import document
    from generator.reference.document import layout
    from generator.registry import find_game
    from generator.render.imposition import PAPERS

    doc = document(localise(shipped.catalog(find_game("guedelon")), code))
    pages = layout(doc, PAPERS["a4"])
    events = next(p for p in pages if any(getattr(a, "key", None) == "events" for a in p.anchors))
    events = events._replace(links=())  # alone, the page has none of the notes its links go to
    target = tmp_path / "page.pdf"
    backend("pdf").page_writer()(iter([events]), target, title=doc.title, subject=doc.subject, lang=code)
    check_golden_pdf(GOLDEN / f"guedelon-reference-events.{code}.pdf", target.read_bytes(), regenerate)


@pytest.mark.parametrize("code", ["fr", "de"])
def test_the_english_notes_of_a_reference_keep_english_typography(tmp_path: Path, code: str) -> None:
    """The notes on sources stay in English (the reference says so): set as English writes them, not with the
    page's French spaces before `;` (`card's text ; the rules`) nor its apostrophes (the golden reference pages
    hold the page's own typography)."""
    result = _donjon("reference", "guedelon", "--lang", code, "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    said = subprocess.run(["pdftotext", str(tmp_path / "references" / "guedelon-reference.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout
    assert "donjon's reading of the card's text; the rules say only" in " ".join(said.split()), said[-3000:]


@pytest.mark.parametrize(("code", "word"), [("en", "house"), ("fr", "défaut donjon"), ("de", "Hausregel")])
def test_a_references_house_confidence_is_a_word_of_its_language(tmp_path: Path, code: str, word: str) -> None:
    """The confidence of a house default is a word, shown in the reference's language as the companion shows it
    (H, M and L are letters in every language): a French reference said "◊ house" in its legend and "(house)"
    after each note of a house default."""
    result = _donjon("reference", "guedelon", "--lang", code, "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    said = " ".join(subprocess.run(["pdftotext", str(tmp_path / "references" / "guedelon-reference.pdf"), "-"],
                                   capture_output=True, text=True, check=True).stdout.split())
    assert f"◊ {word}" in said and f"({word})" in said, said[:2000]
    if code != "en":
        assert "house)" not in said and "◊ house" not in said


@pytest.mark.parametrize(("code", "words"), [("fr", "120 cartes métier ; et 30 cartes PV"),
                                              ("de", "120 Berufskarten; dazu 30 Prestigekarten")])
def test_the_guildhall_reference_counts_its_cards_in_its_language(tmp_path: Path, code: str, words: str) -> None:
    """Each set's count of cards, in the reference's language: the French reference said "120 profession cards ;
    et 30 VP cards" (messages no catalog had, as they were never extracted)."""
    result = _donjon("reference", "guildhall", "--lang", code, "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    said = " ".join(subprocess.run(["pdftotext", str(tmp_path / "references" / "guildhall-reference.pdf"), "-"],
                                   capture_output=True, text=True, check=True).stdout.split())
    assert words in said and "profession cards" not in said, said[:3000]


@pytest.mark.parametrize(("code", "line"), [
    ("en", "2-4 players · Alderac Entertainment Group (AEG); German edition Pegasus Spiele"),
    ("fr", "2 à 4 joueurs · Alderac Entertainment Group (AEG) ; édition allemande Pegasus Spiele"),
    ("de", "2–4 Personen · Alderac Entertainment Group (AEG); deutsche Ausgabe Pegasus Spiele")])
def test_the_guildhall_references_publisher_line_is_in_its_language(tmp_path: Path, code: str, line: str) -> None:
    """The publisher line under a reference's title, in the reference's language: the French and German ones said
    "German edition Pegasus Spiele", English words of game.yaml's publisher (now given under its translations)."""
    result = _donjon("reference", "guildhall", "--lang", code, "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    said = " ".join(subprocess.run(["pdftotext", "-l", "1", str(tmp_path / "references" / "guildhall-reference.pdf"),
                                    "-"], capture_output=True, text=True, check=True).stdout.split())
    assert line in said.replace(NBSP, " ").replace(NNBSP, " "), said[:400]

@pytest.mark.parametrize(("code", "said"), [("en", "is 1e+300, beyond the 1,000,000 donjon reads"),
                                             ("fr", "vaut 1e+300, au-delà des 1\u202f000\u202f000 que donjon lit"),
                                             ("de", "1.000.000")])
def test_the_largest_number_read_is_written_in_the_messages_language(code: str, said: str) -> None:
    """The bound of a number in an end state, in the numbers of the message's language: French printed
    "au-delà des 1000000"."""
    from generator.errors import InputError
    from scoring.engine import Scorer

    state = {"game": "guildhall", "vp_set": "job-faire", "players": [
        {"name": "Ana", "guildhall": {}, "vp_tokens": 1e300, "vp_cards": [], "completed_chapters": 0},
        {"name": "Ben", "guildhall": {}, "vp_tokens": 0, "vp_cards": [], "completed_chapters": 0}]}
    with pytest.raises(InputError) as err:
        Scorer().score(state, language(code))
    assert said in str(err.value), str(err.value)



@pytest.mark.parametrize(("code", "said"), [
    ("en", {"players[0].vp_tokens": "is 20.5;", "players[1].vp_tokens": "is -1,500;",
            "players[1].vp_cards[0]": "is -2,500;", "players[1].completed_chapters": "is 1,200;",
            "players[2].vp_tokens": "is 1.0001;", "ended_by": "Ben has -4,000 VP;",
            "players[2].name": "of players[0];"}),
    ("fr", {"players[0].vp_tokens": "vaut 20,5\u202f;", "players[1].vp_tokens": "vaut -1\u202f500\u202f;",
            "players[1].vp_cards[0]": "vaut -2\u202f500\u202f;",
            "players[1].completed_chapters": "vaut 1\u202f200\u202f;",
            "players[2].vp_tokens": "vaut 1,0001\u202f;", "ended_by": "Ben a -4\u202f000 PV\u202f;",
            "players[2].name": "de players[0]\u202f;"}),
    ("de", {"players[0].vp_tokens": "ist 20,5;", "players[1].vp_tokens": "ist -1.500;",
            "players[1].vp_cards[0]": "ist -2.500;", "players[1].completed_chapters": "ist 1.200;",
            "players[2].vp_tokens": "ist 1,0001;", "ended_by": "Ben hat -4.000 SP;",
            "players[2].name": "von players[0];"})])
def test_the_guildhall_rules_say_quantities_in_the_numbers_of_the_messages_language(code: str,
                                                                                    said: dict[str, str]) -> None:
    """Tokens, points, VP cards and chapters a file gives are said as the message's language writes numbers
    (French printed "vaut 20.5" and "-1500"; `{tokens:g}` printed "-1e+06" in every language); a value three
    decimals would round is said whole-digit (1,0001, never "1"), and an index stays as the file's path writes it."""
    from scoring.engine import Scorer

    state = {"game": "guildhall", "vp_set": "job-faire", "ended_by": "Ben", "players": [
        {"name": "Ana", "guildhall": {}, "vp_tokens": 20.5, "vp_cards": [], "completed_chapters": 0},
        {"name": "Ben", "guildhall": {}, "vp_tokens": -1500, "vp_cards": [-2500], "completed_chapters": 1200},
        {"name": "ana", "guildhall": {}, "vp_tokens": 1.0001, "vp_cards": [], "completed_chapters": 0}]}
    found = {v.where: v.message for v in Scorer().score(state, language(code)).violations}
    wrong = {where: found.get(where) for where, words in said.items() if words not in found.get(where, "")}
    assert wrong == {}, said



@pytest.mark.parametrize(("code", "said"), [
    ("en", {"sheets[0].towers[0]": "is -1,500;", "sheets[0].residents": "is 12,000;", "players": "is 1,500;",
            "sheets[1].resident_points": "is 7,000;", "sheets[1].donjon_floors": "is -1,000;"}),
    ("fr", {"sheets[0].towers[0]": "vaut -1\u202f500\u202f;", "sheets[0].residents": "vaut 12\u202f000\u202f;",
            "players": "vaut 1\u202f500\u202f;", "sheets[1].resident_points": "vaut 7\u202f000\u202f;",
            "sheets[1].donjon_floors": "vaut -1\u202f000\u202f;"}),
    ("de", {"sheets[0].towers[0]": "ist -1.500;", "sheets[0].residents": "ist 12.000;", "players": "ist 1.500;",
            "sheets[1].resident_points": "ist 7.000;", "sheets[1].donjon_floors": "ist -1.000;"})])
def test_the_castle_and_guedelon_rules_say_quantities_in_the_numbers_of_the_messages_language(
        code: str, said: dict[str, str]) -> None:
    """A castle's towers, residents, points and floors and Guédelon's players, as a file gives them, are said as
    the message's language writes numbers ("vaut 12000" and "-1500" in French before)."""
    from scoring.engine import Scorer

    castle = {"game": "once-upon-a-castle", "version": "apprentice", "sheets": [
        {"player": "Ana", "donjon_floors": 1, "towers": [-1500], "walls": [], "residents": 12000, "guests": [3]},
        {"player": "Ben", "donjon_floors": -1000, "towers": [], "walls": [], "resident_points": 7000, "guests": []}]}
    guedelon = {"game": "guedelon", "players": 1500, "rounds": 3, "events": "easy", "built": []}
    scored = [Scorer().score(state, language(code)) for state in (castle, guedelon)]
    found = {v.where: v.message for result in scored for v in result.violations}
    found.update({w.where: w.message for result in scored for w in result.warnings})
    wrong = {where: found.get(where) for where, words in said.items() if words not in found.get(where, "")}
    assert wrong == {}, said


def _pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """`donjon build all --lang fr` and `--lang de`, once for the tests below."""
    out = {}
    for code in ("fr", "de"):
        folder = tmp_path_factory.mktemp(code)
        result = subprocess.run([sys.executable, "-m", "generator", "build", "all", "--lang", code, "--out",
                                 str(folder), "--format", "pdf"], capture_output=True, text=True, cwd=REPO,
                                timeout=600)
        assert result.returncode == 0, result.stderr
        out[code] = folder
    return out


def test_build_all_in_french_and_german(built: dict[str, Path]) -> None:
    fr = _pdf_text(built["fr"] / "references" / "guedelon-reference.pdf")
    assert "Guédelon : référence des cartes" in fr.replace(NBSP, " ") and "Alchimie" in fr and "Sommaire" in fr
    assert "Chaque ouvrier gagne 2 outils." in fr and "†" in fr  # donjon's own translation, marked
    de = _pdf_text(built["de"] / "guildhall" / "old-world-economy-professions.pdf")
    assert "Weber" in de and "mit 100 % drucken" in de and "Seite 1 von" in de
    castle = _pdf_text(built["fr"] / "references" / "once-upon-a-castle-reference.pdf")
    assert "Oh mon château" in castle and "Marchand" in castle


#: Words each language's castle sheets print, and English words none of them may print any more.
SHEET_WORDS = {
    "fr": ("Feuille de score · version Grands Architectes", "Habitants", "Reine†", "Noms traduits par donjon",
           "tour 1", "rempart 4", "étage 3", "Les invités rapportent", "à scanner"),
    "de": ("Wertungsbogen · Version Baumeister†", "Bewohner", "Königin†", "Namen von donjon übersetzt", "Turm 1",
           "Mauer 4", "Stock 3", "Gäste zählen", "zum Scannen"),
}
SHEET_TITLES = {"fr": "Oh mon château : feuille de score", "de": "Once Upon a Castle: Wertungsbogen"}
ENGLISH_SHEET_WORDS = ("Score sheet", "Residents", "Guests", "tower 1", "wall 4", "floor 3", "Player", "drawn",
                       "one page per player", "Queen", "Towers", "built", "units")


@pytest.mark.parametrize("code", ["fr", "de"])
def test_build_all_writes_the_castle_sheets_in_the_language(built: dict[str, Path], code: str) -> None:
    """The castle's score sheets of `build all --lang`: every word in the language (pdftotext), the names of the
    catalog in it with donjon's own translations marked, the PDF saying its language."""
    import pypdf

    folder = built[code] / "score-sheets" / "once-upon-a-castle"
    sheets = sorted(folder.glob("*.pdf"))
    assert len(sheets) == 8
    for path in sheets:
        text = _pdf_text(path).replace(NBSP, " ").replace(NNBSP, " ")
        words = " ".join(text.split())
        for word in ENGLISH_SHEET_WORDS:
            assert word not in words, f"{path.name} still says {word!r}"
        reader = pypdf.PdfReader(path)
        assert str(reader.root_object["/Lang"]) == code
        title = str(reader.metadata.title if reader.metadata else "").replace(NBSP, " ")
        assert title.startswith(SHEET_TITLES[code]), title
    scan_ready = " ".join(_pdf_text(folder / "castle-sheet-great-architect-a4.pdf").replace(NBSP, " ").split())
    for word in SHEET_WORDS[code]:
        assert word in scan_ready, f"the {code} sheet lacks {word!r}"



def test_the_german_castle_sheets_write_points_one_way(built: dict[str, Path]) -> None:
    """Every German castle sheet writes points as SP (Siegpunkte), after a number and as a word: they wrote "1 P."
    on the resident track, "1 SP" for the guests and "Sonne · 4 Punkte" (no source gives the German edition's
    word; SP is the one donjon's German Guildhall and guest cards already use)."""
    folder = built["de"] / "score-sheets" / "once-upon-a-castle"
    for path in sorted(folder.glob("*.pdf")):
        words = " ".join(_pdf_text(path).replace(NBSP, " ").replace(NNBSP, " ").split())
        assert re.findall(r"\bPunkte?\b|\d P\.", words) == [], path.name
        for said in ("Sonne · 4 SP", "Schlusswolke · 4 SP", "1 SP 1-5", "12 SP 26-30", "die SP der Gruppe"):
            assert said in words, f"{path.name} lacks {said!r}"


def test_the_shipped_catalogs_fit_in_every_language() -> None:
    """`content check` draws every card of the games in English, French and German: every text fits."""
    from generator.build.check import check_layouts
    from generator.content import check_content

    content, problems = check_content()
    assert problems == [] and check_layouts(content) == []


DECK = """\
id: trilingual
name: Three languages
lang: en
layout: generic
cards: cards.csv
"""
TABLE = """\
Name,Name@fr,Name@de,Text,Text@fr,Text@de
Fireball,Boule de feu,Feuerball,Deal 3 damage: fire!,Inflige 3 dégâts : feu !,Fügt 3 Schaden zu: Feuer!
Shield,Bouclier,,Block the next attack.,,Blockt den nächsten Angriff.
"""


def _deck(root: Path, table: str = TABLE) -> Path:
    folder = root / "trilingual"
    folder.mkdir(parents=True)
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    (folder / "cards.csv").write_text(table, encoding="utf-8")
    return folder


@pytest.mark.parametrize(("code", "expected", "absent"), [
    ("en", ["Fireball", "Deal 3 damage", "Shield"], ["Boule"]),
    ("fr", ["Boule de feu", "Inflige 3 dégâts", "Bouclier", "Block the next attack."], ["Fireball"]),
    ("de", ["Feuerball", "Fügt 3 Schaden zu", "Shield", "Blockt den"], ["Fireball"]),
])
def test_a_designer_deck_in_three_languages(tmp_path: Path, code: str, expected: list[str],
                                            absent: list[str]) -> None:
    """One table, a column per language; each empty cell falls back to the deck's own language."""
    folder = _deck(tmp_path / "content")
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(folder), "--lang", code,
                             "--out", str(out)], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    text = _pdf_text(out / "decks" / "trilingual.pdf")
    for word in expected:
        assert word in text, (code, word, text)
    for word in absent:
        assert word not in text
    svg = (out / "decks" / "trilingual" / "svg" / "001-fireball.svg").read_text(encoding="utf-8")
    if code == "fr":  # French spaces before the high punctuation (the SVG keeps the text, invisible, for search)
        assert f"3 dégâts{NBSP}: feu{NNBSP}!" in svg
    elif code == "de":
        assert "Schaden zu: Feuer!" in svg
    assert sorted(p.name for p in (out / "decks" / "trilingual" / "svg").iterdir())[:2] == ["001-fireball.svg",
                                                                                           "002-shield.svg"]


def test_content_check_names_the_language_whose_text_does_not_fit(tmp_path: Path) -> None:
    long_french = " ".join(["Une phrase beaucoup trop longue pour la carte."] * 40)
    folder = _deck(tmp_path / "content", TABLE.replace("Inflige 3 dégâts : feu !", long_french))
    result = subprocess.run([sys.executable, "-m", "generator", "content", "check", str(folder)],
                            capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 1, result.stderr
    assert "trilingual (in fr): card 'Boule de feu'" in result.stderr and "does not fit" in result.stderr
    assert "(in de)" not in result.stderr


def test_a_translation_column_of_no_column_is_refused(tmp_path: Path) -> None:
    folder = _deck(tmp_path / "content", "Name,Title@fr\nFireball,Boule\n")
    result = subprocess.run([sys.executable, "-m", "generator", "content", "check", str(folder)],
                            capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 1
    assert "Title@fr: translates the column 'Title', which the table does not have" in result.stderr


def test_a_bad_language_code_is_a_usage_error() -> None:
    result = subprocess.run([sys.executable, "-m", "generator", "build", "--lang", "français"],
                            capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 2 and "--lang: 'français' is not a language code" in result.stderr


def test_an_english_build_imports_no_translation_machinery(tmp_path: Path) -> None:
    """The lean start-up promise: building the benchmark deck in English reads no catalog, imports no Babel and
    nothing of donjon's translation machinery (gettext itself comes with click)."""
    assert modules_a_build_loads(tmp_path / "o", ("babel", "generator.i18n.catalogs",
                                                  "generator.catalog.translations")) == []


def _donjon(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=120)


def _translated(rows: list[list[str]]) -> list[list[str]]:
    """A translator's work: every missing translation filled, its status set."""
    words = {"Fireball": "Feuerball", "Shield": "Schild", "Deal 3 damage: fire!": "Fügt 3 Schaden zu: Feuer!",
             "Block the next attack.": "Blockt den nächsten Angriff."}
    out = [rows[0]]
    for row in rows[1:]:
        deck, card, column, lang, source, translation, status = row
        if not translation:
            translation, status = f"[{lang}] " + words.get(source, source), "translated"
        out.append([deck, card, column, lang, source, translation, status])
    return out


@pytest.mark.parametrize("command", [["export", "--out", "{tmp}/t.csv"], ["import", "{tmp}/t.csv"]])
def test_translations_without_a_folder_of_decks_say_which_folder(tmp_path: Path, command: list[str]) -> None:
    """Without DIR (the shipped content, the games' alone) the error asks for DIR; with a folder that holds no deck
    it names that folder. Both said `DIR: holds no deck of your own`, naming a word of the help, not a folder."""
    (tmp_path / "t.csv").write_text("deck,card,column,language,source,translation,status\n", encoding="utf-8")
    games = tmp_path / "games"
    shutil.copytree(REPO / "content" / "guildhall", games / "guildhall")
    args = ["content", "translations", *(part.format(tmp=tmp_path) for part in command)]
    alone = _donjon(*args)
    assert alone.returncode == 2 and "error: DIR: not given: name the content folder of your decks" in alone.stderr
    given = _donjon(*args, str(games))
    assert given.returncode == 2 and f"error: {games}: holds no deck of your own" in given.stderr, given.stderr


def test_the_translations_spreadsheet_round_trips_as_csv(tmp_path: Path) -> None:
    import csv
    import io

    folder = _deck(tmp_path / "content")
    first = tmp_path / "t.csv"
    assert _donjon("content", "translations", "export", str(folder), "--out", str(first)).returncode == 0
    rows = list(csv.reader(io.StringIO(first.read_text(encoding="utf-8"))))
    assert rows[0] == ["deck", "card", "column", "language", "source", "translation", "status"]
    assert ["trilingual", "002-shield", "Name", "de", "Shield", "", "missing"] in rows
    assert ["trilingual", "001-fireball", "Name", "fr", "Fireball", "Boule de feu", "translated"] in rows
    edited = tmp_path / "edited.csv"
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\n").writerows(_translated(rows))
    edited.write_text(buffer.getvalue(), encoding="utf-8")
    result = _donjon("content", "translations", "import", str(edited), str(folder))
    assert result.returncode == 0, result.stderr
    again = tmp_path / "again.csv"
    assert _donjon("content", "translations", "export", str(folder), "--out", str(again)).returncode == 0
    assert again.read_bytes() == edited.read_bytes()
    table = (folder / "cards.csv").read_text(encoding="utf-8")
    assert "[de] Schild" in table and "Boule de feu" in table  # into the table's own columns
    built = _donjon("build", "--content", str(folder), "--lang", "de", "--out", str(tmp_path / "out"))
    assert built.returncode == 0 and "[de] Schild" in _pdf_text(tmp_path / "out" / "decks" / "trilingual.pdf")


def test_a_translation_saved_by_excel_in_french_is_imported_or_refused_with_how_to_save_it(tmp_path: Path) -> None:
    """A translator opens the exported CSV in Excel set to French or German, which saves "CSV UTF-8" split by `;`:
    the import said its header row lacked every column it holds. It now reads the `;` (or a tab) from the header.
    Saved as plain "CSV" (the Windows code page), it said "not a UTF-8 CSV file ('utf-8' codec can't decode...)";
    it now names the line and says how to save it, as a deck's own table does."""
    import csv
    import io

    folder = _deck(tmp_path / "content")
    first = tmp_path / "t.csv"
    assert _donjon("content", "translations", "export", str(folder), "--out", str(first)).returncode == 0
    rows = _translated(list(csv.reader(io.StringIO(first.read_text(encoding="utf-8")))))
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=";", lineterminator="\r\n").writerows(rows)
    plain = tmp_path / "excel.csv"
    plain.write_bytes(buffer.getvalue().encode("cp1252"))  # "Fügt", "nächsten": bytes no UTF-8 text holds
    before = (folder / "cards.csv").read_bytes()
    refused = _donjon("content", "translations", "import", str(plain), str(folder))
    assert refused.returncode == 2 and "save it as \"CSV UTF-8\"" in refused.stderr, refused.stderr
    assert f"{plain}:" in refused.stderr and (folder / "cards.csv").read_bytes() == before
    excel = tmp_path / "excel-utf8.csv"
    excel.write_bytes(b"\xef\xbb\xbf" + buffer.getvalue().encode("utf-8"))
    result = _donjon("content", "translations", "import", str(excel), str(folder))
    assert result.returncode == 0, result.stderr
    assert "[de] Schild" in (folder / "cards.csv").read_text(encoding="utf-8")


@pytest.mark.parametrize("kind", ["csv", "yaml"])
def test_an_import_keeps_the_tables_crlf_line_endings(tmp_path: Path, kind: str) -> None:
    """A card table saved with Windows line endings (CRLF) keeps them when translations are imported into it: every
    line of the rewritten file ends in CRLF, none in a bare LF."""
    import csv
    import io

    folder = _deck(tmp_path / "content")
    if kind == "yaml":
        (folder / "cards.csv").unlink()
        (folder / "deck.yaml").write_text(DECK.replace("cards.csv", "cards.yaml"), encoding="utf-8")
        table = folder / "cards.yaml"
        table.write_bytes(b"- Name: Fireball\r\n  Name@de: Feuerball\r\n  Text: 'Deal 3 damage: fire!'\r\n"
                          b"- Name: Shield\r\n  Text: Block the next attack.\r\n")
    else:
        table = folder / "cards.csv"
        table.write_bytes(TABLE.replace("\n", "\r\n").encode("utf-8"))
    exported = tmp_path / "t.csv"
    assert _donjon("content", "translations", "export", str(folder), "--out", str(exported)).returncode == 0
    rows = list(csv.reader(io.StringIO(exported.read_text(encoding="utf-8"))))
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\n").writerows(_translated(rows))
    exported.write_text(buffer.getvalue(), encoding="utf-8")
    result = _donjon("content", "translations", "import", str(exported), str(folder))
    assert result.returncode == 0, result.stderr
    data = table.read_bytes()
    assert "[de] Schild".encode() in data
    assert data.count(b"\n") == data.count(b"\r\n") > 2 and data.endswith(b"\r\n"), data


def test_the_translations_spreadsheet_round_trips_as_xlsx_and_po(tmp_path: Path) -> None:
    from babel.messages.pofile import read_po, write_po
    from openpyxl import Workbook, load_workbook

    folder = _deck(tmp_path / "content")
    sheet = tmp_path / "t.xlsx"
    assert _donjon("content", "translations", "export", str(folder), "--out", str(sheet)).returncode == 0
    book = load_workbook(sheet)
    rows = [[str(c or "") for c in row] for row in book.worksheets[0].iter_rows(values_only=True)]
    edited = Workbook()
    for row in _translated(rows):
        edited.worksheets[0].append(row)
    edited.save(tmp_path / "edited.xlsx")
    assert _donjon("content", "translations", "import", str(tmp_path / "edited.xlsx"), str(folder)).returncode == 0
    assert _donjon("content", "translations", "export", str(folder), "--out", str(tmp_path / "again.xlsx")
                   ).returncode == 0
    again = [[str(c or "") for c in row]
             for row in load_workbook(tmp_path / "again.xlsx").worksheets[0].iter_rows(values_only=True)]
    assert again == _translated(rows)
    # the same rows give the same bytes (no time of writing in the file)
    assert _donjon("content", "translations", "export", str(folder), "--out", str(tmp_path / "third.xlsx")
                   ).returncode == 0
    assert (tmp_path / "third.xlsx").read_bytes() == (tmp_path / "again.xlsx").read_bytes()

    po = tmp_path / "es.po"
    assert _donjon("content", "translations", "export", str(folder), "--out", str(po), "--lang", "es").returncode == 0
    with po.open("rb") as stream:
        catalog = read_po(stream)
    for message in catalog:
        if message.id:
            message.string = f"[es] {message.id}"
    with (tmp_path / "edited.po").open("wb") as stream:
        write_po(stream, catalog, width=0)
    (tmp_path / "edited.po").write_text(undated((tmp_path / "edited.po").read_text(encoding="utf-8")), encoding="utf-8")
    assert _donjon("content", "translations", "import", str(tmp_path / "edited.po"), str(folder)).returncode == 0
    assert _donjon("content", "translations", "export", str(folder), "--out", str(tmp_path / "again.po"),
                   "--lang", "es").returncode == 0
    assert (tmp_path / "again.po").read_bytes() == (tmp_path / "edited.po").read_bytes()
    assert "Name@es" in (folder / "cards.csv").read_text(encoding="utf-8")


def test_an_import_that_names_what_is_not_there_changes_nothing(tmp_path: Path) -> None:
    folder = _deck(tmp_path / "content")
    before = (folder / "cards.csv").read_bytes()
    bad = tmp_path / "bad.csv"
    bad.write_text("deck,card,column,language,source,translation,status\n"
                   "trilingual,001-fireball,Name,fr,Fireball,Boule,translated\n"
                   "trilingual,009-nothing,Name,fr,Nothing,Rien,translated\n"
                   "other,001-fireball,Name,fr,Fireball,Boule,translated\n", encoding="utf-8")
    result = _donjon("content", "translations", "import", str(bad), str(folder))
    assert result.returncode == 1
    assert "bad.csv:3: card: '009-nothing' is no card of the deck 'trilingual'" in result.stderr
    assert "bad.csv:4: deck: 'other' is no deck of this content folder" in result.stderr
    assert (folder / "cards.csv").read_bytes() == before


def test_a_layouts_words_keep_their_markup_and_escape_the_cards() -> None:
    """`_()` in a layout: the layout's own words keep their markup, the values filled in print as card data
    (escaped), and nothing is looked up in them (no attribute or index: a message cannot reach into a value)."""
    from generator.layout.templates import compile_template, translators

    french = translators(language("fr"))
    fast = compile_template("{{ _('Contents') }} · {{ name }}")
    assert fast.simple and fast.names == frozenset({"name"})  # no jinja2 for a word
    assert fast.render({**french, "name": "**x**"}) == "Sommaire · \\*\\*x\\*\\*"
    full = compile_template("{{ _('**{who}** {thing.__class__}', who=name, thing=name) }}")
    assert full.render({**translators(language()), "name": "[colour=red]"}) == "**\\[colour=red]** {thing.__class__}"
    plural = compile_template("{{ ngettext('{n} rope on the crane', '{n} ropes on the crane', count) }}")
    assert plural.render({**french, "count": 2}) == "2 cordes sur la grue"
    assert plural.render({**translators(language("de")), "count": 1}) == "1 Seil am Kran"


def test_a_sheet_layouts_name_and_the_reasons_of_its_needs_are_extracted() -> None:
    """A sheet layout's `name` (said in a filled sheet's messages) and each `why` of its fields' `needs` (said beside
    an unticked box, or a photo's marks the rules rule out) are messages, as its `words` are; what a need names
    (fields, numbers) is not, nor a `name` below the top."""
    import io

    from generator.i18n.extract import extract_layout

    layout = b"""name: bee sheet
words: {hives: Hives}
fields:
  honey: {type: number, needs: {field: hives, why: "honey comes from a hive (1 Bees)"}}
  wax:
    type: count
    needs:
      - {fields: [hives], at-least: 2, why: "wax takes two hives (1 Wax)"}
parts: {top: {name: not a message, kind: text}}
"""
    found = [(line, message) for line, _, message, _ in extract_layout(io.BytesIO(layout), {}, [], {})]
    assert found == [(1, "bee sheet"), (2, "Hives"), (4, "honey comes from a hive (1 Bees)"),
                     (8, "wax takes two hives (1 Wax)")]


def test_the_companion_can_choose_a_language_per_request() -> None:
    """Phase 2 will serve each phone in its language: the choice is a function of the request's header."""
    from generator.i18n import negotiate

    assert negotiate("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7") == "fr"
    assert negotiate("de-AT,en;q=0.5") == "de"
    assert negotiate("es, it;q=0.9, de;q=0.2") == "de"
    assert negotiate("es, it") == "en" and negotiate(None) == "en" and negotiate(";;q=x,,*") == "en"
    assert negotiate("en;q=0.1, fr;q=0.9") == "fr" and negotiate("fr;q=0") == "en"
    assert language("de").format("Guest of floor {n}", n=1234) == "Gast von Stockwerk 1.234"
    assert language("fr").nformat("{n} card", "{n} cards", 2) == "2 cartes"


def test_end_states_name_entries_in_every_language_the_catalog_holds(tmp_path: Path) -> None:
    """The one name normaliser reads the catalogs' translated names: a French castle sheet names its guests in
    French, a German Guildhall table its professions and colours in German, and both score as the English files."""
    import json

    castle = (REPO / "content" / "examples" / "once-upon-a-castle.yaml").read_text(encoding="utf-8")
    french = castle.replace("[queen, jester, shepherdess, king]", "[Reine, bouffon, Bergère, ROI]").replace(
        "[princess, merchant]", "[Princesse, Marchand]").replace("version: great-architect",
                                                                 "version: Grands Architectes")
    guildhall = (REPO / "content" / "examples" / "guildhall.yaml").read_text(encoding="utf-8")
    german = guildhall.replace("bricklayer: [red, blue]", "Maurer: [rot, blau]").replace(
        "Tax Collector: [red, blue, purple]", "Steuereintreiber: [Rot, Blau, Lila]").replace(
        "peddler: [red, blue, green, yellow]", "Hausierer: [red, blue, grün, gelb]")
    for name, original, translated in (("castle", castle, french), ("guildhall", guildhall, german)):
        assert translated != original
        scores: list[list[tuple[str, int, object]]] = []
        for text in (original, translated):
            path = tmp_path / f"{name}-{len(scores)}.yaml"
            path.write_text(text, encoding="utf-8")
            result = _donjon("score", str(path), "--json")
            assert result.returncode == 0, result.stderr
            scores.append([(p["name"], p["score"], p["breakdown"]) for p in json.loads(result.stdout)["players"]])
        assert scores[0] == scores[1], name


HYPHENATED = """\
background: "#ffffff"
styles:
  body: {{font: cardo, size: 10pt, min_size: 10pt, colour: "#000000", {style}}}
boxes:
  body: {{kind: text, x: 5mm, y: 5mm, width: 30mm, height: 60mm, style: body, text: "{{{{ text }}}}"}}
"""


@pytest.mark.parametrize(("style", "code", "own", "wanted"), [
    ("hyphenate: true", "en", True, "en_GB"),       # asked without a language: the one drawn in
    ("hyphenate: true", "fr", True, "fr_FR"),
    ("hyphenate: true", "de-AT", False, "de_DE"),   # a region takes its language's dictionary
    ("hyphenate: true", "es", False, None),         # a language with no dictionary: no word broken
    ("language: en", "fr", True, "en_GB"),          # the deck's own text: the style's language
    ("language: en", "fr", False, "fr_FR"),         # translated with --lang: the language drawn in
    ("language: en, hyphenate: false", "fr", False, None),
    ("align: left", "fr", False, None),             # a style that asks for no hyphenation gets none
])
def test_hyphenation_follows_the_language_drawn_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, style: str,
                                                   code: str, own: bool, wanted: str | None) -> None:
    """The dictionary words are hyphenated with: a style's `language` for its deck's own text, the language the
    card is drawn in for text translated by `--lang` and for a style that asks to hyphenate without naming one."""
    from generator.layout.draw import DeckView, draw, subject
    from generator.layout.load import clear_cache, load_layout
    from generator.render import text as text_module

    asked: list[str] = []
    real = text_module.hyphens

    def spy(language: str, spacing: float = 0.0) -> text_module.Hyphens:
        asked.append(language)
        return real(language, spacing)

    monkeypatch.setattr(text_module, "hyphens", spy)
    clear_cache()  # loaded layouts are cached by file
    (tmp_path / "layout.yaml").write_text(HYPHENATED.format(style=style), encoding="utf-8")
    card = load_layout("layout.yaml", tmp_path)
    deck = DeckView("deck", "Deck", "game", "Game", 1)
    what = subject({"text": "Extraordinairement courageux chevaliers"}, None, deck, {}, "test card", folder=tmp_path,
                   lang=language(code), own_language=own)
    draw(card, what, 180.0, 250.0, 0.0)
    assert set(asked) == ({wanted} if wanted else set())


def test_the_rules_messages_in_every_language() -> None:
    """The rules' messages in the language asked for (the table's), their paths as the file writes them; English
    as before. Every game: a broken castle, Guédelon and Guildhall end state."""
    from scoring.engine import Scorer

    scorer = Scorer()
    castle = {"game": "once-upon-a-castle", "version": "great-architect", "sheets": [
        {"player": "Ana", "donjon_floors": 1, "towers": [5], "walls": [], "sun": True, "residents": 3,
         "guests": ["queen"]},
        {"player": "Ben", "donjon_floors": 1, "towers": [2], "walls": [], "residents": 2, "guests": ["queen"]}]}
    guedelon = {"game": "guedelon", "players": 9, "rounds": 3, "events": "easy", "built": ["A1"]}
    guildhall = {"game": "guildhall", "vp_set": "old-world-economy", "players": [
        {"name": "Ana", "guildhall": {}, "vp_tokens": -1, "vp_cards": [], "completed_chapters": 0},
        {"name": "Ana", "guildhall": {}, "vp_tokens": 0, "vp_cards": [], "completed_chapters": 0}]}
    broken = {code: {game["game"]: scorer.score(game, language(code)).violations
                     for game in (castle, guedelon, guildhall)} for code in ("en", "fr", "de")}
    # every message ends with its rulebook section, as the rulebook names it whatever the language: said apart
    assert all(v.source and v.message.endswith(f" [{v.source}]") for games in broken.values()
               for violations in games.values() for v in violations)
    said = {code: {game: [(v.where, v.message.removesuffix(f" [{v.source}]")) for v in violations]
                   for game, violations in games.items()} for code, games in broken.items()}
    assert ("sheets[0].sun", "is drawn with 1 tower; the Sun needs 4") in said["en"]["once-upon-a-castle"]
    assert ("sheets[0].sun", "est dessiné avec 1 tour\u202f; le Soleil en demande 4") in said["fr"]["once-upon-a-castle"]
    assert ("sheets[0].sun", "ist mit 1 Turm gezeichnet; die Sonne braucht 4") in said["de"]["once-upon-a-castle"]
    assert ("players", "vaut 9\u202f; Guédelon se joue de 1 à 4") in said["fr"]["guedelon"]
    assert ("built[0]", "A1 ist gebaut, aber A0 darunter nicht; ein Gebäude wächst ab Stockwerk 0 ein Stockwerk "
                        "nach dem anderen") in said["de"]["guedelon"]
    assert ("players[1].name",
            "«\u202fAna\u202f» est aussi le nom de players[0]\u202f; les noms doivent être uniques") in \
        said["fr"]["guildhall"]
    # a catalog's names in the message's language, as the table's pages show them (not the English Queen, nor
    # the ids of Guildhall's professions and colours)
    cases = REPO / "tests" / "scoring" / "cases" / "guildhall"
    for case, where, french, german in (
            ("rule1-five-players.yaml", "players[4].guildhall.hunter", "contient Chasseur Rouge, ce qui",
             "enthält Jäger in Rot, was"),
            ("rule6-deck-overflow.yaml", "players", "(Érudit 4 et Percepteur 4)",
             "(Gelehrter 4 und Steuereintreiber 4)")):
        for code, words in (("fr", french), ("de", german)):
            messages = [v.message for v in scorer.score(cases / case, language(code)).violations if v.where == where]
            assert any(words in m for m in messages), (code, messages)
    assert ("sheets[1].guests[0]", "Reine est déjà chez Ana (sheets[0].guests[0])\u202f; il y a une carte de "
                                   "chaque invité") in said["fr"]["once-upon-a-castle"]
    assert ("sheets[1].guests[0]", "Königin ist schon in der Burg von Ana (sheets[0].guests[0]); es gibt eine Karte "
                                   "je Gast") in said["de"]["once-upon-a-castle"]
    for code in ("fr", "de"):  # the same rules broken at the same places, in other words
        for game, found in said[code].items():
            assert [w for w, _ in found] == [w for w, _ in said["en"][game]]
            assert all(m not in dict(said["en"][game]).values() for _, m in found)


def test_guedelon_names_the_mill_as_the_file_writes_it_in_every_language() -> None:
    """Guédelon's rule 3 put an article of the message's language before the Mill's name in the file's: "names the
    Mühle", "nomme le Mühle". A name in the message's language reads as the message's own words (the Mill, le
    Moulin, die Mühle); a name in another stands bare, as written, beside the message's word for the Mill."""
    from scoring.engine import Scorer

    scorer = Scorer()

    def said(lang: str, mill: str | None, written: str) -> str:
        state = {"game": "guedelon", "players": 2, "events": "easy", "rounds": 12, "built": ["A0", written]}
        if mill is not None:
            state["mill"] = mill
        return next(v.message.removesuffix(f" [{v.source}]") for v in scorer.score(state, language(lang)).violations
                    if v.where == "built[1]")

    assert said("en", None, "Mühle") == "names Mühle, but the Mill was not in play (mill: false)"
    assert said("en", None, "mill") == "names the Mill, but the Mill was not in play (mill: false)"
    assert said("en", "not-built", "Moulin") == "names Moulin, but mill: not-built says the Mill was not built"
    assert said("fr", None, "Mühle") == f"nomme Mühle, mais le Moulin n’était pas en jeu (mill{NBSP}: false)"
    assert said("fr", None, "Moulin") == f"nomme le Moulin, mais le Moulin n’était pas en jeu (mill{NBSP}: false)"
    assert said("fr", "not-built", "mill") == \
        f"nomme mill, mais mill{NBSP}: not-built dit que le Moulin n’a pas été construit"
    assert said("de", "not-built", "Moulin") == "nennt Moulin, aber mill: not-built sagt, dass die Mühle nicht " \
                                                "gebaut wurde"
    assert said("de", "not-built", "Mühle") == "nennt die Mühle, aber mill: not-built sagt, dass sie nicht gebaut " \
                                               "wurde"


#: End states whose checks rest on every kind of source a shipped catalog or donjon's rules give: Old World Economy's
#: derived copies (a violation citing its derivation), Job Faire's inferred ones, the castle's tower, flag, resident
#: and Apprentice values and the missing end Cloud, Guédelon's house split of the tiles and an old `mill: true`,
#: and Yucata's last turn.
RESTING_ON = (
    {"game": "guildhall", "vp_set": "old-world-economy", "players": [
        {"name": "Ana", "guildhall": {}, "completed_chapters": 0, "vp_cards": [9, 9, 9], "vp_tokens": 0},
        {"name": "Ben", "guildhall": {}, "completed_chapters": 0, "vp_cards": [], "vp_tokens": 0}]},
    {"game": "guildhall", "vp_set": "job-faire", "variant": "yucata", "players": [
        {"name": "Ana", "guildhall": {}, "completed_chapters": 4, "vp_cards": [9, 9, 9], "vp_tokens": 0},
        {"name": "Ben", "guildhall": {}, "completed_chapters": 0, "vp_cards": [], "vp_tokens": 0}]},
    {"game": "once-upon-a-castle", "version": "great-architect", "sheets": [
        {"player": "Ana", "donjon_floors": 1, "towers": [3], "walls": [{"flags": [3]}], "residents": 40,
         "guests": ["queen"]}]},
    {"game": "once-upon-a-castle", "version": "apprentice", "sheets": [
        {"player": "Ana", "donjon_floors": 1, "towers": [], "walls": [], "resident_points": 3, "guests": [40]}]},
    {"game": "guedelon", "players": 2, "events": "easy", "mill": True, "rounds": 18, "built": "all"},
    {"game": "guedelon", "players": 2, "events": "easy", "rounds": 18,
     "built": ["A0", "B0", "C0", "C1", "C2", "C3", "D0", "D1", "D2", "D3", "D4", "F0", "F1", "F2", "F3", "F4"]},
)


@pytest.mark.parametrize("code", ["fr", "de"])
def test_what_a_check_rests_on_is_said_in_the_tables_language(code: str) -> None:
    """A warning's source, and the derivation a violation resting on a derived count cites, are in the language of
    the messages around them: a French table read 'vaut 3 ; une tour vaut 2 ou 5' followed by 'Julie's Game School
    review of the game: towers are drawn worth...' in English, from the catalog's own words."""
    from scoring.engine import Scorer

    scorer = Scorer()
    english: list[str] = []
    other: list[str] = []
    for state in RESTING_ON:
        for said, lang in ((english, language("en")), (other, language(code))):
            result = scorer.score(state, lang)
            said.extend(w.source for w in result.warnings)
            # the derivation after "; H: " (French: "\u202f; H\u00a0: ")
            said.extend(re.split("\u202f?; H\u00a0?: ", v.message)[-1] for v in result.violations
                        if re.search("\u202f?; H\u00a0?: ", v.message))
    assert len(english) == len(other) >= 12
    assert [source for source in other if source in english] == []
    assert len(set(other)) == len(set(english))


def test_the_clauses_donjon_joins_are_typeset_as_french_writes_them() -> None:
    """French sets a narrow no-break space before `;` and a no-break space before `:`, in the clauses donjon joins
    as in its messages: Guédelon's summary read "1 tour d'avance; Moulin : construit", a violation's citation
    "Smaller Games; H: 30 cartes"; German and English as they were."""
    from scoring.engine import Scorer

    scorer = Scorer()
    guedelon = REPO / "content" / "examples" / "guedelon.yaml"
    assert scorer.score(guedelon, language("fr")).summary.endswith("d’avance\u202f; Moulin\u00a0: construit")
    assert scorer.score(guedelon, language("de")).summary.endswith("Vorsprung; Mühle: gebaut")
    guildhall = next(state for state in RESTING_ON if state["game"] == "guildhall")
    cited = {code: next(v.message for v in scorer.score(guildhall, language(code)).violations if "Smaller" in v.message)
             for code in ("fr", "en")}
    assert "Smaller Games\u202f; H\u00a0: 30 cartes" in cited["fr"]
    assert "Smaller Games; H: 30 cards" in cited["en"]
    from scoring.table import warning_lines

    castle = {"game": "once-upon-a-castle", "version": "great-architect",
              "sheets": [{"player": "Ana", "donjon_floors": 0, "towers": [5], "walls": [], "guests": []}]}
    warned = {code: scorer.score(castle, language(code)) for code in ("fr", "en")}
    lines = {code: [warning_lines(result, w, language(code)) for w in result.warnings]
             for code, result in warned.items()}
    assert len(lines["fr"]) == 1 and " [L\u00a0: 004 Fin de la partie\u00a0: " in lines["fr"][0]
    assert " [L: 004 End of the game: " in lines["en"][0]


#: End states breaking rules whose citations hold donjon's own words beside the rulebooks' section titles: what a
#: section holds (`(4 personal boards, 4 sets of tokens)`), and the format's rule on players' names.
GLOSSED = (
    {"game": "guildhall", "vp_set": "job-faire", "players": [
        {"name": "Ana", "guildhall": {}, "completed_chapters": 0, "vp_cards": [], "vp_tokens": 0},
        {"name": "ana", "guildhall": {}, "completed_chapters": 0, "vp_cards": [], "vp_tokens": 0},
        {"name": "Cy", "guildhall": {}, "completed_chapters": 0, "vp_cards": [], "vp_tokens": 0},
        {"name": "Di", "guildhall": {}, "completed_chapters": 0, "vp_cards": [], "vp_tokens": 0},
        {"name": "Ed", "guildhall": {}, "completed_chapters": 0, "vp_cards": [], "vp_tokens": 0}]},
    {"game": "once-upon-a-castle", "version": "great-architect", "sheets": [
        {"player": name, "donjon_floors": 1, "towers": [-2], "walls": [], "sun": True, "cloud": True,
         "residents": 1, "resident_points": 1, "guests": ["queen"]} for name in ("Ana", "Ana", "Ben", "Cy", "Di")]},
    {"game": "guedelon", "players": 5, "events": "easy", "rounds": 5, "built": ["A0", "A9"]},
)


@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_violation_cites_its_section_in_the_tables_language(code: str) -> None:
    """A violation cites the rulebook section it comes from by the rulebook's own title, and donjon's words beside
    it in the table's language: a French table read '[end-states.md: each player is named, once]' and '[004 Game
    components (4 personal boards, 4 sets of tokens)]' in English after a French message."""
    from scoring.engine import Scorer

    scorer = Scorer()
    glossed = 0
    for state in GLOSSED:
        english = scorer.score(state, language("en")).violations
        other = scorer.score(state, language(code)).violations
        assert [(v.where, v.rule) for v in english] == [(v.where, v.rule) for v in other]
        for said, told in zip(english, other, strict=True):
            cited, in_other = said.message.rsplit(" [", 1)[1], told.message.rsplit(" [", 1)[1]
            if "(" in cited or "end-states.md" in cited:
                glossed += 1
                assert in_other != cited, told.message
            assert in_other.startswith(cited[:3])  # the rulebook's number (or the format's file) stays
    assert glossed >= 8


def test_every_source_the_checks_rest_on_is_listed_for_translation(shipped: Content) -> None:
    """The sources of the catalog values the scorer checks (scoring.sources) are the shipped catalogs' own words:
    a source edited in a catalog and not in the list would be shown in English again to a French table."""
    from scoring.sources import CATALOG_SOURCES

    # each game's own catalog type (the content holds them as the protocol every catalog meets)
    castle, guildhall, guedelon = (cast(Any, shipped.game(game))
                                   for game in ("once-upon-a-castle", "guildhall", "guedelon"))
    sheet = castle.sheet
    bases = [sheet.tower_values.provenance.of("values"), sheet.flag_values.provenance.of("values"),
             sheet.resident_track.provenance.of("groups"), sheet.apprentice_guest_vp.provenance.of("min"),
             sheet.apprentice_guest_vp.provenance.of("max")]
    bases += [card.provenance.of(field) for s in guildhall.sets for card in guildhall.vp_cards_of(s.id)
              for field in ("value", "copies", "removed_in_small_game")]
    bases += [building.provenance.of("floors") for building in guedelon.buildings]
    sources = {basis.source for basis in bases if basis is not None}
    assert sources and sorted(sources - set(CATALOG_SOURCES)) == []


def test_french_messages_keep_french_typography() -> None:
    """Every French message is written as French prints it (issue 26 item 6): a no-break space before `:`, a narrow
    one before `; ! ?` and inside « », and the apostrophe ’, so the companion's pages (which show a message as
    written) and the printed outputs (which typeset it again) agree. A translation typed with a plain space, or none,
    before those marks fails here, naming the message."""
    from generator.i18n.catalogs import po_files, read
    from generator.i18n.typography import typeset

    wrong = []
    for message in read(po_files()["fr"]):
        said = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in said:
            if message.id and text and (typeset("fr", text) != text or re.search(r"« |«(?!\u202f)|(?<!\u202f)»", text)):
                wrong.append(f"{message.id!r}: {text!r}")
    assert not wrong, "\n".join(wrong)


def test_an_unreadable_state_is_said_in_every_language() -> None:
    """What keeps an end state from being read (a wrong type, a number out of range, an unknown name) in the
    table's language, at the same paths; English exactly as before."""
    from generator.errors import InputError
    from scoring.engine import Scorer

    state = {"game": "once-upon-a-castle", "version": "great-architect", "sheets": [
        {"player": "Ana", "donjon_floors": "two", "towers": [5], "walls": [], "sun": "yes", "guests": ["Quene"]}]}
    said = {}
    for code in ("en", "fr", "de"):
        with pytest.raises(InputError) as caught:
            Scorer().score(state, language(code))
        said[code] = [(p.where, p.message) for p in caught.value.problems]
    assert ("sheets[0].sun", "expected true or false, got 'yes' (text)") in said["en"]
    assert ("sheets[0].sun",
            "oui ou non est attendu ici (true ou false), pas «\u202fyes\u202f» (du texte)") in said["fr"]
    assert ("sheets[0].donjon_floors", "hier gehört eine ganze Zahl hin, nicht „two“ (Text)") in said["de"]
    guest = "invité inconnu\u00a0: «\u202fQuene\u202f» (vouliez-vous dire «\u202fqueen\u202f»\u202f?)"
    assert any(m.startswith(guest) for _, m in said["fr"])
    for code in ("fr", "de"):
        assert [w for w, _ in said[code]] == [w for w, _ in said["en"]]
        assert not set(dict(said[code]).values()) & set(dict(said["en"]).values())


def test_help_imports_no_translation_machinery() -> None:
    """`donjon --help` (the start-up benchmark's first target) loads neither Babel nor any of donjon's language
    modules: the languages cost nothing until a command draws or scores something."""
    script = ("import sys\nfrom generator.cli import app\n"
              "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
              "print('LOADED', sorted(m for m in sys.modules if m == 'babel' or m.startswith(('babel.', "
              "'generator.i18n', 'generator.catalog.translations'))))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert "LOADED []" in result.stdout, result.stdout + result.stderr


@pytest.mark.parametrize(("code", "table", "warned"), [
    ("es", TABLE, True),  # a language nobody holds: said, and built all the same
    ("sp", TABLE, True),  # the typo
    ("fr-CA", TABLE, False),  # donjon's French
    ("es", "Name,Name@es\nFireball,Bola de fuego\n", False),  # the deck holds it
])
def test_a_language_nobody_holds_is_said_on_stderr(tmp_path: Path, code: str, table: str, warned: bool) -> None:
    folder = _deck(tmp_path / "content", table)
    result = _donjon("build", "--content", str(folder), "--lang", code, "--format", "svg", "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    said = f"warning: --lang {code}: donjon has no words in {code!r} (it has en, fr, de)"
    assert (said in result.stderr) is warned, result.stderr
    assert (tmp_path / "o" / "decks" / "trilingual" / "svg" / "001-fireball.svg").is_file()


@pytest.mark.parametrize("command", [
    ["reference", "guedelon"],
    ["preview", "--content", "{deck}"],
    ["export", "png", "--content", "{deck}", "--dpi", "72"],
    ["export", "--service", "tgc", "--content", "{deck}"],
])
def test_every_command_taking_lang_says_when_nobody_holds_it(tmp_path: Path, command: list[str]) -> None:
    """`--lang sp` (the typo of es) on a reference, a preview or an export: written in English, and said so on
    stderr as the build says it; the three wrote English without a word."""
    folder = _deck(tmp_path / "content")
    args = [part.format(deck=folder) for part in command]
    result = _donjon(*args, "--lang", "sp", "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    assert "warning: --lang sp: donjon has no words in 'sp' (it has en, fr, de)" in result.stderr, result.stderr
    french = _donjon(*args, "--lang", "fr", "--out", str(tmp_path / "fr"))
    assert french.returncode == 0 and "warning: --lang" not in french.stderr, french.stderr


@pytest.mark.parametrize(("code", "cards", "said"), [
    ("fr", 1, "1 carte, 1 différente ·"),
    ("de", 1, "1 Karte, 1 Motiv ·"),
    ("de", 2, "2 Karten, 2 Motive ·"),
])
def test_the_preview_counts_the_different_cards_in_each_languages_plural_forms(tmp_path: Path, code: str,
                                                                               cards: int, said: str) -> None:
    """A deck of one card in the French preview: "1 carte, 1 différente", not the plural "1 différentes"; German
    counts different cards as designs (Motive), one or more: it said "1 verschiedene" for both forms."""
    rows = "".join(f"Card {n},Deal {n} damage.\n" for n in range(1, cards + 1))
    folder = _deck(tmp_path / "content", "Name,Text\n" + rows)
    result = _donjon("preview", "--content", str(folder), "--lang", code, "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "o" / "preview" / "index.html").read_text(encoding="utf-8")
    assert said in page, page[:3000]


@pytest.mark.parametrize("code", ["sp", "xx", "de-XX"])
def test_a_language_code_no_locale_knows_prints_numbers_as_its_base_or_english(tmp_path: Path, code: str) -> None:
    """A well-formed code no locale data holds (`sp`, a typo of es; `xx`; German of a region that is not one) is
    written with the numbers and dates of its base language where there is one, else English's: a deck's sheets
    (whose page lines count pages) and a reference build, never an internal error (exit 4)."""
    base = {"de-XX": "1.234,5"}.get(code, "1,234.5")
    assert language(code).number(1234.5) == base
    for args in (["build", "guedelon/events", "--format", "pdf"], ["reference", "guedelon"]):
        result = _donjon(*args, "--lang", code, "--out", str(tmp_path / "o"))
        assert result.returncode == 0, result.stderr
        assert "internal error" not in result.stderr


@pytest.mark.parametrize("command", [["export", "png"], ["export", "tts"], ["export", "--service", "dtc", "--decks"]])
def test_exports_say_a_language_nobody_holds_as_the_build_does(tmp_path: Path, command: list[str]) -> None:
    """`--lang es` on an export of a deck that does not hold it: said on stderr as `donjon build` says it, and
    exported all the same (in English)."""
    folder = _deck(tmp_path / "content", TABLE)
    result = _donjon(*command, "trilingual", "--content", str(folder), "--lang", "es", "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    assert "warning: --lang es: donjon has no words in 'es' (it has en, fr, de)" in result.stderr, result.stderr


ONE_OF_EACH = """game: once-upon-a-castle
version: great-architect
sheets:
  - player: Ana
    donjon_floors: 1
    towers: [2]
    walls: [{flags: []}]
    cloud: true
    residents: 0
    guests: []
"""


@pytest.mark.parametrize(("code", "parts"), [
    ("en", "(1 floor, 1 tower, 1 wall)"),
    ("fr", "(1 étage, 1 tour, 1 rempart)"),
    ("de", "(1 Stockwerk, 1 Turm, 1 Mauer)"),
])
def test_the_end_clouds_parts_are_counted_in_each_languages_plural_forms(tmp_path: Path, code: str,
                                                                          parts: str) -> None:
    """Rule 3's list of parts: one part of each, not "1 walls" (nor the dative "1 Türmen" of the Sun's message)."""
    from scoring.engine import shared_scorer

    game = tmp_path / "castle.yaml"
    game.write_text(ONE_OF_EACH, encoding="utf-8")
    messages = [v.message for v in shared_scorer(None).score(game, lang=language(code)).violations]
    assert any(parts in m for m in messages), messages
    if code == "en":  # and so on the command line
        result = _donjon("score", str(game))
        assert result.returncode == 1 and "is drawn with 3 of the 12 parts (1 floor, 1 tower, 1 wall)" in result.stdout


def test_french_never_writes_de_before_a_name_it_does_not_know() -> None:
    """French elides "de" before a vowel ("la partie d’Amélie", "une partie d’Oh mon château"), and a player's or a
    game's name is not known when the message is written: so a French message never puts "de" or "du" right before
    a name filled in at run time; it says it another way ("Nouvelle partie : {game}", "{name} : saisir sa partie")."""
    from generator.i18n.catalogs import po_files, read

    names = r"\{(?:name|game|set|mill|guest|player|context|deck|title|label)\}"
    wrong = []
    for message in read(po_files()["fr"]):
        said = message.string if isinstance(message.string, tuple) else (message.string,)
        wrong += [f"{message.id!r}: {text!r}" for text in said if re.search(rf"\b[Dd](?:e|u) {names}", text or "")]
    assert not wrong, "\n".join(wrong)
