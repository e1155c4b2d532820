"""A :class:`~scoring.result.Result` as text for people: a heading, the violations or a score table, the outcome,
then the warnings.

The table reads like a score pad: one column per player in order of place, one row per source of points, then
the total and the place. Rows a player has no points in show `-`. Points computed from a catalog value below H
(the residents' points through donjon's house track) carry a `*`, and a note under the table says what they
rest on: they are never shown as official. Warnings (checks that failed on values no rulebook states) are
listed last, each with the value's confidence and source.

Everything that comes from a file (names, values quoted in messages, the file's own name) is shown with its
control characters escaped (:func:`generator.wording.visible`): a name holding ESC or BEL never reaches the
terminal raw.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from generator.catalog.common import CONFIDENCE_WORDS
from generator.registry import UnknownGame, find_game
from generator.wording import listing, plural, visible
from scoring.result import Result, RuleWarning, Uncertain, Unconfirmed

#: The mark beside points computed from a value below H.
INFERRED_MARK = "*"


def _game_name(game_id: str) -> str:
    try:
        return find_game(game_id).name
    except UnknownGame:
        return game_id


def heading(result: Result) -> str:
    game = _game_name(result.game)
    setting = "; ".join(f"{key}: {value}" for key, value in result.setting)
    name = f"{result.source}: " if result.source else ""
    return f"{name}{game}" + (f" ({setting})" if setting else "")


def _place(result: Result, line: int | None) -> str:
    place = result.source or "end state"
    return place if line is None else f"{place}:{line}"


def render(result: Result) -> str:
    """The whole report of one result, lines joined, without a trailing newline. Each line is one line: what it
    quotes from the file is escaped, a newline in a name included."""
    lines = [heading(result)]
    photos = result.part(Unconfirmed)
    if photos is not None and (photos.uncertain or photos.unread):
        lines.append(result.summary)
        lines.extend(unconfirmed_lines(photos))
        return "\n".join(visible(line) for line in lines)
    if photos is not None:
        lines.extend(combined_lines(photos))
    if result.violations:
        lines.append(result.summary)
        for violation in result.violations:
            place = _place(result, violation.line)
            lines.append(f"  {place}: {violation.where}: {violation.message}" if violation.where
                         else f"  {place}: {violation.message}")
    else:
        lines.extend(f"  {row}" for row in score_table(result))
        lines.extend(f"  {note}" for note in inferred_notes(result))
        lines.append(result.summary)
    if result.warnings:
        lines.append(f"{plural(len(result.warnings), 'warning')}: checks on values no rulebook states (scored all "
                     "the same; --strict makes them violations)")
        lines.extend(warning_lines(result, w) for w in result.warnings)
    return "\n".join(visible(line) for line in lines)


def unconfirmed_lines(photos: Unconfirmed) -> list[str]:
    """What keeps sheets from being scored: each value to confirm; with several files, file by file, each file
    that could not be read with why and what to change, and each file read in full said so."""
    def uncertain(item: Uncertain) -> str:
        return f"{item.label or item.field}: {item.said or item.why} (confirm with --set {item.key}=VALUE)"

    if len(photos.files) < 2:  # one photo: its doubts
        return doubt_lines(photos.uncertain, uncertain)
    # a sheet given as several photos, one of which could not be read, was not read at all: none of its photos is
    # said read, each says which photo kept it from being read
    unread_files = {u.file for u in photos.unread}
    failed = {file: next(f for f in shots if f in unread_files) for _, shots in photos.combined
              if unread_files & set(shots) for file in shots}
    lines = combined_lines(photos, skip=set(failed))
    later = {file: shots[0] for _, shots in photos.combined for file in shots[1:]}
    for index, file in enumerate(photos.files):
        unread = next((u for u in photos.unread if u.sheet == index), None)
        if unread is None and file in failed:
            lines.append(f"  {file}: not read: given as one sheet with {failed[file]}, which could not be read")
            continue
        if unread is None and file in later:
            continue  # read with the first photo of its sheet: its doubts are that photo's
        if unread is not None:
            lines.append(f"  {file}: not read: {unread.why}")
            if unread.advice:
                lines.append(f"    what to change: {unread.advice}")
            continue
        doubts = [item for item in photos.uncertain if item.photo == file]
        lines.extend(doubt_lines(doubts, uncertain))
        if not doubts:
            lines.append(f"  {file}: read, nothing to confirm")
    return lines


def doubt_lines(doubts: Sequence[Uncertain], said: Callable[[Uncertain], str]) -> list[str]:
    """One photo's uncertain values, each as `said` says it, then what to change, once per reason (issue 27: "glare
    over towers 2 and 3: tilt the phone"): the fields it holds for and the reason's advice."""
    from generator.sheets.advice import UNCERTAIN

    retake = {reason.name for reason in UNCERTAIN if reason.retake}  # the command line: two files under one name
    lines = [f"  {item.photo}: {said(item)}" for item in doubts]
    for code in dict.fromkeys(item.code for item in doubts if item.advice):
        held = [item for item in doubts if item.code == code]
        lines.append(f"    what to change ({listing([item.label or item.field for item in held], 'and')}): "
                     f"{held[0].advice}")
        if code in retake:
            lines.append(f"    (another photo of {held[0].photo}'s sheet: give both photos under one name, "
                         f"donjon score {held[0].photo} SECOND-PHOTO ... --names NAME,NAME,...)")
    return lines


