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

from generator.catalog.common import CONFIDENCE_WORDS, HOUSE_MARK
from generator.i18n import Language, language
from generator.registry import UnknownGame, find_game
from generator.sayings import Words
from generator.wording import visible
from scoring.findings import confidence_said
from scoring.result import Result, RuleWarning, Uncertain, Unconfirmed, Unread

#: The mark beside points computed from a value below H.
INFERRED_MARK = "*"


def _game_name(game_id: str) -> str:
    try:
        return find_game(game_id).name
    except UnknownGame:
        return game_id


def heading(result: Result, lang: Language | None = None, game_name: str | None = None) -> str:
    """The file, the game (by `game_name` where given: its name in `lang`) and its setting (said by the rules in the
    result's language)."""
    say = Words(lang or language())
    game = game_name or _game_name(result.game)
    setting = ""
    for key, value in result.setting:  # joined as the language joins clauses (French: a space before `;`)
        part = say._("{key}: {value}", key=key, value=value)
        setting = say._("{first}; {then}", first=setting, then=part) if setting else part
    name = f"{result.source}: " if result.source else ""
    return f"{name}{game}" + (f" ({setting})" if setting else "")


def _place(result: Result, line: int | None, say: Words | None = None) -> str:
    place = result.source or (say or Words())._("end state")
    return place if line is None else f"{place}:{line}"


def render(result: Result, lang: Language | None = None, labels: Mapping[str, str] | None = None,
           game_name: str | None = None) -> str:
    """The whole report of one result, lines joined, without a trailing newline. Each line is one line: what it
    quotes from the file is escaped, a newline in a name included. `lang`: the language of donjon's words (`donjon
    score --lang`; the result's own messages are in the language it was scored in); `labels`: the breakdown's keys
    in words in that language (generator.games.table.result_labels), for a table in another language than English
    (an English table shows the keys, as the JSON has them); `game_name`: the game's name in that language
    (`Scorer.game_name`: Oh mon château), else its own."""
    say = Words(lang or language())
    lines = [heading(result, say.lang, game_name)]
    photos = result.part(Unconfirmed)
    if photos is not None and (photos.uncertain or photos.unread):
        lines.append(result.summary)
        lines.extend(unconfirmed_lines(photos, say.lang))
        return "\n".join(visible(line) for line in lines)
    if photos is not None:
        lines.extend(combined_lines(photos, lang=say.lang))
    if result.violations:
        lines.append(result.summary)
        for violation in result.violations:
            place = _place(result, violation.line, say)
            lines.append(f"  {place}: {violation.where}: {violation.message}" if violation.where
                         else f"  {place}: {violation.message}")
    else:
        lines.extend(f"  {row}" for row in score_table(result, say.lang, labels))
        lines.extend(f"  {note}" for note in inferred_notes(result, say.lang, labels))
        lines.extend(f"  {note}" for note in translated_notes(result, say.lang, labels))
        lines.append(result.summary)
    if result.warnings:
        lines.append(say.ngettext("{n} warning: checks on values no rulebook states (scored all the same; --strict "
                                  "makes them violations)",
                                  "{n} warnings: checks on values no rulebook states (scored all the same; --strict "
                                  "makes them violations)", len(result.warnings)))
        lines.extend(warning_lines(result, w, say.lang) for w in result.warnings)
    return "\n".join(visible(line) for line in lines)


