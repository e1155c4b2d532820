"""Building decks: each deck's cards drawn once with its layouts, imposed on pages by the imposed backends (PDF)
and written one file per card by the others (SVG).

For each deck: the face and back layouts are loaded (cached; a user deck's cards may each pick theirs), each card
is drawn once and placed as many times as it has copies, and each back is drawn once: once for the whole deck
when its layout reads nothing of the card, once per card when it does. Duplex pages put every card's own back
behind it. Pages stream into the document as they are made.

:func:`build` is one transaction (generator.output.transaction): every deck's document (`OUT/GAME/DECK.pdf`)
and per-card folder (`OUT/GAME/DECK/svg/`), then the other outputs of the target (:mod:`generator.build.outputs`)
are staged, and put in place together only when all of them are complete. A build that fails anywhere (a card
whose text does not fit, a full disk, a signal) leaves every previous file exactly as it was.
"""

import io
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Protocol

from generator.backends import CardWriter, Memo, backend
from generator.build.options import BuildOptions, Written
from generator.catalog.deck import Card, Deck
from generator.content import Content
from generator.errors import ContentError, Problem, stop_if_requested
from generator.i18n import N_, language, phrase, phrase_number
from generator.layout.draw import CardView, DeckView, Subject, draw, subject
from generator.layout.load import Layout, MissingLayout, load_layout
from generator.output import StagedFolder, atomic_path, inside, inside_names, staged, transaction, write_bytes
from generator.render import fonts
from generator.render.imposition import PageHeading, Sided, grid, pages
from generator.render.ink_light import ink_light
from generator.render.model import Drawing, ImageUse, leaves
from generator.resources import display_path
from generator.sayings import quote

#: What a deck's document of sheets says it is.
SUBJECT = N_("print-and-play cards by donjon")
#: The back of a user's deck that names no back: a plain back with the deck's name.
GENERIC_BACK = "generic-back"
#: The most cards, copies included, one document of sheets holds: 11,112 sheets of poker cards, far beyond a
#: home printer. The document is written as it is drawn, but the PDF library keeps a few hundred bytes of every
#: page until the file is complete (about 1.8 KB a card in all: 180 MB at this size), so a deck with more
#: copies is refused with its size instead of growing without bound. Per-card outputs (SVG, PNG) have no limit.
MAX_SHEET_CARDS = 100_000

Progress = Callable[[int], None]


def deck_origin(content: Content, deck: Deck) -> str:
    """The file that declares a deck, for messages."""
    if deck.folder is not None:
        return display_path(deck.folder / "deck.yaml")
    folder = content.folders.get(deck.game)
    return display_path(folder / "game.yaml") if folder is not None else f"{deck.game}/game.yaml"