def combined_lines(photos: Unconfirmed, skip: Collection[str] = ()) -> list[str]:
    """Which photos made each sheet read from several photos of it (but a sheet of the photos `skip`: not read)."""
    return [f"  {player}: one sheet read from {len(shots)} photos, {', '.join(shots)}"
            for player, shots in photos.combined if not set(skip) & set(shots)]


def warning_lines(result: Result, warning: RuleWarning) -> str:
    """One warning: where, what, and the confidence and source of the value the check rests on."""
    place = _place(result, warning.line)
    where = f"{warning.where}: " if warning.where else ""
    return f"  {place}: {where}{warning.message} [{warning.confidence}: {warning.source}]"


def inferred_notes(result: Result) -> list[str]:
    """What the marked points rest on: one note per row and confidence."""
    seen: dict[tuple[str, str], None] = {}
    for player in result.players:
        for label, confidence in player.inferred:
            seen[label, confidence] = None
    return [f"{INFERRED_MARK} {label.replace('_', ' ')}: computed from a value of confidence {confidence} "
            f"({CONFIDENCE_WORDS.get(confidence, 'not official')})" for label, confidence in seen]


def _value(value: object, names: Mapping[str, str] | None = None, lang: str = "en") -> str:
    """A field's value in the table: yes or no, a list's items, - for none; a value (or item) by its name in
    `names` (id -> name) where the sheet gives one. The values are said in the language of their names (`lang`,
    the sheet's own) as the labels beside them are: a yes-no as donjon's catalog of that language says it (`oui`),
    a list's items joined as the language joins a list: donjon's English style (`Salt, Rope and Tea`, as every
    message), `Blé, Orge et Avoine` in French (Babel's list patterns)."""
    names = names or {}
    if value is None or value == [] or value == ():
        return "-"
    english = lang.split("-")[0] == "en"  # English reads no catalog and no Babel (generator/README.md, Languages)
    if isinstance(value, bool):
        if english:
            return "yes" if value else "no"
        from generator.i18n import language
        from generator.sheets.marks import NO, YES

        return language(lang)._(YES if value else NO)
    if isinstance(value, (list, tuple)):
        words = [visible(names.get(str(v), str(v))) for v in value]
        if english:
            return listing(words)
        from generator.i18n import language

        return language(lang).listing(words)
    return visible(names.get(str(value), str(value)))


def score_table(result: Result) -> list[str]:
    """The players (by place, ties in file order) as columns and their points as rows."""
    players = sorted(result.players, key=lambda p: p.place)
    labels: list[str] = []
    for player in players:
        labels.extend(label for label, _ in player.breakdown if label not in labels)
    notes: list[str] = []
    for player in players:
        notes.extend(label for label, _ in player.notes if label not in notes)
    rows: list[tuple[str, list[str]]] = []
    for label in labels:
        cells = []
        for p in players:
            points = dict(p.breakdown)
            mark = INFERRED_MARK if label in dict(p.inferred) else ""
            cells.append(f"{points[label]}{mark}" if label in points else "-")
        rows.append((visible(label), cells))
    rows.append(("score", [str(p.score) for p in players]))
    rows.append(("place", [str(p.place) for p in players]))
    rows.extend((label.replace("_", " "), [str(dict(p.notes).get(label, "-")) for p in players]) for label in notes)
    # a sheet of one's own: the value of each field read, under the score
    fields: list[str] = []
    labelled: dict[str, str] = {}
    value_names: dict[str, dict[str, str]] = {}
    for player in players:
        fields.extend(name for name, _ in player.values if name not in fields)
        labelled.update(player.labels)
        value_names.update((name, dict(pairs)) for name, pairs in player.names)
    rows.extend((visible(labelled.get(name, name)),
                 [_value(dict(p.values).get(name), value_names.get(name), p.lang) for p in players])
                for name in fields)
    first = max([len(label) for label, _ in rows] + [0])
    names = [visible(p.name) for p in players]
    widths = [max(len(name), *(len(cells[i]) for _, cells in rows)) for i, name in enumerate(names)]
    out = [" " * first + "".join(f"  {name:>{w}}" for name, w in zip(names, widths, strict=True))]
    # a rule under the points, and one above the values read (a sheet of one's own)
    rules = {len(labels), len(rows) - len(fields)} if fields else {len(labels)}
    for index, (label, cells) in enumerate(rows):
        if index in rules:
            out.append("-" * first + "".join("  " + "-" * w for w in widths))
        out.append(f"{label:<{first}}" + "".join(f"  {c:>{w}}" for c, w in zip(cells, widths, strict=True)))
    return [line.rstrip() for line in out]
