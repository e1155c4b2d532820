"""Layouts: card faces and backs as data (templates/layouts/*.yaml), checked once and drawn per card."""
