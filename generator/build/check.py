"""The checks of `donjon content check` beyond the catalogs: every deck's layouts exist, load and suit its card
size, and every card draws, so a layout that reads a value its cards lack, or text that cannot fit, is reported
before anything is built (:func:`check_layouts`); and everything a build or an export would refuse about a deck
is reported too (:func:`check_outputs`): card ids whose files would meet, a name the page line cannot print,
a card no paper holds. A problem that repeats on many cards (a layout field every card lacks) is reported once,
with the first card and how many more.

`donjon content check` calls it after loading the catalogs, rather than registering it with
:func:`generator.catalog.add_check`: a registered check would run on every later `load_content` of the process,
so what loading accepts would depend on whether this module happened to be imported (and every load would
draw every card).
"""

from __future__ import annotations

from pathlib import Path

from generator.catalog.deck import Deck
from generator.content import Content
from generator.errors import ContentError, Problem
from generator.i18n import phrase, phrase_figure, phrase_n, phrase_number
from generator.sayings import quote
from generator.wording import visible


class PictureWarning(Problem):
    """What reading a picture noticed: said as the build says it (`FILE : ligne 3 : ...` in French)."""

    def __str__(self) -> str:
        from generator.build.decks import picture_warning

        return picture_warning(visible(self.file), visible(self.message))


def check_layouts(content: Content, warnings: list[Problem] | None = None) -> list[Problem]:
    """Every deck's layouts loaded and every card drawn (see the module's notes); then every picture and icon
    those use or declare drawn into a PDF as the build draws it (:func:`check_pictures`). What reading a picture
    noticed without refusing it goes to `warnings`."""
    from generator.build.decks import (
        DeckLayouts,
        back_drawing,
        deck_label,
        deck_origin,
        deck_view,
        face_drawing,
        pictures,
    )
    from generator.content import every_language
    from generator.layout.draw import CardFitError

    #: each problem once, by its place, with the cards it was met on (a deck's, in every language: one card)
    found: dict[tuple[str, int | None, str], tuple[Problem, dict[tuple[str, str], str]]] = {}
    #: each picture a drawing shows or a layout declares, with who shows it first (for messages)
    shown: dict[Path, str] = {}

    def note(problem: Problem, card: tuple[str, str] | None = None, name: str = "") -> None:
        # a layout's mistake met before any card is drawn (as each language's copy of the deck loads it) is
        # counted on no card: it said "(and 1 more card)" of a deck of three cards that has a second language
        key = (problem.file, problem.line, problem.where)
        first, cards = found.setdefault(key, (problem, {}))
        if card is not None:
            cards.setdefault(card, name)

    for deck in every_language(content):
        layouts = DeckLayouts(deck, deck_origin(content, deck))
        view = deck_view(deck)
        try:
            layouts.check()
            if not layouts.back().per_card:
                back_drawing(layouts.back(), deck, view, 0.0)
        except ContentError as err:
            for problem in err.problems:
                note(problem)
            continue
        except CardFitError as err:
            note(err.problem)
            continue
        for layout in layouts.loaded():
            for path in layout.icons.values():
                shown.setdefault(path, f"{deck_label(deck)}: the icon {path.stem!r}")
        for card in deck.cards:
            for side in ("face", "back"):
                try:
                    drawn = None
                    if side == "face":
                        drawn = face_drawing(layouts.face(card), deck, card, view, 0.0)
                    elif layouts.back(card).per_card:
                        drawn = back_drawing(layouts.back(card), deck, view, 0.0, card)
                    for path in sorted(pictures(drawn)) if drawn is not None else ():
                        shown.setdefault(path, f"{deck_label(deck)}: card {card.name!r}")
                except ContentError as err:
                    for problem in err.problems:
                        note(problem, (deck.key, card.id), card.name)
                except CardFitError as err:
                    note(err.problem, (deck.key, card.id), card.name)
    out = []
    for first, cards in found.values():
        # the other cards by name (a picture missing for one is likely missing for them too, each its own file:
        # "(and 1 more card)" left the designer to find which)
        others = list(cards.values())[1:]
        named = ", ".join(quote(n) for n in others[:MORE_NAMED]) + (", ..." if len(others) > MORE_NAMED else "")
        more = phrase_n(" (and {n} more card: {named})", " (and {n} more cards: {named})", len(others),
                      named=named) if others else ""
        out.append(Problem(first.file, first.line, first.where, first.message + more))
    problems, noticed = check_pictures(shown)
    if warnings is not None:
        warnings += noticed
    return out + problems


#: How many of the other cards a problem met on several is said on by name.
MORE_NAMED = 5


def check_pictures(shown: dict[Path, str]) -> tuple[list[Problem], list[Problem]]:
    """Draw each picture into a PDF the way the build embeds it (generator.backends.pdf.draw_picture), once per
    file: what the build would refuse is a problem naming the file and who shows it first; what reading it
    noticed (svglib's own messages) is a warning. (problems, warnings)"""
    from generator.backends.pdf import draw_picture
    from generator.render.images import ImageProblem, image_info
    from generator.resources import display_path

    problems: list[Problem] = []
    warnings: list[Problem] = []
    for path, who in sorted(shown.items()):
        try:
            info = image_info(path)
            draw_picture(path)
        except ImageProblem:  # reported where the picture is named (a card's box, the deck's icons)
            continue
        except ContentError as err:
            problems += [Problem(p.file, p.line, p.where, f"{who}: {p.message}") for p in err.problems]
            continue
        warnings += [PictureWarning(display_path(path), None, "", warning) for warning in info.warnings]
    return problems, warnings