class DeckLayouts:
    """The layouts of one deck, each loaded once: the deck's face and back, and those its cards pick."""

    def __init__(self, deck: Deck, origin: str) -> None:
        self.deck = deck
        self.origin = origin
        self._loaded: dict[str, Layout] = {}

    def load(self, ref: str, key: str) -> Layout:
        """The layout `ref`; one that does not exist is an error naming the deck's file and `key`."""
        found = self._loaded.get(ref)
        if found is None:
            deck = self.deck
            try:
                found = load_layout(ref, deck.folder, deck.root, deck.assets)
            except MissingLayout as err:
                where = f"decks[{deck.id}].{key}" if deck.folder is None else key
                raise ContentError([Problem(self.origin, None, where,
                                            phrase("names no layout: {reason}", reason=err))]) from None
            self._loaded[ref] = found
        return found

    def face(self, card: Card) -> Layout:
        if card.layout:
            return self.load(card.layout, "layouts")
        return self.load(self.deck.layout, "layout")

    def back(self, card: Card | None = None) -> Layout:
        if card is not None and card.back:
            return self.load(card.back, "layouts")
        if self.deck.back:
            return self.load(self.deck.back, "back")
        found = self._loaded.get(GENERIC_BACK)
        if found is None:
            found = self._loaded[GENERIC_BACK] = self._generic_back()
        return found

    def _generic_back(self) -> Layout:
        """donjon's plain back, which writes the deck's name: in Open Sans, or where Open Sans cannot draw the name
        (a deck named in Arabic, Chinese or Japanese), in the first of the deck's own fonts that can, of the same
        weight where the family has it. A name none of them draws is left to fail where it is drawn, by name."""
        plain = self.load(GENERIC_BACK, "back")
        name = self.deck.name
        styles = {s.face for box in plain.boxes for s in (box.style, box.label_style) if s is not None}
        lacking = [face for face in sorted(styles) if fonts.missing(face, name)]
        if not lacking:
            return plain
        if self.deck.layout:
            self.load(self.deck.layout, "layout")
        for card in self.deck.cards:
            self.face(card)
        own = [face for face in self.text_faces() if face not in styles]
        swap: dict[str, str] = {}
        for face in lacking:
            bold, italic = fonts.FACES[face].bold, fonts.FACES[face].italic
            drawing = [candidate for other in own for candidate in (fonts.variant(other, bold, italic), other)
                       if candidate is not None and not fonts.missing(candidate, name)]
            if drawing:
                swap[face] = drawing[0]
        return plain.with_faces(swap) if swap else plain

    def check(self) -> None:
        """Load every layout the deck and its cards name, so a missing one is reported before anything is drawn."""
        if self.deck.layout:
            self.load(self.deck.layout, "layout")
        self.back()
        for card in self.deck.cards:
            self.face(card)
            self.back(card)

    def uniform_back(self) -> bool:
        """Whether every card has the same back (one layout that reads nothing of the card)."""
        backs = {id(self.back(card)) for card in self.deck.cards} or {id(self.back())}
        return len(backs) == 1 and not self.back(self.deck.cards[0] if self.deck.cards else None).per_card

    def loaded(self) -> list[Layout]:
        """The layouts loaded so far (every one the deck names, after :meth:`check`)."""
        return list(self._loaded.values())

    def text_faces(self) -> tuple[str, ...]:
        """The fonts the loaded layouts write text in, in the order their boxes name them, each family's regular
        face before the face a style names: the page line draws in them what Open Sans cannot (a deck named in
        Arabic or Japanese), as the deck's cards do."""
        found: dict[str, None] = {}
        for layout in self._loaded.values():
            for box in layout.boxes:
                for style in (box.style, box.label_style):
                    if style is not None:
                        found.setdefault(fonts.regular(style.face))
                        found.setdefault(style.face)
        return tuple(found)

    def files(self) -> set[Path]:
        """Every file the loaded layouts were read from (with their fonts and icons)."""
        return {path for layout in self._loaded.values() for path in layout.files}


def deck_layouts(deck: Deck, origin: str) -> tuple[Layout, Layout]:
    """The face and back layouts of a deck; one that does not exist is an error naming the deck's file."""
    layouts = DeckLayouts(deck, origin)
    return layouts.load(deck.layout, "layout"), layouts.back()


def deck_label(deck: Deck) -> str:
    """How messages name a deck: `game/deck`, or a user deck's id (and its language, when it is not the deck's
    own: `skirmish (in fr)`)."""
    label = deck.id if deck.folder is not None else deck.key
    return phrase("{deck} (in {lang})", deck=label, lang=deck.lang) if deck.translated else label


def deck_view(deck: Deck) -> DeckView:
    return DeckView(deck.id, deck.name, deck.game, deck.game_name, deck.total,
                    deck.shape is None or deck.shape.kind == "rect")


def _who(deck: Deck, card: Card) -> str:
    if card.origin:
        return phrase("{deck}: card {name} ({origin})", deck=deck_label(deck), name=quote(card.name),
                      origin=card.origin)
    return phrase("{deck}: card {id}", deck=deck_label(deck), id=card.id)


def face_drawing(layout: Layout, deck: Deck, card: Card, view: DeckView, bleed: float,
                 guides: bool = False) -> Drawing:
    """A card's face; `guides`: with the cut line, the bleed's edge and the safe area drawn over it."""
    size = deck.card_size
    return draw(layout, face_subject(deck, card, view), size.width_pt, size.height_pt, bleed, deck.shape, guides)


def face_subject(deck: Deck, card: Card, view: DeckView) -> Subject:
    """What a card's face layout reads: its values, the deck, and who it is in messages."""
    return _deck_subject(deck, view, card, _who(deck, card), card.id if card.copies > 1 else None)