def unconfirmed_lines(photos: Unconfirmed, lang: Language | None = None) -> list[str]:
    """What keeps sheets from being scored: each value to confirm; with several files, file by file, each file
    that could not be read with why and what to change, and each file read in full said so."""
    say = Words(lang or language())

    def uncertain(item: Uncertain) -> str:
        from generator.sheets.summary import said_once, why_said

        if say.lang.english:
            why = item.said or item.why
        else:  # the reader's sentence is English: its reason's sentence in the language (the companion's words)
            why = why_said(item, say.lang, _own_label(item))
        # the field named once (its id is in the --set that ends the line): a reason starts with it in French and
        # German ("tours #3 : deux valeurs remplies"), and a rule's does in English ("storm is marked but...")
        return say._("{doubt} (confirm with --set {key}=VALUE)", doubt=said_once(doubt_label(item, say.lang), why,
                                                                                 say.lang), key=item.key)

    if len(photos.files) < 2:  # one photo: its doubts
        return doubt_lines(photos.uncertain, uncertain, say.lang)
    # a sheet given as several photos, one of which could not be read, was not read at all: none of its photos is
    # said read, each says which photo kept it from being read
    unread_files = {u.file for u in photos.unread}
    failed = {file: next(f for f in shots if f in unread_files) for _, shots in photos.combined
              if unread_files & set(shots) for file in shots}
    lines = combined_lines(photos, skip=set(failed), lang=say.lang)
    later = {file: shots[0] for _, shots in photos.combined for file in shots[1:]}
    for index, file in enumerate(photos.files):
        unread = next((u for u in photos.unread if u.sheet == index), None)
        if unread is None and file in failed:
            lines.append("  " + say._("{file}: not read: given as one sheet with {other}, which could not be read",
                                      file=file, other=failed[file]))
            continue
        if unread is None and file in later:
            continue  # read with the first photo of its sheet: its doubts are that photo's
        if unread is not None:
            lines.append("  " + say._("{file}: not read: {why}", file=file, why=_unread_why(unread, say)))
            if unread.advice:
                lines.append("    " + say._("what to change: {advice}", advice=say.lang._(unread.advice)))
            continue
        doubts = [item for item in photos.uncertain if item.photo == file]
        lines.extend(doubt_lines(doubts, uncertain, say.lang))
        if not doubts:
            lines.append("  " + say._("{file}: read, nothing to confirm", file=file))
    return lines


def _own_label(item: Uncertain) -> dict[str, str] | None:
    """A sheet of one's own's label of `item`'s field (by field), for its reason to name it as its line does."""
    return {item.field: item.label} if item.label and "[" not in item.field and "." not in item.field else None


def doubt_label(item: Uncertain, lang: Language) -> str:
    """How a line names an undecided field: a sheet of one's own's label of it; else in English its id, as `--set`
    takes it (`towers[2]`), in another language its words there, as its reason does (`tours #3`)."""
    if item.label or lang.english:
        return item.label or item.field
    from generator.sheets.summary import words

    return words(item.field, lang)


def _unread_why(unread: Unread, say: Words) -> str:
    """Why a photo was not read: the reader's own (English) words, or in another language donjon's own words when
    they are its (a sheet of another version, naming both), else what its reason says was seen (the companion's
    words), the reader's words when donjon has none for it."""
    if say.lang.english:
        return unread.why
    if unread.said_in is not None:
        return unread.said_in(say.lang)
    from generator.sheets.advice import refusal

    found = refusal(unread.why, unread.reason or None)
    return say.lang._(found.seen) if found is not None and found.seen else unread.why


def doubt_lines(doubts: Sequence[Uncertain], said: Callable[[Uncertain], str],
                lang: Language | None = None) -> list[str]:
    """One photo's uncertain values, each as `said` says it, then what to change, once per reason (issue 27: "glare
    over towers 2 and 3: tilt the phone"): the fields it holds for and the reason's advice."""
    from generator.sheets.advice import UNCERTAIN

    say = Words(lang or language())
    retake = {reason.name for reason in UNCERTAIN if reason.retake}  # the command line: two files under one name
    lines = ["  " + say._("{label}: {value}", label=item.photo, value=said(item)) for item in doubts]
    for code in dict.fromkeys(item.code for item in doubts if item.advice):
        held = [item for item in doubts if item.code == code]
        lines.append("    " + say._("what to change ({fields}): {advice}", advice=say.lang._(held[0].advice),
                                    fields=say.listing([doubt_label(item, say.lang) for item in held])))
        if code in retake:
            lines.append("    " + say._("(another photo of {photo}'s sheet: give both photos under one name, donjon "
                                        "score {photo} SECOND-PHOTO ... --names NAME,NAME,...)", photo=held[0].photo))
    return lines


def combined_lines(photos: Unconfirmed, skip: Collection[str] = (), lang: Language | None = None) -> list[str]:
    """Which photos made each sheet read from several photos of it (but a sheet of the photos `skip`: not read)."""
    say = Words(lang or language())
    return ["  " + say.ngettext("{player}: one sheet read from {n} photo, {files}",
                                "{player}: one sheet read from {n} photos, {files}", len(shots), player=player,
                                files=", ".join(shots))
            for player, shots in photos.combined if not set(skip) & set(shots)]