def _page_line_faces(deck: Deck, origin: str) -> tuple[str, ...]:
    """The deck's own fonts its page line draws what Open Sans cannot in, as the build finds them; none when a
    layout cannot be loaded (that problem is reported where the layouts are checked)."""
    from generator.build.decks import DeckLayouts

    layouts = DeckLayouts(deck, origin)
    try:
        layouts.check()
    except ContentError:
        return ()
    return layouts.text_faces()


def check_outputs(content: Content, exports: dict[str, dict[str, str]] | None = None) -> tuple[
        list[Problem], list[Problem]]:
    """What the build and the exports would refuse about each deck, before they run: (problems, warnings).

    Problems: two cards whose ids give one file name, or a card whose file would be the back's or the
    manifest's (`back`, `manifest`); a deck or game name holding characters the page line's font lacks.
    Warnings: a card that fits on no paper (the deck can still be written as SVG and exported as PNG).
    `exports` maps the suffix of each export's per-card files to the names it reserves beside them
    (`{"png": {"manifest.csv": "the export's manifest"}}`)."""
    from pathlib import Path

    from generator.backends import BACKENDS
    from generator.build.decks import MAX_SHEET_CARDS, deck_label, deck_origin, file_collisions
    from generator.content import all_decks
    from generator.render import fonts
    from generator.render.imposition import FOOTER_FACE, fits_some_paper, page_line_lacks

    problems: list[Problem] = []
    warnings: list[Problem] = []
    seen: set[tuple[str, int | None, str]] = set()
    nowhere = Path("/nonexistent-output")  # the names only: nothing is written
    for deck in all_decks(content):
        origin = deck_origin(content, deck)
        suffixes: dict[str, dict[str, str]] = {b.suffix: {} for b in BACKENDS if not b.imposed} | (exports or {})
        for suffix, more in suffixes.items():
            reserved = {f"back.{suffix}": phrase("the deck's back"), **more}
            for problem in file_collisions(deck, nowhere, suffix, reserved)[1]:
                # one card clashing in SVG and PNG alike is one problem: a card is its row (a deck of your own) or
                # its entry, whatever language the message is said in
                key = (problem.file, problem.line, problem.where)
                if key not in seen:
                    seen.add(key)
                    problems.append(problem)
        where = "name" if deck.folder is not None else f"decks[{deck.id}].name"
        names = [(deck.name, phrase("the deck's name"))] + ([(deck.game_name, phrase("the game's name"))]
                                                             if deck.game_name != deck.name else [])
        faces = _page_line_faces(deck, origin)
        for text, what in names:
            lacking = page_line_lacks(text, faces)
            if lacking:
                listed = ", ".join(f"{quote(c)} (U+{ord(c):04X})" for c in lacking)
                own = [family for family in dict.fromkeys(fonts.FACES[face].family for face in faces)
                       if family != fonts.FACES[FOOTER_FACE].family]
                footer = fonts.FACES[FOOTER_FACE].family
                said = phrase("{what} {text} is printed on every page of {deck}, but its font ({font}) has no glyph "
                              "for {letters}; name the deck in other letters, or have its layouts write in a font "
                              "that has them", what=what, text=quote(text), deck=deck_label(deck), font=footer,
                              letters=listed) if not own else \
                    phrase("{what} {text} is printed on every page of {deck}, but its fonts ({font}, then those of "
                           "the deck's layouts: {fonts}) have no glyph for {letters}; name the deck in other "
                           "letters, or have its layouts write in a font that has them", what=what, text=quote(text),
                           deck=deck_label(deck), font=footer, fonts=", ".join(own), letters=listed)
                problems.append(Problem(origin, None, where, said))
        if deck.total > MAX_SHEET_CARDS:
            warnings.append(Problem(origin, None, "count_column" if deck.folder is not None else f"decks[{deck.id}]",
                                    phrase("{deck} holds {count} cards with their copies, more than the {most} a "
                                           "document of sheets may hold: `donjon build` can write its SVGs (--format "
                                           "svg) and `donjon export` its images, but no PDF sheets",
                                           deck=deck_label(deck), count=phrase_number(deck.total),
                                           most=phrase_number(MAX_SHEET_CARDS))))
        size = deck.card_size
        if not fits_some_paper(size.width_pt, size.height_pt):
            warnings.append(Problem(origin, None, "card_size" if deck.folder is not None else f"decks[{deck.id}]."
                                    "card_size", phrase(
                                        "{deck}: a {width} x {height} mm card fits on no paper donjon prints on (A4 or "
                                        "Letter, either orientation): `donjon build` can write its SVGs (--format svg) "
                                        "and `donjon export` its images, but no PDF sheets", deck=deck_label(deck),
                                        width=phrase_figure(size.width_mm, "g"),
                                        height=phrase_figure(size.height_mm, "g"))))
    return problems, warnings