def back_subject(layout: Layout, deck: Deck, view: DeckView, card: Card | None = None) -> Subject:
    """What a back layout reads: the card's values for a back that reads them (`card` given), else the deck's."""
    if card is not None and layout.per_card:
        return _deck_subject(deck, view, card, f"{_who(deck, card)}, its back", f"back:{card.id}")
    return _deck_subject(deck, view, None, f"{deck_label(deck)}: back", f"back:{layout.file}")


def _deck_subject(deck: Deck, view: DeckView, card: Card | None, who: str, key: str | None) -> Subject:
    """What a layout of `deck` reads: `card`'s values (None: the deck's alone), `who` it is in messages, and the
    `key` its drawing is kept under."""
    if card is None:
        return subject({}, None, view, {}, who, key=key, folder=deck.folder, root=deck.root, lang=language(deck.lang),
                       own_language=deck.lang == deck.default_lang)
    return subject(card.data, CardView(card.id, card.name, card.copies, card.data, card.also), view, card.provenance,
                   who, key=key, folder=deck.folder, root=deck.root, lang=language(deck.lang),
                   own_language=deck.lang == deck.default_lang)


def back_drawing(layout: Layout, deck: Deck, view: DeckView, bleed: float, card: Card | None = None,
                 guides: bool = False) -> Drawing:
    """A back: the deck's (drawn once, keyed by its layout) or, for a layout that reads the card's values, the back
    of `card` (keyed by the card)."""
    size = deck.card_size
    what = back_subject(layout, deck, view, card)
    try:
        return draw(layout, what, size.width_pt, size.height_pt, bleed, deck.shape, guides)
    except ContentError as err:
        if card is None and layout.per_card:
            raise ContentError([Problem(p.file, p.line, p.where, p.message + " (this back reads a card's values, so it "
                                        "is drawn for each card and has no one back for the whole deck)")
                                for p in err.problems]) from None
        raise


class Backs:
    """The backs of a deck's cards, each drawn once (see :func:`back_drawing`)."""

    def __init__(self, layouts: DeckLayouts, view: DeckView, bleed: float, guides: bool = False) -> None:
        self.layouts = layouts
        self.view = view
        self.bleed = bleed
        self.guides = guides
        self._shared: dict[str, Drawing] = {}

    def of(self, card: Card) -> Drawing:
        layout = self.layouts.back(card)
        if layout.per_card:
            return back_drawing(layout, self.layouts.deck, self.view, self.bleed, card, self.guides)
        found = self._shared.get(layout.file)
        if found is None:
            found = self._shared[layout.file] = back_drawing(layout, self.layouts.deck, self.view, self.bleed,
                                                             guides=self.guides)
        return found


class Drawer:
    """Each card's face and back as a build draws them: with the deck's layouts, the deck's one back drawn once, in
    light ink when the build asks for it. (`donjon build --watch` keeps the drawings of the last build and draws
    again only those whose card, layout or picture changed: generator.build.incremental.)"""

    def __init__(self, layouts: DeckLayouts, view: DeckView, bleed: float, light: bool, guides: bool = False) -> None:
        self.layouts = layouts
        self.view = view
        self.bleed = bleed
        self.light = light
        self.guides = guides
        self._backs = Backs(layouts, view, bleed, guides)
        self._shared: Drawing | None = None
        self._lit: dict[str | None, Drawing] = {}

    def face(self, card: Card) -> Drawing:
        drawing = face_drawing(self.layouts.face(card), self.layouts.deck, card, self.view, self.bleed, self.guides)
        return ink_light(drawing) if self.light else drawing

    def pictures(self, drawing: Drawing) -> frozenset[Path]:
        """The picture files a drawing of this drawer shows."""
        return frozenset(pictures(drawing))

    def back(self, card: Card) -> Drawing:
        drawing = self._backs.of(card)
        if not self.light:
            return drawing
        if self.layouts.back(card).per_card:
            return ink_light(drawing)
        lit = self._lit.get(drawing.key)  # a back shared by many cards: lightened once
        if lit is None:
            lit = self._lit[drawing.key] = ink_light(drawing)
        return lit

    def shared_back(self) -> Drawing:
        """The back of every card, when the deck has one (`DeckLayouts.uniform_back`)."""
        if self._shared is None:
            deck = self.layouts.deck
            if deck.cards:
                self._shared = self.back(deck.cards[0])
            else:
                drawing = back_drawing(self.layouts.back(), deck, self.view, self.bleed, guides=self.guides)
                self._shared = ink_light(drawing) if self.light else drawing
        return self._shared


