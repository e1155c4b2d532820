"""Card references: one PDF per game, `OUT/references/GAME-reference.pdf`, from the game's catalog.

Each game's module (guildhall, guedelon, castle) writes the body of its reference as blocks of the document
engine; this module puts the first page before it (the title, how to read the marks, the contents) and the
Sources section after it, lays it out on the paper asked for and writes the PDF atomically.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from generator.reference.document import (
    Block,
    Contents,
    Heading,
    Para,
    ReferenceDocument,
    layout,
)
from generator.reference.sources import MARK, Sources, text
from generator.registry import find_game
from generator.wording import plural

if TYPE_CHECKING:
    from generator.backends import Backend
    from generator.build.options import BuildOptions, Written
    from generator.content import Content
    from generator.games.base import GameCatalog
    from generator.render.imposition import PrintOptions

SUBJECT = "card reference by donjon"


def file_name(game_id: str) -> str:
    """`GAME-reference`, without its suffix."""
    return f"{game_id}-reference"


def document(catalog: GameCatalog) -> ReferenceDocument:
    """The whole reference of one game as a document."""
    info = catalog.info
    sources = Sources(info)
    players = sources.value(plural(info.players_min, "player") if info.players_min == info.players_max
                            else f"{info.players_min}-{info.players_max} players", info.players_provenance, "min", "max")
    if info.players_provenance.inferred:  # its notes come first, as the title page does
        sources.note("Players", info.players_provenance)
    body: list[Block] = find_game(info.id).reference(catalog, sources)
    back = sources.section("rulebooks", "notes")
    entries = tuple((b.text, b.key, b.level) for b in (*body, *back) if isinstance(b, Heading) and b.level <= 2)
    title = f"{info.name}: card reference"
    front: list[Block] = [
        Heading(title, 1, "reference", style="title"),
        Para(f"{players} · {text(info.publisher)}", "subtitle", after=10.0),
        Para("Every card of the game: its name, its kind, how many the box holds, and what it does, in donjon's own "
             "words, from the catalog donjon prints the cards from. It does not replace the rulebooks.", after=8.0),
        Para("How to read the marks", "h3", after=3.0),
        *sources.key(),
        Heading("Contents", 2, "contents"),
        Contents(entries),
    ]
    return ReferenceDocument(title, SUBJECT, (*front, *body, *back),
                    footer=f"{text(info.name)} · donjon · {MARK} not official, see Sources")


def write_reference(content: Content, game_id: str, out: Path, paper: str = "a4", writer: str = "pdf",
                    printer: PrintOptions | None = None) -> Written:
    """Write one game's reference with the imposed backend `writer`, its pages moved as `printer`'s scale and back
    offset ask (a build's `--printer`); says what it wrote."""
    from generator.backends import backend
    from generator.build.options import Written
    from generator.output import atomic_path, inside
    from generator.render.imposition import PAPERS, document_paper, on_printer

    catalog = content.game(game_id)
    doc = document(catalog)
    pages = layout(doc, PAPERS[document_paper(paper)])
    if printer is not None:
        pages = list(on_printer(pages, printer))
    chosen = backend(writer)
    target = inside(out, "references", f"{file_name(game_id)}.{chosen.suffix}")
    with atomic_path(target, f"the card reference of {game_id}") as tmp:
        stats = chosen.page_writer()(pages, tmp, title=doc.title, subject=doc.subject)
    return Written(target, f"card reference, {plural(stats.pages, 'page')}", stats.pages)


def make_references(content: Content, games: list[GameCatalog], out: Path, writer: Backend,
                    options: BuildOptions) -> list[Written]:
    """The references of the games a build covers (a game with no cards, a sheet of one's own, has none)."""
    return [write_reference(content, g.info.id, out, options.print_options.paper, writer.name, options.print_options)
            for g in games if find_game(g.info.id).deck_sources]
