"""Card images: PNG exports for print services, Tabletop Simulator decks and the HTML preview.

Every image is rasterised from the same drawings as the PDFs and SVGs (one source of truth): a card is drawn
with its deck's layout (`generator.build.decks.face_drawing`), put on a page of the exact size of the image,
written into a PDF in memory by the PDF backend, and rendered by pdfium at the exact pixel size.

- :mod:`generator.export.geometry`: the presets, the size of each image in pixels and where the card sits in it;
- :mod:`generator.export.raster`: pages to pixels (pdfium) and pixels to PNG bytes (Pillow);
- :mod:`generator.export.jobs`: the work split into chunks rendered by forked worker processes on every core;
- :mod:`generator.export.staging`: output folders that replace the previous ones only once complete;
- :mod:`generator.export.png`, :mod:`generator.export.tts`, :mod:`generator.export.preview`: the three outputs.

See generator/export/README.md for what each writes.
"""