def put_file(folder: StagedFolder, name: str, drawing: Drawing, title: str, write: CardWriter) -> bool:
    """Write a drawing into a per-card folder as `name`; whether a file was written (always, here: the watch's
    own keeps the files that did not change)."""
    folder.write(name, write(drawing, title).encode("utf-8"))
    return True


#: Writes one drawing into a per-card folder (:func:`put_file`), True when it wrote a file.
PutFile = Callable[[StagedFolder, str, Drawing, str, CardWriter], bool]


class Incremental(Protocol):
    """What a build keeps for the next build of the same deck (`donjon build --watch`: generator.build.incremental):
    its drawer, how it puts a card's file in its folder, what the document writers keep, whether a document is the
    same as the one in place."""

    def drawer(self, layouts: DeckLayouts, view: DeckView, bleed: float, light: bool, guides: bool) -> Drawer: ...

    def put(self, folder: StagedFolder, name: str, drawing: Drawing, title: str, write: CardWriter) -> bool: ...

    def memo(self, backend: str) -> Memo: ...

    def unchanged(self, target: Path, data: bytes) -> bool: ...

    def in_place(self, folder: Path, names: frozenset[str]) -> bool: ...


def pictures(drawing: Drawing) -> set[Path]:
    """The picture files a drawing shows (for `donjon build --watch`)."""
    return {Path(item.source) for item in leaves(drawing.items) if isinstance(item, ImageUse)}


class DeckResult:
    """What building one deck wrote, from which files, and what it noticed."""

    __slots__ = ("deck", "written", "cards", "pages", "sources", "warnings")

    deck: Deck
    written: list[Written]
    cards: int
    pages: int
    #: every file the deck was made from: its own files, layouts, fonts, icons and pictures
    sources: frozenset[Path]
    #: what reading its pictures noticed without refusing them (svglib's own messages), each naming its file
    warnings: tuple[str, ...]

    def __init__(self, deck: Deck, written: list[Written], cards: int, pages: int,
                 sources: frozenset[Path] = frozenset(), warnings: tuple[str, ...] = ()) -> None:
        self.deck = deck
        self.written = written
        self.cards = cards
        self.pages = pages
        self.sources = sources
        self.warnings = warnings


def picture_warning(file: str, warning: str) -> str:
    """`FILE: message` for what reading a picture noticed, its colon as the language writes it (French: `FILE :
    ligne 3 : ...`, as the rest of the line)."""
    # TRANSLATORS: a picture's file (art/frost.svg), then what reading it noticed (line 3: a clip path ...)
    return phrase("{file}: {warning}", file=file, warning=warning)


def picture_warnings(paths: Iterable[Path]) -> tuple[str, ...]:
    """`FILE: message` for what reading each picture noticed (the pictures are read already: cached)."""
    paths = sorted(paths)
    if not paths:  # a deck without pictures does not import the picture module
        return ()
    from generator.render.images import ImageProblem, image_info

    out: list[str] = []
    for path in paths:
        try:
            out += [picture_warning(display_path(path), warning) for warning in image_info(path).warnings]
        except ImageProblem:  # changed since it was drawn: the next build says why
            continue
    return tuple(out)


def card_problem(deck: Deck, card: Card, where: str, message: str) -> Problem:
    """A problem with one card, at its row (`cards.csv:12`) for a deck of your own, else named in its deck."""
    file, _, line = card.origin.rpartition(":")
    if file and line.isascii() and line.isdigit():
        return Problem(file, int(line), where, message)
    return Problem(deck_label(deck), None, where or f"cards[{card.id}]", message)


