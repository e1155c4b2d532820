"""What each reference says, read from its document before layout: the tables, the marks, the values."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from reference_helpers import GAMES

from generator.content import Content, load_content
from generator.catalog.common import CONFIDENCE_WORDS
from generator.build.references import document
from generator.reference.document import (
    STYLES,
    Contents,
    Heading,
    Para,
    ReferenceDocument,
    Row,
    Table,
    layout,
)
from generator.catalog.common import Provenance
from generator.reference.sources import MARK
from generator.render.imposition import PAPERS
from generator.render.model import IconUse, TextRun
from generator.games.guildhall import GAME as GUILDHALL
from generator.games.guedelon import GAME as GUEDELON
from generator.games.castle import GAME as CASTLE


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


@pytest.fixture(scope="module")
def docs(content: Content) -> dict[str, ReferenceDocument]:
    return {game: document(content.game(game)) for game in GAMES}


def _rows(doc: ReferenceDocument) -> Iterator[tuple[Table, Row]]:
    for block in doc.blocks:
        if isinstance(block, Table):
            for row in block.rows:
                yield block, row


def _texts(row: Row) -> list[str]:
    """Each cell's text, its paragraphs joined."""
    return [" ".join(p.text for p in cell.paras) for cell in row]


def _row(doc: ReferenceDocument, first: str) -> tuple[Table, list[str]]:
    """The row whose first cell starts with `first` (after markup), and its table."""
    for table, row in _rows(doc):
        cells = _texts(row)
        if cells[0].replace("**", "").startswith(first):
            return table, cells
    raise AssertionError(f"no row starting {first!r}")


def _column(table: Table, title: str) -> int:
    return [c.title for c in table.columns].index(title)


def test_professions_are_a_table_of_levels_by_chapter_size(docs: dict[str, ReferenceDocument], content: Content) -> None:
    doc = docs["guildhall"]
    assert content.catalog(GUILDHALL) is not None
    for profession in content.catalog(GUILDHALL).professions:
        table, cells = _row(doc, profession.name)
        assert [c.title for c in table.columns] == ["Profession", "Cards held", "Effect", "Source"]
        rows = [_texts(r) for r in table.rows]
        start = rows.index(cells)
        for offset, level in enumerate(profession.levels):
            held, effect = rows[start + offset][1], rows[start + offset][2]
            assert held.startswith(f"**{level.at}+**")
            assert level.effect in effect
            # every row of one profession is one group: they stay on one page
            assert table.groups[start + offset] == table.groups[start]
        assert "20 cards: 5 colours x 4" in cells[0]


def test_inferred_thresholds_are_marked_and_stated_ones_are_not(docs: dict[str, ReferenceDocument]) -> None:
    doc = docs["guildhall"]
    # the Dancer's one level from 0 is an inference from the designer's blog, not the rulebook's
    for name in ("Assassin", "Farmer", "Historian", "Trader", "Weaver", "Dancer"):
        table, cells = _row(doc, name)
        assert MARK in cells[1], name
        assert "note" in cells[-1] and CONFIDENCE_WORDS["M"] not in cells[-1]  # the column names the note
    for name in ("Bricklayer", "Hunter", "Scholar"):
        _table, cells = _row(doc, name)
        assert MARK not in cells[1] and MARK not in cells[2], name
        assert "Rulebook" in cells[-1] and "note" not in cells[-1]
    _table, tax = _row(doc, "Tax Collector")
    assert MARK not in tax[1] and MARK in tax[2]  # its effect is the inferred value, not its threshold


def test_vp_cards_with_cost_copies_and_supply(docs: dict[str, ReferenceDocument], content: Content) -> None:
    game = content.catalog(GUILDHALL)
    assert game is not None
    doc = docs["guildhall"]
    tables = [b for b in doc.blocks if isinstance(b, Table) and b.columns[0].title == "Card"
              and len(b.columns) > 4]
    assert len(tables) == len(game.sets)
    for game_set, table in zip(game.sets, tables):
        cards = game.vp_cards_of(game_set.id)
        titles = [c.title for c in table.columns]
        assert titles[:6] == ["Card", "Cost", "Ability when bought", "Copies", "2-3 players", "4 players"]
        rows = [_texts(r) for r in table.rows]
        for card, row in zip(cards, rows):
            assert row[0].startswith(f"**{card.value} VP**")
            assert row[1].startswith(f"{card.cost} chapter")
            assert row[3].startswith(str(card.copies))
            assert row[4].startswith(str(card.copies_for(3))) and row[5].startswith(str(card.copies_for(4)))
        total = rows[len(cards)]
        assert total[0] == "**Total**" and total[4].startswith(f"**{sum(c.copies_for(2) for c in cards)}**")
        # the supply by value is vp_supply's, for 2-3 players and for 4
        supply = next(b for b in doc.blocks[doc.blocks.index(table):] if isinstance(b, Table)
                      and [c.title for c in b.columns] == ["Value", "2-3 players", "4 players"])
        shown = {int(r[0].lstrip("*").split()[0]): (int(r[1].split()[0]), int(r[2].split()[0]))
                 for r in map(_texts, supply.rows)}
        small, full = game.vp_supply(game_set.id, 3), game.vp_supply(game_set.id, 4)
        assert shown == {v: (small[v], full[v]) for v in full}


