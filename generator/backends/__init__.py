"""Backends: each turns pages and drawings of :mod:`generator.render.model` into one file format."""
