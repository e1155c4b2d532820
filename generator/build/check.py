"""The layout check of `donjon content check`: every deck's layouts exist, load and suit its card size, and
every card draws, so a layout that reads a value its cards lack, or text that cannot fit, is reported before
anything is built. A problem that repeats on many cards (a layout field every card lacks) is reported once,
with the first card and how many more.

`donjon content check` calls it after loading the catalogs, rather than registering it with
:func:`generator.catalog.add_check`: a registered check would run on every later `load_content` of the process,
so what loading accepts would depend on whether this module happened to be imported (and every load would
draw every card).
"""

from __future__ import annotations

from generator.content import Content
from generator.errors import ContentError, Problem
from generator.wording import plural


def check_layouts(content: Content) -> list[Problem]:
    from generator.build.decks import (
        DeckLayouts,
        back_drawing,
        deck_origin,
        deck_view,
        face_drawing,
    )
    from generator.content import all_decks
    from generator.layout.draw import CardFitError

    found: dict[tuple[str, int | None, str], tuple[Problem, int]] = {}

    def note(problem: Problem) -> None:
        key = (problem.file, problem.line, problem.where)
        first, count = found.get(key, (problem, 0))
        found[key] = (first, count + 1)

    for deck in all_decks(content):
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
        for card in deck.cards:
            for side in ("face", "back"):
                try:
                    if side == "face":
                        face_drawing(layouts.face(card), deck, card, view, 0.0)
                    elif layouts.back(card).per_card:
                        back_drawing(layouts.back(card), deck, view, 0.0, card)
                except ContentError as err:
                    for problem in err.problems:
                        note(problem)
                except CardFitError as err:
                    note(err.problem)
    out = []
    for first, count in found.values():
        more = f" (and {plural(count - 1, 'more card')})" if count > 1 else ""
        out.append(Problem(first.file, first.line, first.where, first.message + more))
    return out