def test_job_faire_vp_values_are_marked_old_world_economy_values_are_not(docs: dict[str, ReferenceDocument]) -> None:
    doc = docs["guildhall"]
    tables = [b for b in doc.blocks if isinstance(b, Table) and b.columns[0].title == "Card"
              and len(b.columns) > 4]
    owe, jf = ([_texts(r) for r in t.rows[:-1]] for t in tables)
    assert all(MARK not in row[0] and MARK not in row[1] and MARK in row[3] for row in owe)
    assert all(MARK in row[0] and MARK in row[1] and MARK in row[3] for row in jf)
    supplies = [b for b in doc.blocks if isinstance(b, Table) and b.columns[0].title == "Value"]
    owe_supply, jf_supply = ([_texts(r) for r in t.rows] for t in supplies)
    assert all(MARK not in row[0] and MARK in row[1] for row in owe_supply)
    assert all(MARK in row[0] and MARK in row[1] for row in jf_supply)


def test_colours_have_their_symbols(docs: dict[str, ReferenceDocument], content: Content) -> None:
    assert content.catalog(GUILDHALL) is not None
    for colour in content.catalog(GUILDHALL).colours:
        table, cells = _row(docs["guildhall"], f"{{{colour.symbol}}}")
        assert colour.name in cells[1] and f"{{{colour.symbol}}}" in cells[2]
        swatch = next(r for r in table.rows if _texts(r)[1] == f"**{colour.name}**")[0]
        assert swatch.fill == colour.hex


def test_events_by_series_and_unknown_series(docs: dict[str, ReferenceDocument], content: Content) -> None:
    doc = docs["guedelon"]
    game = content.catalog(GUEDELON)
    assert game is not None
    headings = [b.text for b in doc.blocks if isinstance(b, Heading)]
    for series in game.series:
        assert f"{series.name} series, cards {series.first}-{series.last}" in headings
    for event in game.events:
        _table, cells = _row(doc, str(event.number))
        assert cells[1] == f"**{event.name}**" and MARK in cells[2]  # the timing is donjon's reading
        assert (event.apprentice or "-") in cells[4]
    paras = [b.text for b in doc.blocks if isinstance(b, Para)]
    assert any(p.startswith("Cards 19-27: **not known**") for p in paras)


def test_floor_tiles_by_building(docs: dict[str, ReferenceDocument], content: Content) -> None:
    doc = docs["guedelon"]
    game = content.catalog(GUEDELON)
    assert game is not None
    for tile in game.tiles:
        table, cells = _row(doc, f"Floor tile {tile.id}")
        assert cells[1].startswith(str(tile.floor)) and cells[2].startswith(str(tile.ropes))
        if tile.products is None:
            assert cells[3].startswith("**not known**")
        if tile.provenance.of("ropes") is not None:
            assert MARK in cells[2]
        if tile.provenance.of("id") is not None:
            assert MARK in cells[0]
        index = [_texts(r) for r in table.rows].index(cells)
        building = [t.building for t in sorted(game.tiles, key=lambda t: (t.building, t.floor))]
        assert table.groups[index] == sorted(set(building)).index(tile.building)
    _table, a1 = _row(doc, "Floor tile A1")
    assert "Cut stone" in a1[3] and MARK not in a1[3]


def test_guests_by_kind_with_how_they_score(docs: dict[str, ReferenceDocument], content: Content) -> None:
    doc = docs["once-upon-a-castle"]
    game = content.catalog(CASTLE)
    assert game is not None
    for guest in game.guests:
        _table, cells = _row(doc, guest.name)
        assert guest.scoring.describe() in cells[2] and guest.power in cells[3]
        assert f"{{{guest.kind}}}" in cells[1]
    headings = [b.text for b in doc.blocks if isinstance(b, Heading)]
    order = [h for h in headings if h.endswith("guests (Great Architect)")]
    assert order == ["Bolt guests (Great Architect)", "Hourglass guests (Great Architect)",
                     "Crown guests (Great Architect)"]
    _table, princess = _row(doc, "Princess")
    assert princess[2] == "1 VP per tower"


