"""Score sheets: the Once Upon a Castle sheet, on paper and fillable, and reading filled sheets back.

- :mod:`generator.sheets.fields`: the fillable fields' names and kinds, shared by the drawer and the reader;
- :mod:`generator.sheets.castle`: the sheet drawn from the castle catalog, as a page of the drawing model;
- :mod:`generator.sheets.build`: the sheets `donjon build` writes (an entry of `OTHER_OUTPUTS`);
- :mod:`generator.sheets.read`: filled sheets read back into the castle end state `donjon score` checks.
"""