def file_collisions(deck: Deck, folder: Path, suffix: str, reserved: Mapping[str, str]) -> tuple[
        tuple[str, ...], list[Problem]]:
    """`CARD.suffix` for each card of `deck`, in deck order, made safe to write in `folder`, and a problem for
    each card whose file would be another's: two cards whose ids give one file name, or a card named like a
    reserved file (`reserved` maps such a name to what it holds, e.g. the deck's back)."""
    taken = dict(reserved)
    names: list[str] = []
    problems: list[Problem] = []
    for card, name in zip(deck.cards, inside_names(folder, (f"{card.id}.{suffix}" for card in deck.cards)),
                          strict=True):
        if name in taken:
            problems.append(card_problem(deck, card, "", phrase(
                "{deck}: card {card} (id {id}) would be written as {file}, the file of {other}; give the card another "
                "id", deck=deck_label(deck), card=quote(card.name), id=quote(card.id), file=name, other=taken[name])))
        else:
            # TRANSLATORS: what a file of a deck's folder holds: one card, by its id
            taken[name] = phrase("card {id}", id=quote(card.id))
        names.append(name)
    return tuple(names), problems


def card_file_names(deck: Deck, folder: Path, suffix: str, reserved: Mapping[str, str]) -> tuple[str, ...]:
    """`CARD.suffix` for each card of `deck`, in deck order; a file that would overwrite another is a content
    error naming the card (`donjon content check` reports it too)."""
    names, problems = file_collisions(deck, folder, suffix, reserved)
    if problems:
        raise ContentError(problems)
    return names