def test_castle_sheet_values_with_house_marks(docs: dict[str, ReferenceDocument]) -> None:
    doc = docs["once-upon-a-castle"]
    _table, towers = _row(doc, "A tower is worth")
    assert towers[1] == f"2 or 5 points {MARK}"
    _table, sun = _row(doc, "Sun")
    assert sun[1] == "4 points"
    track = next(b for b in doc.blocks if isinstance(b, Table) and b.columns[0].title == "Last resident")
    rows = [_texts(r) for r in track.rows]
    assert rows[0][:2] == ["1-5", f"1 point {MARK}"] and rows[-1][:2] == ["26-30", f"12 points {MARK}"]
    assert "(house)" in rows[0][2]


def test_contents_list_the_sections(docs: dict[str, ReferenceDocument]) -> None:
    for doc in docs.values():
        contents = next(b for b in doc.blocks if isinstance(b, Contents))
        headings = [(b.text, b.key, b.level) for b in doc.blocks if isinstance(b, Heading) and b.level <= 2]
        assert list(contents.entries) == headings[2:]  # all but the title and "Contents"


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_pages_are_readable_and_inside_their_margins(docs: dict[str, ReferenceDocument], paper: str) -> None:
    for game, doc in docs.items():
        width, height = PAPERS[paper]
        marks = 0
        pages = layout(doc, (width, height))
        for page in pages:
            for item in page.items:
                if isinstance(item, TextRun):
                    assert item.size >= 8, (game, item.text)
                    assert mm(10) <= item.x and item.x + item.width <= width - mm(10) + 0.01, (game, item.text)
                    assert mm(10) <= item.y <= height - mm(10), (game, item.text)
                elif isinstance(item, IconUse) and item.name == "inferred":
                    marks += 1
        # every mark written is drawn: in the blocks, and once in each page's footer
        written = sum(_marks(block) for block in doc.blocks) + len(pages)
        assert marks == written, game


def _marks(block: object) -> int:
    if isinstance(block, Para):
        return block.text.count(MARK)
    if isinstance(block, Table):
        return sum(p.text.count(MARK) for row in block.rows for cell in row for p in cell.paras)
    return 0


def mm(value: float) -> float:
    return value * 72 / 25.4


def test_styles_are_at_least_8_points() -> None:
    assert min(style.size for style in STYLES.values()) >= 8


def test_every_marked_value_has_its_note_in_the_source_column(docs: dict[str, ReferenceDocument]) -> None:
    """In a table with a Source column, each row (or group of rows: a profession's levels) holding a marked value
    cites the note that explains it; totals are counted from rows that do."""
    checked = 0
    for game, doc in docs.items():
        for table in (b for b in doc.blocks if isinstance(b, Table)):
            if table.columns[-1].title != "Source":
                continue
            groups = table.groups or tuple(range(len(table.rows)))
            for group in dict.fromkeys(groups):
                rows = [_texts(r) for r, g in zip(table.rows, groups) if g == group]
                if rows[0][0] == "**Total**" or not any(MARK in c for r in rows for c in r[:-1]):
                    continue
                assert any("note" in r[-1] for r in rows), (game, rows[0][0])
                checked += 1
    assert checked > 40


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_source_column_names_each_translated_field_in_the_readers_language(content: Content, lang: str) -> None:
    # The French Guédelon reference said where each French name comes from as "nom : règle 001 2", then
    # "finished name : règle 001 7.5", "made at : ...", "finished at : ..." and "building : ...": the catalog's
    # field names, in English, in a reference a French reader holds.
    from generator.catalog.translations import localise
    from generator.reference.sources import FIELD_LABELS

    doc = document(localise(content.game(GUEDELON.id), lang))
    shown = " ".join(" ".join(_texts(row)) for _table, row in _rows(doc))
    for english in ("finished name", "made at", "finished at", "finished_name", "made_at", "finished_at"):
        assert english not in shown, english
    assert "building :" not in shown and "building:" not in shown
    # every field a shipped catalog cites a source for (inferred, or a translation's rulebook section) has a label
    # a translator can translate, rather than its bare name
    for catalog in content.games():
        for prov in _provenances(catalog):
            fields = {f for entry in prov.inferred for f in entry.fields}
            for translation in prov.translations.values():
                fields |= set(translation.rulebook) | {f for e in translation.inferred for f in e.fields}
            assert fields <= set(FIELD_LABELS), (catalog.info.id, sorted(fields - set(FIELD_LABELS)))


def _provenances(catalog: object) -> Iterator[Provenance]:
    """Every provenance a catalog holds, however deep in its records (frozen dataclasses, tuples, mappings)."""
    from collections.abc import Mapping
    from dataclasses import fields, is_dataclass

    if isinstance(catalog, Provenance):
        yield catalog
    elif isinstance(catalog, (list, tuple)):
        for item in catalog:
            yield from _provenances(item)
    elif isinstance(catalog, Mapping):
        for item in catalog.values():
            yield from _provenances(item)
    elif is_dataclass(catalog) and not isinstance(catalog, type):
        for field_ in fields(catalog):
            yield from _provenances(getattr(catalog, field_.name))
