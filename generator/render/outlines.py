"""`python -m generator.render.outlines`: write templates/fonts/outlines/FACE.json, the outlines of the common
characters in each of donjon's own faces (see generator.render.fonts.COMMON), after a font file changes.

tests/render/test_svg_fonts.py checks that the files are what this writes.
"""

from generator.render.fonts import BUILT_IN, kept_outlines, outlines_file


def main() -> None:
    for face in BUILT_IN:
        path = outlines_file(face)
        path.parent.mkdir(exist_ok=True)
        path.write_text(kept_outlines(face.id), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
