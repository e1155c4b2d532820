"""Incremental rebuilds (`donjon build --watch`, generator.build.incremental): after every kind of change, the files
the watch leaves are byte for byte those a new build of the same files writes, and only the files that changed
were written (the others are the very files, by inode and modification time)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pictures
import pytest
from hypothesis import given
from hypothesis import strategies as st
from render_helpers import make_deck

import generator.output as output
from generator.build.decks import build
from generator.build.options import BuildOptions
from generator.build.watch import Reporter, WatchState, run_once
from generator.content import all_decks, load_content, select
from generator.layout.load import clear_cache
from generator.render.imposition import PrintOptions
from tests.conftest import REPO

OPTIONS = BuildOptions(PrintOptions(), ("pdf", "svg"))


def tree(out: Path) -> dict[str, bytes]:
    """Every file under an output folder, by its path in it (the build's staging folders aside)."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(out).parts)}


def stamps(out: Path) -> dict[str, tuple[int, int]]:
    """Inode and modification time of every file under an output folder: what tells a file kept from one written."""
    return {name: (os.stat(out / name).st_ino, os.stat(out / name).st_mtime_ns) for name in tree(out)}


def fresh(content: Path, out: Path, options: BuildOptions = OPTIONS) -> dict[str, bytes]:
    """What a new build of the content folder writes."""
    clear_cache()
    shutil.rmtree(out, ignore_errors=True)
    loaded = load_content(content)
    build(loaded, select(all_decks(loaded), "all"), "all", out, options, lambda n: None)
    return tree(out)


class Watch:
    """A watch's builds, in process: `save` a change, then `build` what it calls for, as the watch does."""

    def __init__(self, content: Path, out: Path, options: BuildOptions = OPTIONS) -> None:
        self.content, self.out, self.options = content, out, options
        self.state = WatchState()
        self.lines: list[str] = []
        self.build(None)

    def build(self, changed: list[Path] | None) -> list[str]:
        self.lines.clear()
        run_once(self.content, "all", self.out, self.options, None, self.state,
                 Reporter(self.lines.append, self.lines.append), changed)
        return list(self.lines)

    def same_as_new(self, tmp: Path) -> None:
        expected = fresh(self.content, tmp / "fresh", self.options)
        found = tree(self.out)
        assert sorted(found) == sorted(expected)
        assert [name for name in expected if found[name] != expected[name]] == []


def _edit(path: Path, change: Callable[[str], str]) -> Path:
    text = path.read_text(encoding="utf-8")
    changed = change(text)
    assert changed != text, f"the test's change left {path.name} as it was"
    path.write_text(changed, encoding="utf-8")
    return path


@pytest.fixture
def skirmish(tmp_path: Path) -> Iterator[tuple[Path, Watch]]:
    """The sample deck with everything (art of three kinds, a layout and a back per card picked by a column, icons
    and fonts of its own, a shared layout, copies), watched in process."""
    content = tmp_path / "decks"
    for part in ("skirmish", "shared", "fonts"):
        shutil.copytree(REPO / "content" / "examples" / "decks" / part, content / part)
    yield content, Watch(content, tmp_path / "out")


def _written(before: dict[str, tuple[int, int]], out: Path) -> set[str]:
    """The files of `before` that were written since (a new inode or modification time), and those new."""
    after = stamps(out)
    return {name for name in after if before.get(name) != after[name]}


def test_each_change_rebuilds_what_it_touches_and_gives_the_files_of_a_new_build(
        skirmish: tuple[Path, Watch], tmp_path: Path) -> None:
    content, watch = skirmish
    deck, out = content / "skirmish", watch.out
    svg = "decks/skirmish/svg"
    watch.same_as_new(tmp_path)

    # a row's text: that card's face only (its back reads its faction, which did not change: left in place); the
    # folder is updated file by file, not replaced
    before, folder = stamps(out), os.stat(out / svg).st_ino
    lines = watch.build([_edit(deck / "cards.csv", lambda t: t.replace("any unit.", "any two units."))])
    assert "svg/ (1 of 18 files written)" in lines[-1], lines
    assert _written(before, out) == {f"{svg}/2.svg", "decks/skirmish.pdf"}
    assert os.stat(out / svg).st_ino == folder
    watch.same_as_new(tmp_path)

    # a picture: the cards that show it
    before = stamps(out)
    pictures.png(deck / "art" / "knight.png", (320, 200), colour="#aa2222")
    watch.build([deck / "art" / "knight.png"])
    assert _written(before, out) == {f"{svg}/1.svg", "decks/skirmish.pdf"}
    watch.same_as_new(tmp_path)

    # a layout: every card drawn with it (the units), not the spells
    before = stamps(out)
    watch.build([_edit(deck / "unit.yaml", lambda t: t.replace("height: 7.25mm, radius: 1.5mm", "height: 7mm, "
                                                                                                "radius: 2mm"))])
    assert _written(before, out) == {f"{svg}/{n}.svg" for n in (1, 2, 3, 4, 5)} | {"decks/skirmish.pdf"}
    watch.same_as_new(tmp_path)
    assert poppler_problems(out) == {}  # the copied units name their gradients' shadings

    # a character no card used yet, on the first card: every later character's code in the font subsets moves
    watch.build([_edit(deck / "cards.csv", lambda t: t.replace("1,Knight,", "1,Knight Zoë,"))])
    watch.same_as_new(tmp_path)

    # rows reordered: no card file changes, the sheets do
    before = stamps(out)
    lines = (deck / "cards.csv").read_text(encoding="utf-8").splitlines()
    (deck / "cards.csv").write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n", encoding="utf-8")
    watch.build([deck / "cards.csv"])
    assert _written(before, out) == {"decks/skirmish.pdf"}
    watch.same_as_new(tmp_path)

    # a row added and a row removed, a count changed
    watch.build([_edit(deck / "cards.csv", lambda t: t + '11,Squire,unit,1,1,Kingdom,2,art/knight.png,"Eager."\n')])
    assert (out / svg / "11.svg").exists()
    watch.same_as_new(tmp_path)
    watch.build([_edit(deck / "cards.csv", lambda t: "\n".join(
        line for line in t.splitlines() if not line.startswith("7,Frost")) + "\n")])
    assert not (out / svg / "7.svg").exists()
    watch.same_as_new(tmp_path)
    before = stamps(out)
    watch.build([_edit(deck / "cards.csv", lambda t: t.replace("Kingdom,3,art/archer", "Kingdom,5,art/archer"))])
    assert _written(before, out) == {"decks/skirmish.pdf"}
    watch.same_as_new(tmp_path)

    # a layout that reads the deck: a card added redraws every card drawn with it
    watch.build([_edit(content / "shared" / "card.yaml", lambda t: t.replace(
        'text: "{{ Text }}"', 'text: "{{ Text }} ({{ deck.cards }})"'))])
    watch.same_as_new(tmp_path)
    before = stamps(out)
    watch.build([_edit(deck / "cards.csv", lambda t: t + '12,Page,unit,1,1,Kingdom,1,art/knight.png,"Runs."\n')])
    assert {f"{svg}/{n}.svg" for n in (1, 2, 6, 8, 9)} <= _written(before, out)
    watch.same_as_new(tmp_path)

    # the deck renamed: every file's title
    watch.build([_edit(deck / "deck.yaml", lambda t: t.replace("name: Skirmish", "name: Skirmish II"))])
    watch.same_as_new(tmp_path)
    assert poppler_problems(out) == {}


def test_a_mistake_is_reported_the_files_stay_and_the_fix_builds_them(skirmish: tuple[Path, Watch],
                                                                       tmp_path: Path) -> None:
    content, watch = skirmish
    deck, out = content / "skirmish", watch.out
    good = tree(out)
    lines = watch.build([_edit(deck / "cards.csv", lambda t: t.replace("art/archer.png", "art/nothing.png"))])
    assert any("nothing.png" in line and "cards.csv:3" in line for line in lines), lines
    assert tree(out) == good
    watch.build([_edit(deck / "cards.csv", lambda t: t.replace("art/nothing.png", "art/archer.png").replace(
        "Dragon enters", "Dragon lands"))])
    watch.same_as_new(tmp_path)


def test_a_mistake_while_cards_are_updated_in_place_leaves_every_file(
        skirmish: tuple[Path, Watch], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first card's new file already staged for the folder updated in place, a later card fails: nothing
    moved, nothing left behind."""
    content, watch = skirmish
    deck, out = content / "skirmish", watch.out
    good, before = tree(out), stamps(out)
    staged: list[str] = []
    write = output.UpdatedFolder.write

    def noted(self: output.UpdatedFolder, name: str, data: bytes) -> int:
        staged.append(name)
        return write(self, name, data)

    monkeypatch.setattr(output.UpdatedFolder, "write", noted)
    lines = watch.build([_edit(deck / "cards.csv", lambda t: t.replace("while the Knight", "as long as the Knight")
                               .replace("1,art/dragon.png", "1,art/nothing.png"))])
    assert any("nothing.png" in line and "cards.csv:4" in line for line in lines), lines
    assert staged == ["1.svg"]
    assert tree(out) == good and stamps(out) == before
    assert [p.name for p in out.rglob(".*")] == []
    watch.build([_edit(deck / "cards.csv", lambda t: t.replace("1,art/nothing.png", "1,art/dragon.png"))])
    watch.same_as_new(tmp_path)


def test_a_file_changed_by_something_else_is_written_again(skirmish: tuple[Path, Watch], tmp_path: Path) -> None:
    content, watch = skirmish
    svg = watch.out / "decks" / "skirmish" / "svg"
    (svg / "4.svg").write_text("<svg/>", encoding="utf-8")  # the folder is still updated in place: 4.svg rewritten
    watch.build([_edit(content / "skirmish" / "cards.csv", lambda t: t.replace("Every enemy", "Each enemy"))])
    watch.same_as_new(tmp_path)
    (svg / "4.svg").write_text("<svg/>", encoding="utf-8")
    (svg / "5.svg").unlink()  # a file missing, another that no build writes: the folder is made whole again
    (svg / "notes.txt").write_text("mine", encoding="utf-8")
    watch.build([_edit(content / "skirmish" / "cards.csv", lambda t: t.replace("Each enemy", "Every enemy"))])
    watch.same_as_new(tmp_path)


def poppler_problems(out: Path) -> dict[str, str]:
    """What poppler says, rendering every page of every PDF under `out`, beyond silence (a shading, graphics state,
    form or font a page names and its resources lack is an error it prints): by file."""
    problems = {}
    for pdf in sorted(out.rglob("*.pdf")):
        done = subprocess.run(["pdftoppm", "-r", "12", "-png", str(pdf), str(out / ".poppler")], capture_output=True,
                              text=True, check=False)
        for page in out.glob(".poppler*.png"):
            page.unlink()
        if done.returncode != 0 or done.stderr.strip():
            problems[str(pdf.relative_to(out))] = f"exit {done.returncode}: {done.stderr.strip()}"
    return problems


@pytest.fixture
def pieces(tmp_path: Path) -> Iterator[tuple[Path, Watch]]:
    """The sample decks that draw with the rest of the vocabulary, watched in process: hexagonal tiles (each
    picture seen through a mask and the back's picture see-through: transparency groups, their forms and graphics
    states; a gradient; outlined text, hatching, dashes) and round tokens (pictures clipped and turned, an SVG
    crest recoloured, icons of their own), with the market whose pictures the tokens show (clipped to rounded
    corners, a hatched panel)."""
    content = tmp_path / "decks"
    for part in ("tiles", "tokens", "market", "shared", "fonts"):
        shutil.copytree(REPO / "content" / "examples" / "decks" / part, content / part)
    # tiles known by their names, so that a row added before them leaves their drawings kept
    _edit(content / "tiles" / "deck.yaml", lambda t: t + "id_column: Name\n")
    yield content, Watch(content, tmp_path / "out")


def test_drawings_of_the_whole_vocabulary_copied_into_the_next_document_are_those_a_new_build_draws(
        pieces: tuple[Path, Watch], tmp_path: Path) -> None:
    """The PDF memo copies a tile's operators, which name its transparency groups' forms, their graphics states
    and shadings: each step gives the files of a new build, and poppler reads every page without a word."""
    content, watch = pieces
    tiles, out = content / "tiles", watch.out
    watch.same_as_new(tmp_path)
    assert poppler_problems(out) == {}

    # one tile's text: that tile only (its copies are a form; the other tiles' operators are copied)
    before = stamps(out)
    lines = watch.build([_edit(tiles / "cards.csv", lambda t: t.replace("may cross it.", "may climb it."))])
    assert "svg/ (1 of 5 files written)" in " ".join(lines), lines
    assert _written(before, out) == {"decks/tiles/svg/high-pass.svg", "decks/tiles.pdf"}
    watch.same_as_new(tmp_path)

    # a tile of one copy: drawn into the page itself, its masked picture's form named in the page's resources
    watch.build([_edit(tiles / "cards.csv", lambda t: t.replace("Mountain,3,2,", "Mountain,3,1,"))])
    watch.same_as_new(tmp_path)

    # a tile first: every later tile's transparency groups are numbered one further, so no copy of theirs holds
    # and each is drawn anew with the forms made for the copy tried
    watch.build([_edit(tiles / "cards.csv", lambda t: t.replace(
        "Name,Terrain,Move,Count,Text\n", "Name,Terrain,Move,Count,Text\nDeep lake,Lake,-,1,Zoë swims here.\n"))])
    watch.same_as_new(tmp_path)
    assert poppler_problems(out) == {}

    # the see-through back's layout: the back is drawn anew, the faces' operators copied
    watch.build([_edit(tiles / "tile-back.yaml", lambda t: t.replace("opacity: 0.35", "opacity: 0.5"))])
    watch.same_as_new(tmp_path)

    # a tile removed, and a token's colour (its background, its recoloured crest kept)
    watch.build([_edit(tiles / "cards.csv", lambda t: "\n".join(
        line for line in t.splitlines() if not line.startswith("Old forest")) + "\n")])
    watch.build([_edit(content / "tokens" / "deck.yaml", lambda t: t.replace(
        "Ward, Value: \"\", Colour: Kingdom", "Ward, Value: \"\", Colour: Blood"))])
    watch.same_as_new(tmp_path)
    assert poppler_problems(out) == {}


def test_a_proof_in_light_ink_with_guides_is_watched_as_it_is_built(tmp_path: Path) -> None:
    """`--watch --guides --ink light` on hexagonal pieces: the kept drawings are the guided, lightened ones, and a
    change to the deck's shape draws every piece again."""
    folder = tmp_path / "decks" / "d"
    pictures.png(folder / "a.png", (40, 40), colour="#336699")
    pictures.png(folder / "b.png", (40, 40), colour="#996633")
    centred = {"x: 5mm, y: 5mm, width: 20mm": "x: 50% - 10mm, y: 15mm, width: 20mm",
               "x: 5mm, y: 30mm, width: 100% - 10mm": "x: 50% - 12mm, y: 38mm, width: 24mm",
               "x: 5mm, y: 5mm, width: 100% - 10mm": "x: 50% - 12mm, y: 40mm, width: 24mm"}
    layout, back = LAYOUT.replace("SIZE", "9pt"), BACK
    for old, new in centred.items():  # inside a hexagon's safe area
        layout, back = layout.replace(old, new), back.replace(old, new)
    make_deck(folder, _rows(3), layout=layout, back=back, deck_id="d", extra="count_column: count\nshape: hexagon\n")
    proof = OPTIONS._replace(guides=True, ink="light")
    watch = Watch(tmp_path / "decks", tmp_path / "out", proof)
    unguided = fresh(tmp_path / "decks", tmp_path / "unguided", OPTIONS._replace(ink="light"))
    drawn = tree(watch.out)
    for name in ("decks/d/svg/001-c0.svg", "decks/d/svg/backs/001-c0.svg"):  # the guides are drawn on both sides
        assert drawn[name] != unguided[name]
    _apply(folder, ("text", 1, "oak"), 0)
    watch.build([folder / "cards.csv"])
    watch.same_as_new(tmp_path)
    watch.build([_edit(folder / "deck.yaml", lambda t: t.replace("shape: hexagon", "shape: circle"))])
    watch.same_as_new(tmp_path)


# --- the property: any edits, in any order ----------------------------------------------------------------------

LAYOUT = """\
background: "#ffffff"
styles:
  body: {font: open-sans, size: SIZE, min_size: 6pt, colour: "#000000"}
boxes:
  art: {kind: image, x: 5mm, y: 5mm, width: 20mm, height: 20mm, src: "{{ Art }}"}
  body: {kind: text, x: 5mm, y: 30mm, width: 100% - 10mm, height: 30mm, style: body, text: "{{ Text }}"}
"""
BACK = """\
background: "#223344"
styles:
  name: {font: open-sans, size: 9pt, min_size: 6pt, colour: "#ffffff"}
boxes:
  name: {kind: text, x: 5mm, y: 5mm, width: 100% - 10mm, height: 10mm, style: name, text: "{{ name }}"}
"""
WORDS = ["oak", "ash", "Élan", "þorn", "ω", "kiln", "zoë", "fir"]

# an edit: (what, which row, a word)
edits = st.lists(st.tuples(st.sampled_from(["text", "add", "remove", "swap", "layout", "picture", "count",
                                            "back"]), st.integers(0, 7), st.sampled_from(WORDS)),
                 min_size=1, max_size=4)


def _rows(count: int) -> list[dict[str, str]]:
    return [{"name": f"C{i}", "count": "1", "Art": f"{'ab'[i % 2]}.png", "Text": WORDS[i]} for i in range(count)]


def _apply(folder: Path, edit: tuple[str, int, str], serial: int) -> None:
    import csv
    import io

    what, which, word = edit
    table = folder / "cards.csv"
    rows = list(csv.DictReader(io.StringIO(table.read_text(encoding="utf-8"))))
    row = which % len(rows)
    if what == "text":
        rows[row]["Text"] += f" {word}"
    elif what == "add":
        rows.insert(row, {"name": f"N{serial}", "count": "1", "Art": "b.png", "Text": word})
    elif what == "remove" and len(rows) > 1:
        del rows[row]
    elif what == "swap":
        rows[0], rows[row] = rows[row], rows[0]
    elif what == "count":
        rows[row]["count"] = str(1 + (int(rows[row]["count"]) % 3))
    elif what == "layout":
        (folder / "layout.yaml").write_text(LAYOUT.replace("SIZE", f"{9 + serial % 3}pt"), encoding="utf-8")
    elif what == "picture":
        pictures.png(folder / f"{'ab'[which % 2]}.png", (40 + serial, 40), colour=f"#{serial % 10}0{which}0a0")
    elif what == "back":
        rows[row]["name"] += word
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["name", "count", "Art", "Text"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    table.write_text(buffer.getvalue(), encoding="utf-8")


@given(edits)
def test_any_edits_give_the_files_of_a_new_build(tmp_path_factory: pytest.TempPathFactory,
                                                 changes: list[tuple[str, int, str]]) -> None:
    tmp = tmp_path_factory.mktemp("edits")
    folder = tmp / "decks" / "d"
    pictures.png(folder / "a.png", (40, 40), colour="#336699")
    pictures.png(folder / "b.png", (40, 40), colour="#996633")
    make_deck(folder, _rows(3), layout=LAYOUT.replace("SIZE", "9pt"), back=BACK, deck_id="d",
              extra="count_column: count\n")
    watch = Watch(tmp / "decks", tmp / "out")
    for serial, change in enumerate(changes):
        _apply(folder, change, serial)
        watch.build([folder / "cards.csv", folder / "layout.yaml", folder / "a.png", folder / "b.png"])
    watch.same_as_new(tmp)
