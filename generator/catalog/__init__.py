"""Catalog building blocks shared by every game: provenance, card sizes, game and deck declarations
(:mod:`~generator.catalog.common`), reading a game folder (:mod:`~generator.catalog.reader`), decks and cards
(:mod:`~generator.catalog.deck`) and a user's own deck (:mod:`~generator.catalog.userdeck`).

Each game's own catalog lives in its package (`generator/games/GAME/catalog.py`); loading a whole content
folder is :mod:`generator.content`.
"""
