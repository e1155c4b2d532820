"""Units of length, defined once: PDF and SVG work in points (1/72 in), people and printers in millimetres.

Everything donjon draws is in points; lengths a person writes (layouts, options, catalogs) or reads (messages)
are in millimetres or inches.
"""

from __future__ import annotations

#: An inch is 25.4 mm exactly (the international inch of 1959).
MM_PER_INCH = 25.4
#: PostScript and PDF points: 72 to the inch.
PT_PER_INCH = 72.0
#: Points per millimetre.
PT_PER_MM = PT_PER_INCH / MM_PER_INCH


def mm(value: float) -> float:
    """Millimetres in points."""
    return value * PT_PER_MM


def to_mm(points: float) -> float:
    """Points in millimetres (for messages and reports)."""
    return points / PT_PER_MM


#: Millimetres per unit of a length written with its unit (`63mm`, `2.5in`, `6.3cm`, `180pt`).
MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": MM_PER_INCH, "pt": 1 / PT_PER_MM}
