"""The outlines of the ranks' letters and digits drawn on the card faces (js/cards.js GLYPHS).

A card's face is a picture: its corner index and a court card's letter are outlines, not
text, so that a card looks the same whatever fonts a machine has and its only name is the
one the page gives it ("five of clubs"). The outlines are DejaVu Sans Bold's (Bitstream Vera
licence: free to copy and modify; Debian's fonts-dejavu-core), in units of 1/100 em, the
origin on the baseline at the glyph's left, y downwards, with each glyph's advance width.

Run it again (it needs fontTools: pip install fonttools) to print the table anew:

    python tools/card_glyphs.py [/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf]
"""

from __future__ import annotations

import sys

from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
CHARS = "A0123456789JQK"


def number(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class RoundedPen(SVGPathPen):
    def __init__(self, glyph_set: object) -> None:
        super().__init__(glyph_set, ntos=number)


def main(path: str = FONT) -> None:
    font = TTFont(path)
    scale = 100 / font["head"].unitsPerEm
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    print("const GLYPHS = {")
    for char in CHARS:
        name = cmap[ord(char)]
        pen = RoundedPen(glyphs)
        glyphs[name].draw(TransformPen(pen, (scale, 0, 0, -scale, 0, 0)))
        advance = glyphs[name].width * scale
        print(f'  "{char}": {{ w: {number(advance)}, d: "{pen.getCommands()}" }},')
    print("};")


if __name__ == "__main__":
    main(*sys.argv[1:])
