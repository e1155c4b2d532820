"""`donjon check-print FILE.pdf --service NAME`: would a print service take this PDF, and if not, why."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import typer

from generator.commands import OWN_WORDS_LANG_HELP, reports_errors

if TYPE_CHECKING:
    from generator.prepress.services import Service

HELP = """\
Preflight a PDF for a print service: page by page, what the service would refuse or change.

Checks any PDF (donjon's, or a designer's own export): page size, TrimBox and bleed, text inside the safe area
(and pictures and shapes drawn as paths, icons or text as outlines: one inside the cut that comes into the safe
margin is warned),
fonts embedded (or text as outlines where the service asks), picture resolution at print size (below the
service's minimum: refused; below 300 dpi: warned), colour spaces (no RGB in a CMYK file), the highest total ink
and where, page count and order, the OutputIntent and PDF/X version, annotations and form fields on
the printed area of a PDF/X file, and transparency and JPEG 2000 pictures where PDF/X-1a forbids them.
A rule the service states is refused when broken; one donjon could not confirm from the service's own pages
only warns, except where the file would print wrong on any press (a font not embedded, pages of several sizes, a
cut that is no rectangle): refused for every service, the report saying why. Services: drivethrucards (dtc),
printninja (pn), mbprint (mb) (The Game Crafter and MakePlayingCards take a picture of each face, not a PDF).

Exit 0: the service would take every file (warnings or not); 1: it would refuse one; 2: a file cannot be read or
the command line is wrong. A file that cannot be read does not hide the others: each is checked, and with --json
an unreadable one gets {"file": ..., "error": ...}. With --lang fr or de, the report and the refusals are in that
language (in the JSON too: `message` and `error`; `code`, `rule` and `verdict` are the same in every language).
"""


@reports_errors
def check_print(
    files: list[str] = typer.Argument(..., metavar="FILE.pdf...", help="The PDFs to check."),
    service: str = typer.Option(..., "--service", metavar="NAME", help="The print service whose rules apply."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per file, one line each."),
    lang_text: Optional[str] = typer.Option(None, "--lang", show_default=False, metavar="LANG",
                                            help=OWN_WORDS_LANG_HELP),
) -> None:
    """Preflight PDFs for a print service."""
    from generator.commands import interface_language
    from generator.i18n import messages_in
    from generator.prepress.services import find_service

    lang = interface_language(lang_text)  # first: the refusals of the options below are said in it
    with messages_in(lang):  # the report, its findings and the refusals of files, in that language
        _check(files, find_service(service), service, as_json)


def _check(files: list[str], chosen: Service, service: str, as_json: bool) -> None:
    """Check each of `files` against `chosen` (`service`: as given on the command line), saying the report in the
    language of the messages; exit 1 when the service would refuse one, 2 when one cannot be read."""
    import json
    from pathlib import Path

    from generator.commands import error_line
    from generator.errors import InputError
    from generator.i18n import messages_language, phrase
    from generator.prepress.preflight import check_pdf
    from generator.wording import visible_lines

    if chosen.delivery != "pdf":  # its rules are those of a picture per face: a PDF would be judged by the wrong ones
        from generator.errors import UsageError
        from generator.prepress.services import all_services

        takers = ", ".join(s.id for s in all_services() if s.delivery == "pdf")
        raise UsageError("--service", phrase("{name} takes PNG pictures, one per card face, not a PDF: `donjon export "
                                             "--service {service}` writes them and warns of what comes into its safe "
                                             "margin, from the cards' layouts (a picture cannot tell text from "
                                             "background); check-print checks the PDFs of {takers}", name=chosen.name,
                                             service=service.strip().lower(), takers=takers))
    worst = 0
    for name in files:
        try:
            result = check_pdf(Path(name), chosen, display=name)
        except InputError as err:  # said, and the next file checked: as `donjon score` does with several files
            typer.echo(error_line(visible_lines(str(err)), messages_language()), err=True)
            if as_json:
                typer.echo(json.dumps({"file": name, "error": str(err)}, ensure_ascii=False))
            worst = max(worst, int(err.exit_code))
            continue
        worst = max(worst, 1 if result.refused else 0)
        if as_json:
            typer.echo(json.dumps(result.as_json(), ensure_ascii=False))
        else:
            for line in result.lines():
                typer.echo(line)
    if worst:
        raise typer.Exit(worst)
