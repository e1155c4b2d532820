"""`python -m generator` runs the donjon command."""

from generator.cli import run

run()
