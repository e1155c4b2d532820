"""`donjon printer add|list|remove`: home printers measured once with the calibration sheet, used by `--printer`."""

from __future__ import annotations

import typer

from generator.commands import reports_errors

HELP = """\
Home printers, measured once: their duplex offset and scale, applied to every build with --printer NAME.

Print the calibration sheet (`donjon build calibration`) on both sides; hold it against the light: the back cross
lying on its front cross is labelled with the offset; measure the 150 mm and 200 mm rulers: the scale is 150
divided by what you measure across, 200 by what you measure down. Then `donjon printer add NAME --back-offset X,Y
--scale X,Y`. Printers are kept in donjon's data folder (printers.json; $DONJON_PRINTERS names another file).
"""

app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})


@app.command("add")
@reports_errors
def add(
    name: str = typer.Argument(..., metavar="NAME", help="A name for the printer (letters, digits, - and _)."),
    # the ranges said here are generator.printers' OFFSET_MM and SCALE (not imported: a command module imports
    # only typer until it runs); tests/test_cli_content.py holds the two together
    back_offset: str = typer.Option("0,0", "--back-offset", metavar="X,Y",
                                    help="The offset read on the calibration sheet, in mm (x right, y up, on the "
                                         "back), each -10 to 10."),
    scale: str = typer.Option("1,1", "--scale", metavar="X,Y",
                              help="The factor across and down that makes up for the printer's scale, each 0.9 "
                                   "to 1.1 (further out, the printer is not printing at 100 %): a number, or "
                                   "150/measured,200/measured as the rulers give it."),
) -> None:
    """Save a printer's duplex offset and scale."""
    from generator.printers import OFFSET_MM, SCALE, Printer, parse_pair, save_printer

    dx, dy = parse_pair("--back-offset", back_offset, *OFFSET_MM)
    sx, sy = parse_pair("--scale", scale, *SCALE, example="1.004,0.998, or 150/149.4,200/200.4 as measured")
    path = save_printer(Printer(name, (dx, dy), (sx, sy)))
    typer.echo(f"saved printer {name!r}: back offset {dx:+g},{dy:+g} mm, scale {sx:g} x {sy:g} (in {path})")


@app.command("list")
@reports_errors
def list_printers() -> None:
    """List the saved printers."""
    from generator.printers import load_printers

    for printer in load_printers().values():
        dx, dy = printer.back_offset
        typer.echo(f"{printer.name}: back offset {dx:+g},{dy:+g} mm, scale {printer.scale[0]:g} x {printer.scale[1]:g}")


@app.command("remove")
@reports_errors
def remove(name: str = typer.Argument(..., metavar="NAME", help="The printer to forget.")) -> None:
    """Forget a saved printer."""
    from generator.printers import remove_printer

    remove_printer(name)
    typer.echo(f"removed printer {name!r}")
