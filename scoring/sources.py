"""What the shipped catalogs say a checked value rests on, marked for translation.

A warning names the source of the value its check rests on, and a violation resting on a derived count names the
derivation (:meth:`scoring.findings.Findings.check`). Those sources are catalog data, written in English; a French
or German table reads its warnings in its own language, so the sources of the values the rules check are listed
here, word for word as the catalogs hold them, for the interface catalogs (gettext) to translate. A catalog of one's
own (`--content`) with other sources has its words shown as written. A test holds every source the shipped
catalogs give those values to this list (an edited source must be edited here too, and translated again).
"""

from __future__ import annotations

from generator.i18n import N_

#: Sources of the values the scorer's checks rest on, in the shipped catalogs (content/GAME/*.yaml).
CATALOG_SOURCES = (
    # Guildhall: the VP cards (rule 7)
    N_("30 cards: eight kinds of one count n and the 5-VP kind at twice that, 8n + 2n = 30, so n = 3 and six 5-VP "
       "cards; a small game removes two 5s and one of each other kind, leaving 20 (game-facts 1(a))."),
    N_("Twice the count of each other kind (002), and 8n + 2n = 30 gives n = 3 (game-facts 1(a))."),
    N_("The reference lists the same abilities as Old World Economy in the same order (draw 5 for draw 6); reviews "
       "give single-chapter cards worth 2 to 5 and two-chapter cards worth 7 or 9. Values, costs and counts mirror "
       "Old World Economy; no source confirms each card (game-facts 1(c))."),
    # Once Upon a Castle: tower and flag values, the resident track, the Apprentice guests (W1 to W3)
    N_("Julie's Game School review of the game: towers are drawn worth 2 or 5 (game-facts 2(b)). The rules say only "
       "that a tower's style sets its points."),
    N_("Julie's Game School review: flags are worth 1 or 2 (game-facts 2(b)). The rules name 4 flag styles without "
       "their points."),
    N_("No source gives the sheet's resident groups (game-facts 2(c)). donjon prints 30 residents in six groups of "
       "five; change them here to match your pad."),
    N_("No source lists the Apprentice guests' VP (game-facts 2(c)); a wide range donjon expects (another value is "
       "scored with a warning); change it here."),
    # Guédelon: the floors of each building (W1)
    N_("3 to 5 (000/001 7.10); exactly 3 under donjon's house default, which puts the two unplaced tiles on B."),
    N_("4 or 5 (tile D3 is named in 000/001 7.10); exactly 4 under donjon's house default, which puts the two "
       "unplaced tiles on B."),
    N_("4 or 5 (tile F3 is named in 000/001 7.10); exactly 4 under donjon's house default, which puts the two "
       "unplaced tiles on B."),
    N_("Unknown which building is the five-floor Master tower (000/001 7.7). With A at 3, D and F at 4 or more and "
       "22 tiles in all, the two tiles beyond those go to B3+B4, C3+C4, E3+E4 or D4+F4, or to D4 or F4 with one of "
       "B3, C3 or E3. donjon's default puts both on B."),
)