def build_deck(content: Content, deck: Deck, out: Path, options: BuildOptions, progress: Progress,
               kept: Incremental | None = None) -> DeckResult:
    """Write one deck with every backend `options.formats` names: each imposed backend's document of sheets
    (`OUT/GAME/DECK.pdf`) and each per-card backend's folder of cards (`OUT/GAME/DECK/svg/`).

    Every card is drawn once. The document streams its pages as the cards are drawn; the folders are staged and
    replace the old ones only when every card is written, the document is renamed into place when complete.
    With `kept` (`--watch`), what did not change since the last build is taken from it, not drawn or written
    again; the files are the same."""
    if options.unique:
        deck = deck.unique()
    layouts = DeckLayouts(deck, deck_origin(content, deck))
    layouts.check()
    view = deck_view(deck)
    bleed = options.print_options.bleed
    size = deck.card_size
    chosen = [backend(name) for name in options.formats]
    imposed = [b for b in chosen if b.imposed]
    per_card = [b for b in chosen if not b.imposed]
    names: dict[str, dict[str, str]] = {}
    for b in per_card:
        files = card_file_names(deck, inside(out, deck.namespace, deck.id, b.name), b.suffix,
                                {f"back.{b.suffix}": phrase("the deck's back")})
        names[b.name] = dict(zip((c.id for c in deck.cards), files, strict=True))
    light = options.ink == "light"
    guides = options.guides
    drawer = Drawer(layouts, view, bleed, light, guides) if kept is None else kept.drawer(layouts, view, bleed, light,
                                                                                          guides)
    put = put_file if kept is None else kept.put
    uniform = layouts.uniform_back()
    back_face = drawer.shared_back() if uniform else None  # the cards' backs are this very drawing
    written: list[Written] = []
    count = deck.total
    used: set[Path] = set()
    put_files = dict.fromkeys((b.name for b in per_card), 0)

    finals = {inside(out, deck.namespace, deck.id, b.name): b for b in per_card}

    def in_place(final: Path) -> bool:
        """Whether the folder in place holds the very files this build writes (the watch's, unchanged since), to be
        updated file by file rather than staged whole."""
        b = finals[final]
        files = names[b.name].values()
        wanted = frozenset([f"back.{b.suffix}", *files] if uniform else [*files, *(f"backs/{f}" for f in files)])
        return kept is not None and kept.in_place(final, wanted)

    with staged(list(finals), f"the {' and '.join(b.label for b in per_card)} files of {deck.key}",
                in_place) as folders:
        writers = [(b, folder, b.card_writer()) for b, folder in zip(per_card, folders, strict=True)]

        def drawings() -> Iterator[Sided]:
            for card in deck.cards:
                drawing = drawer.face(card)
                its_back = drawer.back(card)
                used.update(drawer.pictures(drawing) | drawer.pictures(its_back))
                for b, folder, write in writers:
                    put_files[b.name] += put(folder, names[b.name][card.id], drawing, f"{deck.name}: {card.name}",
                                             write)
                    if not uniform:
                        put_files[b.name] += put(folder, f"backs/{names[b.name][card.id]}", its_back,
                                                 f"{deck.name}: {card.name}, back", write)
                for _ in range(card.copies):
                    yield Sided(drawing, its_back)
                    progress(1)
                stop_if_requested()

        total_pages = 0
        if imposed and count > MAX_SHEET_CARDS:
            raise ContentError([Problem(deck_origin(content, deck), None, "count_column" if deck.folder else
                                        f"decks[{deck.id}]", phrase(
                                            "{deck} holds {count} cards with their copies, more than the {most} a "
                                            "document of sheets may hold; print fewer copies, split the deck, or build "
                                            "it as SVG only (--format svg)", deck=deck_label(deck),
                                            count=phrase_number(count), most=phrase_number(MAX_SHEET_CARDS)))])
        if imposed:
            sheet = grid(size.width_pt, size.height_pt, options.print_options)
            for index, b in enumerate(imposed):
                target = inside(out, deck.namespace, f"{deck.id}.{b.suffix}")
                # the first document draws the cards (and writes the per-card files); any other redraws them
                stream = drawings() if index == 0 else (s for c in deck.cards for s in [
                    Sided(drawer.face(c), drawer.back(c))] * c.copies)
                lang = language(deck.lang)
                sheets = pages(stream, count, back_face, sheet, options.print_options,
                               PageHeading(deck.game_name, deck.name, lang, layouts.text_faces()))
                title = f"{deck.game_name}: {deck.name}"
                what = f"the {b.label} sheets of {deck.key}"
                if kept is None:
                    with atomic_path(target, what) as tmp:
                        stats = b.page_writer()(sheets, tmp, title=title, subject=lang._(SUBJECT), ink=options.press,
                                                lang=lang.code)
                    written.append(Written(target, b.label, stats.pages, count))
                else:  # written in memory, and put in place only when it changed
                    buffer = io.BytesIO()
                    stats = b.page_writer()(sheets, buffer, title=title, subject=lang._(SUBJECT), ink=options.press,
                                            memo=kept.memo(b.name), lang=lang.code)
                    same = kept.unchanged(target, buffer.getvalue())
                    if not same:
                        write_bytes(target, buffer.getvalue(), what)
                    written.append(Written(target, b.label, stats.pages, count, rewritten=0 if same else 1))
                total_pages = stats.pages
        else:
            deque(drawings(), maxlen=0)  # draw every card (writing its files) without imposing any sheet
        for (b, folder, write), final in zip(writers, folders, strict=True):
            if back_face is not None:
                put_files[b.name] += put(folder, f"back.{b.suffix}", back_face, f"{deck.name}: back", write)
            count_files = len(deck.cards) * (1 if uniform else 2) + (1 if uniform else 0)
            written.append(Written(final.final, b.label, 0, len(deck.cards), count_files, folder=True,
                                   rewritten=None if kept is None else put_files[b.name]))
    sources = frozenset(deck.sources) | layouts.files() | frozenset(used)
    icons = {path for layout in layouts.loaded() for path in layout.icons.values()}
    return DeckResult(deck, written, count, total_pages, sources, picture_warnings(used | icons))


class BuildReport:
    """What a build wrote, deck by deck and the other outputs, and how long it took."""

    __slots__ = ("results", "others", "seconds")

    results: list[DeckResult]
    others: list[Written]
    seconds: float

    def __init__(self, results: list[DeckResult], others: list[Written], seconds: float) -> None:
        self.results = results
        self.others = others
        self.seconds = seconds

    @property
    def cards(self) -> int:
        return sum(r.cards for r in self.results)

    @property
    def pages(self) -> int:
        return sum(r.pages for r in self.results) + sum(w.pages for w in self.others)


def build(content: Content, decks: list[Deck], target: str, out: Path, options: BuildOptions,
          progress: Progress) -> BuildReport:
    """Build every deck in `decks`, then the other outputs the target covers (references, score sheets)."""
    start = time.perf_counter()
    with transaction(out):
        results = [build_deck(content, deck, out, options, progress) for deck in decks]
        others = []
        if any(target in ("all", g.info.id) for g in content.games()):  # a deck of one's own has no other outputs
            from generator.build.outputs import other_outputs

            others = other_outputs(content, target, out, options)
    return BuildReport(results, others, time.perf_counter() - start)
