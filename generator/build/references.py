"""Card references: one PDF per game, `OUT/references/GAME-reference.pdf`, from the game's catalog; and one per
deck of one's own, `OUT/references/decks/DECK-reference.pdf`, from its table.

Each game's module (guildhall, guedelon, castle) writes the body of its reference as blocks of the document
engine; this module puts the first page before it (the title, how to read the marks, the contents) and the
Sources section after it, lays it out on the paper asked for and writes the PDF atomically. A deck of one's own
has no catalog and no rulebook: its reference lists its cards as its table gives them (each card's name, id,
copies and the value of each of its columns), to proofread the deck or print with it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from generator.reference.document import (
    Block,
    Cell,
    Column,
    Contents,
    Heading,
    Para,
    ReferenceDocument,
    Table,
    as_written,
    cell,
    layout,
    plain,
)
from generator.i18n import N_, phrase, phrase_n
from generator.reference.sources import MARK, Sources, text
from generator.registry import find_game

if TYPE_CHECKING:
    from generator.backends import Backend
    from generator.catalog.userdeck import UserDeck
    from generator.build.options import BuildOptions, Written
    from generator.content import Content
    from generator.games.base import GameCatalog
    from generator.render.imposition import PrintOptions

SUBJECT = N_("card reference by donjon")


def file_name(game_id: str) -> str:
    """`GAME-reference`, without its suffix."""
    return f"{game_id}-reference"


def document(catalog: GameCatalog) -> ReferenceDocument:
    """The whole reference of one game as a document."""
    info = catalog.info
    sources = Sources(info)
    lang = sources.lang
    _ = lang._
    players = sources.value((lang.ngettext("{n} player", "{n} players", info.players_min) if
                             info.players_min == info.players_max else _("{low}-{high} players")).format(
        n=info.players_min, low=info.players_min, high=info.players_max), info.players_provenance, "min", "max")
    if info.players_provenance.inferred:  # its notes come first, as the title page does
        sources.note(_("Players"), info.players_provenance)
    # the player count, on the title page, is the data files' first table (its notes numbered as the page's)
    facts = Table((Column("", 1), Column("", 1)), ((cell(_("Players"), style="cell-bold"), cell(players)),),
                  sources=sources.row_sources([_("Players")], [info.players_provenance]))
    body: list[Block] = find_game(info.id).reference(catalog, sources)
    front_key = sources.key()  # after the body: it explains the translation mark when the body shows one
    back = sources.section("rulebooks", "notes")
    entries = tuple((b.text, b.key, b.level) for b in (*body, *back) if isinstance(b, Heading) and b.level <= 2)
    title = _("{game}: card reference").format(game=info.name)
    front: list[Block] = [
        Heading(title, 1, "reference", style="title"),
        Para(f"{players} · {text(info.publisher)}", "subtitle", after=10.0),
        Para(_("Every card of the game: its name, its kind, how many the box holds, and what it does, in donjon's own "
               "words, from the catalog donjon prints the cards from. It does not replace the rulebooks."), after=8.0),
        Para(_("How to read the marks"), "h3", after=3.0),
        *front_key,
        Heading(_("Contents"), 2, "contents"),
        Contents(entries),
    ]
    return ReferenceDocument(title, _(SUBJECT), (*front, *body, *back),
                             footer=_("{game} · donjon · {mark} not official, see Sources").format(
                                 game=text(info.name), mark=MARK), lang=lang,
                             body=(Heading(info.name, 1, "game"), facts, *body), notes=sources.note_data(),
                             rulebooks=tuple((r.id, r.title) for r in info.rulebooks))


def write_reference(content: Content, game_id: str, out: Path, paper: str = "a4", writer: str = "pdf",
                    lang: str | None = None, printer: PrintOptions | None = None) -> Written:
    """Write one game's reference with the imposed backend `writer`, in `lang` (English), its pages moved as
    `printer`'s scale and back offset ask (a build's `--printer`); says what it wrote."""
    return write_reference_files(content, game_id, out, paper, writer, lang, printer)[0]


def write_reference_files(content: Content, game_id: str, out: Path, paper: str = "a4", writer: str = "pdf",
                          lang: str | None = None, printer: PrintOptions | None = None,
                          formats: tuple[str, ...] = ("pdf",)) -> list[Written]:
    """Write one game's reference in `formats` (`pdf` with the imposed backend `writer`; `csv`, `json`: its tables
    as data, generator.reference.data) beside each other; says what it wrote."""
    from generator.catalog.translations import localise

    catalog = localise(content.game(game_id), lang or "en")
    doc = document(catalog)
    written = [_write_pdf(doc, game_id, out, paper, writer, printer)] if "pdf" in formats else []
    return written + _write_data(doc, formats, out, ("references",), game_id, "the card reference of " + game_id)


def _write_data(doc: ReferenceDocument | UserDeck, formats: tuple[str, ...], out: Path, folder: tuple[str, ...],
                name: str, what: str, lang: str | None = None) -> list[Written]:
    """The CSV and JSON files of a reference (of a game: `doc` its document; of a deck: the deck)."""
    from generator.build.options import Written
    from generator.output import inside, write_text
    from generator.reference import data

    written = []
    for suffix in ("csv", "json"):
        if suffix not in formats:
            continue
        if isinstance(doc, ReferenceDocument):
            body = data.game_csv(doc) if suffix == "csv" else data.game_json(doc, name)
        else:
            body = data.deck_csv(doc, lang) if suffix == "csv" else data.deck_json(doc, lang)
        target = write_text(inside(out, *folder, f"{file_name(name)}.{suffix}"), body, f"{what} ({suffix})")
        written.append(Written(target, phrase("card reference as {format}", format=suffix.upper()), 0))
    return written


def _write_pdf(doc: ReferenceDocument, game_id: str, out: Path, paper: str, writer: str,
               printer: PrintOptions | None) -> Written:
    from generator.backends import backend
    from generator.build.options import Written
    from generator.output import atomic_path, inside
    from generator.render.imposition import PAPERS, document_paper, on_printer

    pages = layout(doc, PAPERS[document_paper(paper)])
    if printer is not None:
        pages = list(on_printer(pages, printer))
    chosen = backend(writer)
    target = inside(out, "references", f"{file_name(game_id)}.{chosen.suffix}")
    with atomic_path(target, f"the card reference of {game_id}") as tmp:
        stats = chosen.page_writer()(pages, tmp, title=doc.title, subject=doc.subject, lang=doc.lang.code)
    return Written(target, phrase_n("card reference, {n} page", "card reference, {n} pages", stats.pages),
                   stats.pages)


def make_references(content: Content, games: list[GameCatalog], out: Path, writer: Backend | None,
                    options: BuildOptions) -> list[Written]:
    """The references of the games a build covers (a game with no cards, a sheet of one's own, has none); none
    without a document backend (a reference is a PDF)."""
    if writer is None:
        return []
    return [write_reference(content, g.info.id, out, options.print_options.paper, writer.name, options.lang,
                            options.print_options)
            for g in games if find_game(g.info.id).deck_sources]


#: The introduction of a deck's reference.
DECK_INTRO = N_("Every card of the deck as its table gives it: its name, its id, how many copies are printed and "
                "the value of each of its columns, written as the table holds them.")


def deck_document(deck: UserDeck, lang: str | None = None) -> ReferenceDocument:
    """The reference of a deck of one's own: a title, then a table of its cards (in `lang` when its table holds
    that language, else its own), each with its id and copies and every column it fills but the name and the
    copies, as the table holds it (markup and `{icons}` shown as written: the reference's fonts are donjon's)."""
    from generator.i18n import language

    words = language(lang or deck.lang)
    _ = words._
    from generator.reference.data import deck_cards, deck_columns

    shown = deck_cards(deck, lang)
    cards = [card for card, _own in shown]
    columns = deck_columns(deck)  # the translations of a column are not listed beside it: each value once
    title = _("{game}: card reference").format(game=deck.name)
    total = sum(card.copies for card in cards)
    rows = []
    for card, own in shown:
        # the designer's words as written, whatever the page's language does with its punctuation
        values = [f"**{as_written(plain(str(column)))}**: {as_written(plain(str(value)))}"
                  for column in columns if (value := card.fields.get(column)) is not None and str(value).strip()]
        # the card's name; under it its name in the deck's own language (in a reference in another language) and
        # its id (the name of its files, what `--cards` takes)
        names = (Para(as_written(plain(card.name)), "cell-bold"),
                 *((Para(f"{as_written(plain(own))} ({deck.lang})", "cell-note"),) if own else ()),
                 Para(as_written(plain(card.id)), "cell-note"))
        rows.append((Cell(names), cell(words.number(card.copies)), cell(*values)))
    table = Table((Column(_("Card"), 2.0), Column(_("Copies"), 1.2, "right"), Column(_("Value"), 6.0)),
                  tuple(rows))
    blocks = (
        Heading(title, 1, "reference", style="title"),
        Para(f"{words.ngettext('{n} card', '{n} cards', len(cards)).format(n=words.number(len(cards)))} · "
             f"{words.ngettext('{n} copy', '{n} copies', total).format(n=words.number(total))}", "subtitle",
             after=10.0),
        Para(_(DECK_INTRO), after=8.0),
        table,
    )
    return ReferenceDocument(title, _(SUBJECT), blocks, footer=f"{plain(deck.name)} · donjon", lang=words,
                             faces=_deck_faces(deck, lang))


def _deck_faces(deck: UserDeck, lang: str | None) -> tuple[str, ...]:
    """The fonts the deck's layouts write in, which draw what the reference's fonts lack (a deck named in Georgian
    or Japanese, its cards' names and values in it), as they draw its cards and its page line; none when a layout
    cannot be loaded (the build says why)."""
    from generator.build.decks import DeckLayouts
    from generator.content import user_deck
    from generator.errors import ContentError
    from generator.resources import display_path

    layouts = DeckLayouts(user_deck(deck, lang), display_path(deck.folder / "deck.yaml"))
    try:
        layouts.check()
    except ContentError:
        return ()
    return layouts.text_faces()


def write_deck_reference(deck: UserDeck, out: Path, paper: str = "a4", lang: str | None = None) -> Written:
    """Write the reference of a deck of one's own (`OUT/references/decks/DECK-reference.pdf`); says what it
    wrote."""
    return write_deck_reference_files(deck, out, paper, lang)[0]


def write_deck_reference_files(deck: UserDeck, out: Path, paper: str = "a4", lang: str | None = None,
                               formats: tuple[str, ...] = ("pdf",)) -> list[Written]:
    """Write the reference of a deck of one's own in `formats` (`OUT/references/decks/DECK-reference.pdf`, its
    cards as CSV and JSON beside it); says what it wrote."""
    written = [_write_deck_pdf(deck, out, paper, lang)] if "pdf" in formats else []
    return written + _write_data(deck, formats, out, ("references", "decks"), deck.id,
                                 f"the card reference of the deck {deck.id}", lang)


def _write_deck_pdf(deck: UserDeck, out: Path, paper: str, lang: str | None) -> Written:
    from generator.backends import backend
    from generator.build.options import Written
    from generator.output import atomic_path, inside
    from generator.render.imposition import PAPERS, document_paper

    doc = deck_document(deck, lang)
    pages = layout(doc, PAPERS[document_paper(paper)])
    chosen = backend("pdf")
    target = inside(out, "references", "decks", f"{file_name(deck.id)}.{chosen.suffix}")
    with atomic_path(target, f"the card reference of the deck {deck.id}") as tmp:
        stats = chosen.page_writer()(pages, tmp, title=doc.title, subject=doc.subject, lang=doc.lang.code)
    return Written(target, phrase_n("card reference, {n} page", "card reference, {n} pages", stats.pages),
                   stats.pages)