def warning_lines(result: Result, warning: RuleWarning, lang: Language | None = None) -> str:
    """One warning: where, what, and the confidence and source of the value the check rests on."""
    say = Words(lang or language())
    place = _place(result, warning.line, say)
    where = f"{warning.where}: " if warning.where else ""
    # the confidence and the source as the language sets a colon (French: a no-break space before it)
    rests = say._("{label}: {value}", label=confidence_said(warning.confidence, lang), value=warning.source)
    return f"  {place}: {where}{warning.message} [{rests}]"


def _label(key: str, labels: Mapping[str, str] | None) -> str:
    """A breakdown key as the table says it: in English the key (`sky clouds`, as the JSON has it); in another
    language its label (`Nuages du ciel`), a catalog entry's name (`guest:queen`: `Reine`), else the key."""
    if labels:
        if key in labels:
            return labels[key].split(" (", 1)[0]  # a form's note in brackets names no row: "Tours (valeur...)"
    return key


def translated_notes(result: Result, lang: Language, labels: Mapping[str, str] | None) -> list[str]:
    """What the mark of a row named by a name donjon translated itself (a castle guest's, †) means, as the
    companion says it: no edition prints that name."""
    shown = {_label(key, labels) for player in result.players for key, _ in player.breakdown}
    if not any(label.endswith(HOUSE_MARK) for label in shown):
        return []
    return [f"{HOUSE_MARK} {lang._('Names translated by donjon, not official.')}"]


def inferred_notes(result: Result, lang: Language | None = None, labels: Mapping[str, str] | None = None
                   ) -> list[str]:
    """What the marked points rest on: one note per row and confidence."""
    say = Words(lang or language())
    seen: dict[tuple[str, str], None] = {}
    for player in result.players:
        for label, confidence in player.inferred:
            seen[label, confidence] = None
    return [INFERRED_MARK + " " + say._("{row}: computed from a value of confidence {confidence} ({words})",
                                        row=_label(label, labels).replace("_", " "),
                                        confidence=confidence_said(confidence, say.lang),
                                        words=say.lang._(CONFIDENCE_WORDS.get(confidence, "not official")))
            for label, confidence in seen]


def _value(value: object, names: Mapping[str, str] | None = None, lang: str = "en") -> str:
    """A field's value in the table: yes or no, a list's items, - for none; a value (or item) by its name in
    `names` (id -> name) where the sheet gives one. The values are said in the language of their names (`lang`,
    the sheet's own) as the labels beside them are: a yes-no as donjon's catalog of that language says it (`oui`),
    a list's items joined as the language joins a list: donjon's English style (`Salt, Rope and Tea`, as every
    message), `Blé, Orge et Avoine` in French (Babel's list patterns)."""
    names = names or {}
    if value is None or value == [] or value == ():
        return "-"
    # English reads no catalog and no Babel (generator/README.md, Languages): its words are the messages themselves
    say = Words(language(lang))
    if isinstance(value, bool):
        from generator.sheets.marks import NO, YES

        return say._(YES if value else NO)
    if isinstance(value, (list, tuple)):
        return say.listing([visible(names.get(str(v), str(v))) for v in value])
    return visible(names.get(str(value), str(value)))


def score_table(result: Result, lang: Language | None = None, said: Mapping[str, str] | None = None) -> list[str]:
    """The players (by place, ties in file order) as columns and their points as rows (`said`: the rows' keys in
    words, see :func:`render`)."""
    say = Words(lang or language())
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
        rows.append((visible(_label(label, said)), cells))
    rows.append((say._("score"), [str(p.score) for p in players]))
    rows.append((say._("place"), [str(p.place) for p in players]))
    rows.extend((_label(label, said).replace("_", " "), [str(dict(p.notes).get(label, "-")) for p in players])
                for label in notes)
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
    # a cooperative game's team by its name in the table's language (`said` holds it only for such a game)
    names = [visible(said[p.name] if said and p.name == "team" and "team" in said else p.name) for p in players]
    widths = [max(len(name), *(len(cells[i]) for _, cells in rows)) for i, name in enumerate(names)]
    out = [" " * first + "".join(f"  {name:>{w}}" for name, w in zip(names, widths, strict=True))]
    # a rule under the points, and one above the values read (a sheet of one's own)
    rules = {len(labels), len(rows) - len(fields)} if fields else {len(labels)}
    for index, (label, cells) in enumerate(rows):
        if index in rules:
            out.append("-" * first + "".join("  " + "-" * w for w in widths))
        out.append(f"{label:<{first}}" + "".join(f"  {c:>{w}}" for c, w in zip(cells, widths, strict=True)))
    return [line.rstrip() for line in out]
