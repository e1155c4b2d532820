"""What a sheet read says, in lines of text (generator/sheets/summary.py): the fields to check first, each with why
and what to do, then the sheet row by row, the rows under an item (a wall's flags) said inside it, so that a phone
shows what was read without panning the photo."""

from __future__ import annotations

from typing import NamedTuple

from generator.sheets.marks import MarkMap, interpret
from generator.sheets.summary import said, value_words, words
from tests.sheets.helpers import sheet


class Doubt(NamedTuple):
    field: str
    why: str
    code: str = ""


def scan_map(version: str) -> MarkMap:
    found = sheet(version, "a4", "scan").map
    assert found is not None
    return found


def states_for(the_map: MarkMap, filled: dict[str, set[object]]) -> list[bool | None]:
    return [(f"{m.digit} {m.value}" if m.digit else m.value) in filled.get(m.field, set()) for m in the_map.marks]


def test_a_castle_read_row_by_row_with_the_field_to_check_first() -> None:
    the_map = scan_map("great-architect")
    states = states_for(the_map, {"towers[0]": {"built", "units 5"}, "towers[1]": {"built", "units 2", "units 4"},
                                  "walls[0]": {True}, "walls[0].flags[0]": {2}, "walls[2].flags[1]": {1},
                                  "donjon_floors": {1, 2}, "guests": {"queen"}})
    reading = interpret(the_map, states)
    lines = said(the_map, reading.values, reading.uncertain)
    doubts = [(line.label, line.why, line.advice) for line in lines if line.why]
    assert doubts == [
        ("towers #2", "the units 2 and 4 are both filled; a digit takes one value",
         "Two values are filled where one counts: keep the one that counts (tap the other away)."),
        # read against the rules: both fields are asked about, the flag and its wall
        *((label, "walls[2].flags[1] is 1 but walls[2] is empty: a flag stands on a built wall (004 Flags)",
           "What was read cannot be by the rules, so a mark was misread or forgotten: look at the sheet and set it.")
          for label in ("walls #3 flags #2", "walls #3"))]
    assert [(line.label, line.text) for line in lines if not line.why] == [
        ("sun", "no"), ("cloud", "no"), ("sky clouds", "0"), ("towers", "5, ?, –, –"),
        ("walls", "yes (flags 2), no, ? (flags –, ?), no"), ("donjon floors", "2"), ("residents", "0"),
        ("guests", "queen")]
    # a value a person gave settles the row, and stays on the line of the field to check
    given = interpret(the_map, states, {"towers[1]": "4"})
    settled = said(the_map, given.values, reading.uncertain, {"towers[1]": "4"})
    assert ("towers", "5, 4, –, –") in [(line.label, line.text) for line in settled]
    assert settled[0].given == "4" and settled[1].given == ""


def test_an_apprentice_castle_and_the_readers_own_codes() -> None:
    the_map = scan_map("apprentice")
    reading = interpret(the_map, states_for(the_map, {"guests[0]": {3}, "guests[1]": {7}}))
    rows = {line.label: line.text for line in said(the_map, reading.values, ())}
    assert rows["guests"] == "3, 7, –, –" and rows["towers"] == "–, –, –, –"
    # a reason the reader names by its code gets that code's advice, whatever its words
    coded = said(the_map, reading.values, [Doubt("sun", "something about the sun", "glare")])
    assert coded[0].advice.startswith("Light shone on these marks")


def test_words() -> None:
    assert words("donjon_floors") == "donjon floors" and words("walls[1].flags[0]") == "walls #2 flags #1"
    assert [value_words(v) for v in (None, True, False, [], ["a", "b"], 0, 12)] == [
        "–", "yes", "no", "none", "a, b", "0", "12"]


def test_what_was_read_in_the_phones_language() -> None:
    """The companion asks for the lines in the phone's language: the castle's field words, yes and no, and why a
    field is undecided (its reason's sentence, said after the field's label: it named the field again, the check
    page showing "tours #3 : tours #3 : deux valeurs remplies"); the advice is said where shown."""
    from generator.i18n import language

    the_map = scan_map("great-architect")
    states = states_for(the_map, {"towers[0]": {"built", "units 5"}, "towers[1]": {"built", "units 2", "units 4"},
                                  "walls[0]": {True}, "walls[0].flags[0]": {2}})
    reading = interpret(the_map, states)
    glare = Doubt("walls[2]", "glare over walls[2]", "glare")
    french = said(the_map, reading.values, [*reading.uncertain, glare], lang=language("fr"))
    assert [(line.label, line.why) for line in french if line.why] == [
        ("tours #2", "deux valeurs remplies"), ("remparts #3", "un reflet couvre ces cases")]
    rows = {line.label: line.text for line in french if not line.why}
    assert rows["remparts"] == "oui (drapeaux 2), non, ?, non" and rows["soleil"] == "non"
    german = said(the_map, reading.values, [glare], lang=language("de"))
    assert (german[0].label, german[0].why) == ("Mauern #3", "eine Spiegelung liegt über diesen Markierungen")
    assert words("donjon_floors", language("de")) == "Bergfried-Stockwerke"
    # a reason donjon has no words for stays as the reader said it rather than vanish
    odd = said(the_map, reading.values, [Doubt("sun", "something odd")], lang=language("fr"))
    assert odd[0].why == "something odd"


