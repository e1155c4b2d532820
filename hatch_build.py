"""Build hook: compile the translation catalogs (generator/locale/LANG/LC_MESSAGES/donjon.po) to the .mo files
gettext reads, with Babel, for every wheel, editable ones included.

The .mo files are written beside their .po (they are not kept in git: .gitignore) and shipped as artifacts, so
that a wheel, an editable install and a source checkout all find them where generator.i18n looks. A catalog
edited after that is compiled again in memory when it is first used, so nothing ever reads a stale one.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompileCatalogs(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path(self.root, "generator", "locale").glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as stream:
                catalog = read_po(stream)
            buffer = io.BytesIO()
            write_mo(buffer, catalog, use_fuzzy=False)
            # written every time, so that it is newer than its .po (a source checkout compiles an older one again);
            # whole or not at all (a temporary file renamed over it): a donjon of this checkout reading the
            # catalog meanwhile (the test suite builds a wheel while other tests run) never finds it half written
            handle, temporary = tempfile.mkstemp(prefix=".donjon-", suffix=".mo-tmp", dir=po.parent)
            try:
                os.fchmod(handle, 0o644)  # readable by all, as a file written plainly is (mkstemp makes it 0600)
                with os.fdopen(handle, "wb") as stream:
                    stream.write(buffer.getvalue())
                os.replace(temporary, po.with_suffix(".mo"))
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
            build_data["artifacts"].append(str(po.with_suffix(".mo").relative_to(self.root)))
