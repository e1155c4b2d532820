"""The sheet engine: score sheets as data (`templates/sheets/*.yaml`, or a designer's own), drawn to a scan-ready
PDF with its map of marks and to a fillable PDF, and read back from a filled PDF or a photo into field values.

Modules: :mod:`~.layout` (the sheet layout format, loaded and checked), :mod:`~.draw` (a layout drawn for one
variant and paper), :mod:`~.marks` (the map of marks, the markers, and marks read into field values),
:mod:`~.forms` (filled PDFs read), :mod:`~.photos` (photos read: markers, perspective, blur; opencv imported only
there and in :mod:`~.photo_marks`, the marks of a straightened photo), :mod:`~.photo_reasons` (why a photo or a
field could not be read, as data: a code, the fields, a sentence), :mod:`~.read` (the
filled sheets of one game read whatever they are, `--set` confirmations, names, annotations), :mod:`~.advice` (what
to change per reason a photo is refused or a field left uncertain), :mod:`~.summary` (what a sheet read says, as
lines of text) and :mod:`~.own` (a designer's sheet of their own: `sheet.yaml`, its scoring).
A game uses a sheet by naming its layout and mapping the field values to its end state
(`generator/games/castle/sheets.py`).
"""