class RuleDoubt(NamedTuple):
    field: str
    why: str
    code: str
    rule: str


def test_every_reason_names_its_fields_first_in_french_and_german() -> None:
    """A reason over some fields (a photo's problems) names them first, as a label before a colon, in French and
    German ("remparts #3 : sous un reflet"): four reasons put them inside a sentence where the language wants an
    article ("un reflet couvre remparts #3", "eine Spiegelung liegt über Mauern #3"). The same reason said after its
    field's label (the check page's lines) does not name the field again, and a rule broken ends with the rule."""
    from generator.i18n import language
    from generator.sheets.photo_reasons import FIELD_CAUSES
    from generator.sheets.summary import why_said

    for code, colon in (("fr", "\u00a0: "), ("de", ": ")):
        lang = language(code)
        label = words("walls[2]", lang)
        for reason, sentence in FIELD_CAUSES.items():
            over = lang._(sentence).format(fields=label)
            assert over.startswith(label + colon), (code, reason, over)
            said_so = why_said(Doubt("walls[2]", f"something about walls[2] ({reason})", reason), lang)
            assert said_so and label not in said_so, (code, reason, said_so)
        broken = why_said(RuleDoubt("walls[2]", "walls[2] breaks a rule", "rules", "a rule"), lang)
        assert label not in broken and broken.endswith(colon + "a rule"), (code, broken)


def test_a_guest_is_said_by_its_name_in_the_pages_language_never_by_its_id() -> None:
    """The check page of a photo in French lists the guests read by their French names (the companion's own
    choices of the guest control, from the catalog in that language), not the catalog's ids."""
    from generator.i18n import language
    from generator.web.games import Games

    the_map = scan_map("great-architect")
    reading = interpret(the_map, states_for(the_map, {"guests": {"queen", "jester"}}))
    french = language("fr")
    names = Games().value_names("once-upon-a-castle", "great-architect", french)
    rows = {line.label: line.text for line in said(the_map, reading.values, (), lang=french, names=names)}
    guests = next(text for label, text in rows.items() if label == words("guests", french))
    queen, jester = names["guests"]["queen"], names["guests"]["jester"]
    assert queen != "queen" and jester != "jester"  # the catalog holds their French names
    assert set(guests.split(", ")) == {queen, jester}
    # without names (a sheet of one's own, a catalog that cannot load) the values stay as read
    plain = {line.label: line.text for line in said(the_map, reading.values, (), lang=french)}
    assert set(plain[words("guests", french)].split(", ")) == {"queen", "jester"}
    assert value_words(["queen"], french, {"queen": queen}) == queen


def test_the_check_page_of_marks_says_guests_by_name() -> None:
    """The companion's check page (marks ticked by the player) says the guests in the page's language."""
    from generator.i18n import language
    from generator.web.games import Games

    games, french = Games(), language("fr")
    the_map = scan_map("great-architect")
    filled = {i for i, mark in enumerate(the_map.marks) if mark.field == "guests" and mark.value == "queen"}
    _, _, review = games.sheet_from_marks("great-architect", the_map.paper, filled, {}, "", lang=french)
    queen = games.value_names("once-upon-a-castle", "great-architect", french)["guests"]["queen"]
    assert (words("guests", french), queen) in [(line.label, line.text) for line in review.lines]


def test_the_check_page_says_what_keeps_a_field_undecided_naming_it_once() -> None:
    """After the player taps the marks, the companion says what still keeps the sheet from being read with the
    field named once ("tours #2 : deux valeurs remplies"): a French or German reason starts with its field, and
    the field was put before it again ("tours #2 : tours #2 : deux valeurs remplies"). English keeps its form."""
    from generator.i18n import language
    from generator.web.games import Games

    games, the_map = Games(), scan_map("great-architect")
    states = states_for(the_map, {"towers[1]": {"built", "units 2", "units 4"}})
    filled = {i for i, state in enumerate(states) if state}
    said_in = {code: [p.replace("\u00a0", " ") for p in games.sheet_from_marks(
        "great-architect", the_map.paper, filled, {}, "", lang=language(code))[1]] for code in ("en", "fr", "de")}
    assert said_in["fr"] == ["tours #2 : deux valeurs remplies"], said_in
    assert said_in["de"] == ["Türme #2: zwei Werte ausgefüllt"], said_in
    assert len(said_in["en"]) == 1 and said_in["en"][0].startswith("towers[1]: the units 2 and 4 are both filled")
