"""donjon's generator: catalogs, layouts and the PDF, SVG and PNG outputs built from them."""

__version__ = "0.1.0"
