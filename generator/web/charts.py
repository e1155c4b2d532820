"""Small SVG charts drawn on the server for the player page: scores over time, wins per game.

Plain SVG text (every label escaped), so the page needs no chart library and works offline; the charts carry a
`<title>` and `role="img"` with a description for screen readers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

from generator.i18n import Language, language

#: Series colours: distinguishable for the common colour-vision deficiencies (Okabe-Ito palette).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
WIDTH, HEIGHT = 360, 200
#: room for the axis labels (left) and the legend (bottom)
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 12, 44
#: the size of the charts' words (app.css: .chart .tick), and a digit's width in ems, above the widest measured
#: (fontTools, the fonts' advances: DejaVu Sans 0.636, which Linux browsers draw with, Open Sans 0.572): what a
#: number drawn on a chart takes up
TICK_PX, DIGIT_EM = 11, 0.65
#: The games of each game the score chart draws, the newest: half a year of weekly game nights. A point every 9 px
#: at 320 px (the chart drawn 290 px wide), its 6 px dot apart from the next; hundreds of games drew a solid band,
#: and a `<title>` each (half of a regular player's page). The table above the chart counts every game.
LAST_GAMES = 30


def scores_over_time(series: Mapping[str, Sequence[int]], title: str) -> Markup:
    """One line per game: the player's score in each of their last :data:`LAST_GAMES` games of it, in order of play
    (:func:`cut_series` says which series were cut)."""
    series = {name: points[-LAST_GAMES:] for name, points in series.items()}
    values = [v for points in series.values() for v in points]
    if not values:
        return Markup("")
    low, high = min(0, *values), max(1, *values)
    longest = max(len(points) for points in series.values())
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (longest - 1) if longest > 1 else plot_w / 2)

    def y(v: int) -> float:
        return TOP + plot_h * (1 - (v - low) / (high - low))

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}">',
             f"<title>{escape(title)}</title>",
             f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_h}" class="axis"/>',
             f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" class="axis"/>',
             f'<text x="{LEFT - 4}" y="{TOP + 4}" text-anchor="end" class="tick">{high}</text>',
             f'<text x="{LEFT - 4}" y="{TOP + plot_h}" text-anchor="end" class="tick">{low}</text>']
    for index, (name, points) in enumerate(series.items()):
        colour = PALETTE[index % len(PALETTE)]
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
        parts.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts += [f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"><title>{escape(name)}: {v}'
                  f"</title></circle>" for i, v in enumerate(points)]
        legend_y = HEIGHT - BOTTOM + 20 + 14 * (index // 2)
        legend_x = LEFT + (index % 2) * 160
        parts.append(f'<rect x="{legend_x}" y="{legend_y - 9}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{legend_x + 14}" y="{legend_y}" class="legend">{escape(name)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def cut_series(series: Mapping[str, Sequence[int]]) -> dict[str, int]:
    """The series :func:`scores_over_time` draws only the last games of, each with how many games it has."""
    return {name: len(points) for name, points in series.items() if len(points) > LAST_GAMES}


def wins_per_game(rows: Sequence[tuple[str, int, int]], title: str, lang: Language | None = None) -> Markup:
    """A bar per game: games played (light) and won (dark); rows are (game name, games, wins); its words in
    `lang` (English)."""
    if not rows:
        return Markup("")
    lang = lang or language()
    most = max(1, *(games for _, games, _ in rows))
    bar_h, gap, label_w = 22, 10, 130
    height = TOP + len(rows) * (bar_h + gap)
    # the bars end where the longest "won/played" after one still fits (a history of years: "312/1000")
    said = max(len(f"{wins}/{games}") for _, games, wins in rows)
    plot_w = WIDTH - label_w - RIGHT - 4 - said * DIGIT_EM * TICK_PX
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(title)}">',
             f"<title>{escape(title)}</title>"]
    for index, (name, games, wins) in enumerate(rows):
        top = TOP + index * (bar_h + gap)
        played, won = lang._("{n} played").format(n=games), lang._("{n} won").format(n=wins)
        parts.append(f'<text x="{label_w - 6}" y="{top + bar_h * 0.7:.1f}" text-anchor="end" class="legend">'
                     f"{escape(name)}</text>")
        parts.append(f'<rect x="{label_w}" y="{top}" width="{plot_w * games / most:.1f}" height="{bar_h}" '
                     f'fill="#cfd8e3"><title>{escape(played)}</title></rect>')
        parts.append(f'<rect x="{label_w}" y="{top}" width="{plot_w * wins / most:.1f}" height="{bar_h}" '
                     f'fill="{PALETTE[0]}"><title>{escape(won)}</title></rect>')
        parts.append(f'<text x="{label_w + plot_w * games / most + 4:.1f}" y="{top + bar_h * 0.7:.1f}" '
                     f'class="tick">{wins}/{games}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
