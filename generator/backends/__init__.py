"""Backends: each turns pages and drawings of :mod:`generator.render.model` into one file format."""


def number(value: float) -> str:
    """A coordinate as both backends write it: at most three decimals (a thousandth of a point), no trailing
    zeros, never `-0`, so equal geometry gives equal bytes."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
