"""The translator's workflow, with Babel: extract the messages, update each language's catalog, compile them.

    python -m generator.i18n.catalogs extract    # generator/locale/donjon.pot from the code, layouts and pages
    python -m generator.i18n.catalogs update     # merge it into every generator/locale/LANG/LC_MESSAGES/donjon.po
    python -m generator.i18n.catalogs compile    # each .po into its .mo (the build does it too: hatch_build.py)
    python -m generator.i18n.catalogs check      # every message extracted is translated in every language

What is extracted (:data:`SOURCES`): `lang._("...")`, `lang.ngettext(...)`, `lang.npgettext(...)` and `N_("...")` in
the Python code; `_('...')` and `ngettext(...)` in the card and sheet layouts' text templates, the `labels` of their
notes boxes and a sheet layout's `words`, `name` and `needs`' `why` (:mod:`generator.i18n.extract`); `_('...')` in
the preview page's jinja2 template. The command line's own messages are English but for `donjon score` and `donjon
history`, which take `--lang`. This module is for developers and the build: nothing at run time imports it, except
to compile a catalog edited since it was last compiled (and keep it compiled beside it: :func:`keep_compiled`).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator.i18n import DOMAIN, INTERFACE, LOCALE_DIR

ROOT = LOCALE_DIR.parent.parent
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
#: The keywords marking a message in Python code (Babel's defaults, plus N_ for constants; pgettext's and
#: npgettext's first argument is the message's context; `Language.nformat` and generator.i18n's `phrase`/`phrase_n`,
#: the messages of a command about a user's files, say theirs as `_`/`ngettext` do).
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3), "N_": None, "nformat": (1, 2), "phrase": None, "phrase_n": (1, 2)}
#: Where messages are extracted from: (folder under the repository, Babel's method map for it).
SOURCES: tuple[tuple[str, list[tuple[str, str]]], ...] = (
    ("generator", [("**.py", "python")]),
    ("scoring", [("**.py", "python")]),
    ("templates/layouts", [("**.yaml", "generator.i18n.extract:extract_layout")]),
    ("templates/sheets", [("**.yaml", "generator.i18n.extract:extract_layout")]),
    ("templates/preview", [("**.html", "jinja2.ext:babel_extract")]),
    ("templates/web", [("*.html", "jinja2.ext:babel_extract")]),
)


def po_files() -> dict[str, Path]:
    """Each translated language's catalog (English is the source language: it has none)."""
    return {code: LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po" for code in INTERFACE if code != "en"}


def extract() -> Any:
    """Every message of the sources, as a Babel catalog (with the file and line of each)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="donjon", domain=DOMAIN, charset="utf-8", fuzzy=False)
    for folder, method_map in SOURCES:
        options = {"**.html": {"extensions": "", "trimmed": "true"}}
        found = extract_from_dir(str(ROOT / folder), method_map, options, KEYWORDS, strip_comment_tags=True)
        for filename, line, message, comments, context in found:
            where = f"{folder}/{filename}"
            catalog.add(message, None, [(where, line)], auto_comments=comments, context=context)
    return catalog


def _write_po(path: Path, catalog: Any) -> None:
    from babel.messages.pofile import write_po

    buffer = io.BytesIO()
    write_po(buffer, catalog, width=116, omit_header=False, sort_output=False, include_previous=False,
             ignore_obsolete=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(undated(buffer.getvalue().decode("utf-8")), encoding="utf-8")


def undated(text: str) -> str:
    """A .po file without the header's dates, which change at every run: the same messages give the same bytes."""
    return "\n".join(line for line in text.split("\n") if not line.startswith(('"POT-Creation-Date', '"PO-Revision')))


def read(path: Path) -> Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as stream:
        return read_po(stream, domain=DOMAIN)


def update() -> None:
    """Write the template, and merge it into each language's catalog (new messages come in untranslated)."""
    template = extract()
    _write_po(TEMPLATE, template)
    for code, path in po_files().items():
        from babel.messages.catalog import Catalog

        catalog = read(path) if path.is_file() else Catalog(locale=code, domain=DOMAIN, project="donjon")
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        _write_po(path, catalog)


def compiled(po: Path) -> io.BytesIO:
    """The `.mo` of a catalog, in memory."""
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, read(po), use_fuzzy=False)
    buffer.seek(0)
    return buffer


def keep_compiled(data: bytes, mo: Path) -> bool:
    """Write a compiled catalog to `mo`, whole or not at all (a temporary file renamed over it: a process reading
    it meanwhile, or another writing the same bytes, never meets it half written); False, and nothing left behind,
    where it cannot be written (an installed donjon's read-only folder), which then compiles it in memory again."""
    import os
    import tempfile

    try:
        handle, temporary = tempfile.mkstemp(prefix=".donjon-", suffix=".mo-tmp", dir=mo.parent)
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as stream:
            os.fchmod(stream.fileno(), 0o644)  # readable by all, as a file written plainly is (mkstemp: 0600)
            stream.write(data)
        os.replace(temporary, mo)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
        return False
    return True


def compile_all(into: Path | None = None) -> list[Path]:
    """Compile every catalog to its `.mo`, beside it or under `into` (same relative path); the files written."""
    written = []
    for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        target = (into / po.relative_to(LOCALE_DIR.parent.parent) if into else po).with_suffix(".mo")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(compiled(po).getvalue())
        written.append(target)
    return written


def gaps() -> Iterator[str]:
    """Every message that is extracted but missing or untranslated in a language, and every translated one that
    no longer is extracted: one line each, naming the language and where the message is used."""
    template = extract()
    for code, path in po_files().items():
        if not path.is_file():
            yield f"{code}: {path} is missing"
            continue
        catalog = read(path)
        for message in template:
            if not message.id:
                continue
            found = catalog.get(message.id, message.context)
            where = ", ".join(f"{f}:{n}" for f, n in message.locations[:2])
            shown = message.id if isinstance(message.id, str) else message.id[0]
            if found is None:
                yield f"{code}: {shown!r} ({where}) is not in {path.name}: run `python -m generator.i18n.catalogs update`"
            elif found.fuzzy or not (all(found.string) if isinstance(found.string, (list, tuple)) else found.string):
                yield f"{code}: {shown!r} ({where}) is not translated"
        for message in catalog:
            if message.id and template.get(message.id, message.context) is None:
                shown = message.id if isinstance(message.id, str) else message.id[0]
                yield f"{code}: {shown!r} is in {path.name} but no longer used: run update"


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "extract":
        _write_po(TEMPLATE, extract())
        print(f"wrote {TEMPLATE.relative_to(ROOT)}")
    elif command == "update":
        update()
        print("updated " + ", ".join(str(p.relative_to(ROOT)) for p in po_files().values()))
    elif command == "compile":
        for path in compile_all():
            print(f"wrote {path.relative_to(ROOT)}")
    elif command == "check":
        problems = list(gaps())
        for line in problems:
            print(line, file=sys.stderr)
        return 1 if problems else 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
