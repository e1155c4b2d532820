"""The safe YAML/JSON reader: values with their lines, and hostile input refused with a clear message."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.yamlio import MAX_DEPTH, load_file, loads_json, loads_yaml, read_text


def test_values_and_their_lines() -> None:
    doc = loads_yaml("game: guildhall\nplayers:\n  - name: Ana\n    vp_cards: [5, 7]\n  - name: Ben\n", "t.yaml")
    assert doc.data == {"game": "guildhall", "players": [{"name": "Ana", "vp_cards": [5, 7]}, {"name": "Ben"}]}
    assert doc.line(("game",)) == 1
    assert doc.line(("players", 0, "vp_cards")) == 4
    assert doc.line(("players", 1, "name")) == 5
    # a path below a scalar falls back to the nearest known ancestor
    assert doc.line(("players", 1, "name", "deeper")) == 5


def test_a_json_file_on_several_lines_gives_each_value_its_line() -> None:
    """A pretty-printed JSON end state names the line of a broken value, as a YAML one does (it said line 1)."""
    import json

    ana = {"name": "Ana", "guildhall": {"hunter": ["red", "red"]}}
    ben = {"name": 'Ben \\ "x" \u00e9 ]},', "vp_cards": [], "vp_tokens": -1.5e0}  # JSON's own characters in text
    data: dict[str, object] = {"game": "guildhall", "players": [ana, ben], "ended_by": None, "empty": {},
                               "flags": [True, False]}
    text = json.dumps(data, indent=2)
    doc = loads_json(text, "t.json")
    assert doc.data == data
    numbered = text.splitlines()
    for path, needle in ((("game",), '"game"'), (("players", 0, "guildhall", "hunter"), '"hunter"'),
                         (("players", 0, "guildhall", "hunter", 1), '"red"'),
                         (("players", 1, "vp_tokens"), '"vp_tokens"'), (("ended_by",), '"ended_by"'),
                         (("flags", 1), "false")):
        line = doc.line(path)
        assert line is not None and needle in numbered[line - 1], (path, line)
    assert [doc.line(("players", 0, "guildhall", "hunter", i)) for i in (0, 1)] == [8, 9]
    # on one line, every value is on line 1
    assert loads_json(json.dumps(data), "t.json").line(("players", 1, "vp_tokens")) == 1


def test_a_json_number_too_large_for_a_float_is_refused_with_its_line() -> None:
    with pytest.raises(InputError) as caught:
        loads_json('{"game": "guedelon",\n "players": -1e400}', "inf.json")
    assert caught.value.line == 2 and "holds -1e400, which is not a finite number" in str(caught.value)


def test_an_integer_too_long_to_convert_is_named_with_its_line() -> None:
    with pytest.raises(InputError) as caught:
        loads_json('{"game": "guedelon",\n "players": ' + "9" * 5000 + "}", "big.json")
    assert caught.value.line == 2 and "5,000 digits" in str(caught.value)
    assert "sys." not in str(caught.value)
    with pytest.raises(InputError) as caught:
        loads_yaml("game: guedelon\nplayers: " + "9" * 5000 + "\n", "big.yaml")
    assert caught.value.line == 2 and "5,000 digits" in str(caught.value)
    assert "sys." not in str(caught.value)


def test_scalars_resolve_like_yaml_but_dates_stay_text() -> None:
    doc = loads_yaml("a: 1\nb: 2.5\nc: true\nd: ~\ne: 2024-01-02\nf: '7'\n", "t.yaml")
    assert doc.data == {"a": 1, "b": 2.5, "c": True, "d": None, "e": "2024-01-02", "f": "7"}


def test_empty_document_is_none() -> None:
    assert loads_yaml("", "e.yaml").data is None
    assert loads_yaml("# only a comment\n", "e.yaml").data is None


@pytest.mark.parametrize(("text", "message", "line"), [
    ("a: [1, 2\n", "is not valid YAML", 2),
    ("a: 1\na: 2\n", "repeats the key 'a'", 2),
    ("a: !!python/object:os.system x\n", "uses the tag", 1),
    ("{[1]: 2}\n", "as a mapping key", 1),
    ("a: 1\n---\nb: 2\n", "more than one YAML document", 2),
    ("a: *nowhere\n", "alias *nowhere names no anchor", 1),
    ("a: 1\nb: \x07\n", "control character U+0007", 2),
    # a tab where YAML wants spaces, as an editor inserts it: said in those words, with its column
    ("scoring:\n  - {name: x}\n\t- {name: y}\n", "is not valid YAML: a tab at column 1, where YAML takes spaces", 3),
    ("名前: Élodie\nb:\n  c: 1\n\td: 2\n", "is not valid YAML: a tab at column 1, where YAML takes spaces", 4),
    ("x: " + "9" * 5000 + "\n", "holds a whole number of 5,000 digits", 1),
])
def test_bad_yaml_names_the_problem_and_line(text: str, message: str, line: int) -> None:
    with pytest.raises(InputError) as err:
        loads_yaml(text, "bad.yaml")
    assert message in str(err.value)
    assert err.value.line == line
    assert str(err.value).startswith(f"bad.yaml:{line}: ")


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,          # libyaml's own composer would crash the interpreter here
    "- " * 100_000 + "x",
    "a:\n" + "".join("  " * i + "- \n" for i in range(1, 200)),
])
def test_deep_nesting_is_refused(text: str) -> None:
    # how fast: benchmarks/run.py, case `hostile`
    with pytest.raises(InputError, match=f"nested more than {MAX_DEPTH} levels"):
        loads_yaml(text, "deep.yaml")


def test_alias_bomb_is_refused_before_it_expands() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    with pytest.raises(InputError, match="alias bomb"):
        loads_yaml("\n".join(lines), "bomb.yaml")


def test_small_aliases_are_fine() -> None:
    doc = loads_yaml("base: &b {x: 1}\ncopy: *b\n", "t.yaml")
    assert doc.data["copy"] == {"x": 1}


@pytest.mark.parametrize(("text", "message"), [
    ("{", "is not valid JSON"),
    ("NaN", "not a number donjon accepts"),
    ("[" * 100_000 + "]" * 100_000, "nested more than"),
])
def test_bad_json(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        loads_json(text, "bad.json")


def test_files_binary_non_utf8_bom_missing_and_too_large(tmp_path: Path) -> None:
    binary = tmp_path / "junk.yaml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(InputError, match="not a text file"):
        read_text(binary)
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"name: ok\ntext: caf\xe9\n")
    with pytest.raises(InputError, match="not UTF-8") as err:
        read_text(latin)
    assert err.value.line == 2
    bom = tmp_path / "bom.yaml"
    bom.write_bytes("\ufeffa: 1\n".encode())
    assert load_file(bom).data == {"a": 1}
    with pytest.raises(InputError, match="no such file"):
        read_text(tmp_path / "missing.yaml")
    with pytest.raises(InputError, match="is a folder"):
        read_text(tmp_path)
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" * 10)
    with pytest.raises(InputError, match="more than the"):
        read_text(big, max_bytes=20)
    as_json = tmp_path / "x.json"
    as_json.write_text('{"a": [1, 2]}')
    assert load_file(as_json).data == {"a": [1, 2]}


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_a_file_saved_as_utf16_or_utf32_with_its_mark_is_read(tmp_path: Path, codec: str) -> None:
    # Windows Notepad's "Unicode" is UTF-16 LE led by its byte-order mark: it holds NUL bytes, yet it is text
    saved = tmp_path / "notepad.yaml"
    saved.write_bytes("\ufeffgame: guédelon\nrounds: 12\n".encode(codec))
    assert load_file(saved).data == {"game": "guédelon", "rounds": 12}


def test_a_utf16_file_cut_in_the_middle_of_a_character_names_its_line(tmp_path: Path) -> None:
    cut = tmp_path / "cut.yaml"
    cut.write_bytes("\ufeffa: 1\nb: 2\n".encode("utf-16-le") + b"c")
    with pytest.raises(InputError, match="UTF-16") as err:
        read_text(cut)
    assert err.value.line == 3
    nul = tmp_path / "nul.yaml"
    nul.write_bytes("\ufeffa: 1\n\x00".encode("utf-16-le"))
    with pytest.raises(InputError, match="not a text file") as err:
        read_text(nul)
    assert err.value.line == 2


@pytest.mark.parametrize("parser", ["libyaml", "python"])
@pytest.mark.parametrize(("text", "line", "english", "french"), [
    ("game: [\n", 2, "a value is expected here", "une valeur est attendue ici"),
    ("a: [1, 2\nb: 3\n", 2, "a list in brackets is not closed", "une liste entre crochets n’est pas fermée"),
    ("a: {x: 1\nb: 2\n", 2, "a mapping in braces is not closed", "un tableau de clés entre accolades"),
    ("a: 1\n b: 2\n", 2, "a ': ' where no key can be", "un ': ' là où aucune clé ne peut être"),
    ('a: "x\n', 2, "a quoted value is never closed", "une valeur entre guillemets n’est jamais fermée"),
    ("- a\nb: 1\n", 2, "a key among a list's items", "une clé parmi les éléments d’une liste"),
    ("a:\n  b: 1\n c: 2\n", 3, "this line is not indented as the keys", "cette ligne n’est pas indentée comme"),
    ("a: @x\n", 1, "a value begins with a character YAML keeps", "une valeur commence par un caractère"),
    ('a: "\\q"\n', 1, "a backslash in double quotes", "une barre oblique inverse"),
    ('"a" b\n', 1, "more text after a value that is complete", "du texte après une valeur déjà complète"),
])
def test_the_parsers_problems_are_said_in_donjons_words_in_every_language(
        monkeypatch: pytest.MonkeyPatch, parser: str, text: str, line: int, english: str, french: str) -> None:
    """A broken YAML file is told what is wrong and what to change in donjon's words, which `--lang fr|de`
    translates (`history edit`, `score`): they were the parser's words ("did not find expected node content"),
    English inside a French message. libyaml's parser and PyYAML's own (a build without libyaml) alike."""
    import yaml

    from generator import yamlio
    from generator.i18n import language

    monkeypatch.setattr(yamlio, "_Parser", yaml.CSafeLoader if parser == "libyaml" else yaml.SafeLoader)
    with pytest.raises(InputError) as err:
        loads_yaml(text, "bad.yaml")
    assert str(err.value).startswith(f"bad.yaml:{line}: is not valid YAML: {english}")
    said = str(err.value.said(language("fr"))).replace("\u00a0", " ")
    assert said.startswith(f"bad.yaml:{line}: n’est pas du YAML valide : {french}"), said
    assert "expected" not in said and "found" not in said
