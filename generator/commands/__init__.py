"""One module per `donjon` command. They import only typer at module level (see generator/cli.py)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, overload

import typer

if TYPE_CHECKING:  # for annotations only: no command module imports anything heavy at start-up
    from collections.abc import Sequence

    from generator.catalog.deck import Deck
    from generator.catalog.userdeck import UserDeck
    from generator.games.base import GameCatalog
    from generator.i18n import Language
    from generator.output import Transaction

F = TypeVar("F", bound=Callable[..., Any])

#: The language the running command speaks, set by :func:`interface_language` (`score`, `history`: their --lang is
#: the language of every word they say): its refusal's `error:` is then that language's too. None for every other
#: command, whose --lang (if any) is a deck's language and whose messages are English.
_SPOKEN: ContextVar[Language | None] = ContextVar("donjon_spoken", default=None)

def error_line(message: str, lang: Language | None = None) -> str:
    """A refusal as said on stderr: `error: ` and `message`, in `lang` when given (French `erreur :`)."""
    from generator.i18n import N_

    if lang is None or lang.english:
        return f"error: {message}"
    # TRANSLATORS: the word before every refusal of donjon score/history on stderr
    return lang._(N_("error: {message}")).format(message=message)


def warning_line(message: str, lang: Language | None = None) -> str:
    """A warning as said on stderr: `warning: ` and `message`, in `lang` when given (`score --lang fr`), else in the
    language the command says its messages in (`content check --lang fr`, `build --lang de`: `avertissement :`,
    `Warnung:`)."""
    from generator.i18n import N_, messages_language

    lang = lang or messages_language()
    if lang is None or lang.english:
        return f"warning: {message}"
    # TRANSLATORS: the word before every warning of donjon content check/build on stderr
    return lang._(N_("warning: {message}")).format(message=message)


def decimal(value: float, decimals: int) -> str:
    """`value` with `decimals` digits as the command's messages write it: `0.42` in English (as `f"{value:.2f}"`),
    `0,42` in French and German (`build --lang fr`)."""
    from generator.i18n import messages_language

    spoken = messages_language()
    return f"{value:.{decimals}f}" if spoken is None else spoken.number(value, decimals=decimals)


def messages_language_of(code: str | None) -> Language | None:
    """The language `build --lang CODE` says its messages in: CODE's when donjon speaks it (fr, de), else None
    (English: a deck of one's own may be built in any language, donjon speaks three). Its refusal's `error:` is then
    that language's too."""
    from generator.i18n import INTERFACE, language

    if code is None or code.split("-")[0] not in INTERFACE or code.split("-")[0] == "en":
        return None
    spoken = language(code)
    _SPOKEN.set(spoken)
    return spoken


def speaks_the_cards_language(func: F) -> F:
    """Run a command whose `--lang` (its keyword `lang_text`) is its cards' language saying its progress and warnings
    in that language where donjon speaks it (`export png --lang fr`: `écrit`, `avertissement :`), as `build --lang`
    says them; English otherwise, word for word as without it. Under :func:`reports_errors`, which says a wrong code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from generator.i18n import messages_in

        with messages_in(messages_language_of(language_option(kwargs.get("lang_text"), "--lang"))):
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def reports_errors(func: F) -> F:
    """Turn a DonjonError raised by a command into its message on stderr and its exit code.

    Inside the command rather than around `app()`, so that typer's test runner sees the same exit codes and
    messages as a user does.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from generator.errors import DonjonError
        from generator.wording import visible_lines

        spoken = _SPOKEN.set(None)  # a command run before this one (typer's test runner) spoke its own language
        try:
            return func(*args, **kwargs)
        except DonjonError as err:
            try:
                sys.stdout.flush()
            except DonjonError:
                pass  # standard output is what failed: the error says so
            if not getattr(err, "quiet", False):
                # errors escape what they quote; this catches any message that did not
                typer.echo(error_line(visible_lines(str(err)), _SPOKEN.get()), err=True)
            raise typer.Exit(int(err.exit_code)) from None
        finally:
            _SPOKEN.reset(spoken)

    return wrapper  # type: ignore[return-value]


@contextmanager
def reported_before_placed(out: Path, command: str) -> Iterator[Transaction]:
    """The transaction of a command writing into `out` (`command`: "build", "export"), whose files are put in place
    only once its report is written: a report that cannot be written (standard output full or closed: exit 3)
    leaves the earlier files in OUT as they were, as any failed command does, and says so (the files were made, but
    nobody saw what was said of them)."""
    from generator.errors import OutputError, StdoutError
    from generator.output import transaction
    from generator.resources import display_path

    try:
        with transaction(out) as tx:
            yield tx
            sys.stdout.flush()  # typer.echo flushes each line; this makes sure of the last one before the commit
    except StdoutError as err:
        if err.quiet:
            raise
        raise OutputError("standard output", f"{err.reason}: the report of this {command} could not be written, so "
                                             f"none of its files were put in place (the files in "
                                             f"{display_path(out)} are as they were)") from None


@overload
def folder_option(value: str, option: str) -> Path: ...
@overload
def folder_option(value: None, option: str) -> None: ...
def folder_option(value: str | None, option: str) -> Path | None:
    """A folder given on the command line; an empty value is refused (it would mean the current folder, or for
    `--content` the shipped content, without saying so)."""
    if value is None:
        return None
    if not value.strip():
        from generator.errors import UsageError
        from generator.i18n import N_, language

        said = _SPOKEN.get() or language()  # `score`/`history --lang`: in their language
        raise UsageError(option, said._(N_("is empty: name a folder (`.` for the current one)")))
    return Path(value)


def refuse_missing_folder(folder: Path | None, option: str) -> None:
    """Refuse a folder option (`--content DIR`) naming no folder: nothing there, or a file; said in the language
    the command speaks (`score`/`history --lang`), English for the others."""
    if folder is not None and not folder.is_dir():
        from generator.errors import UsageError
        from generator.i18n import N_, language

        said = _SPOKEN.get() or language()
        raise UsageError(f"{option} {folder}", said._(N_("no such folder") if not folder.exists() else
                                                      N_("is not a folder")))


#: The help of every command's `--lang`.
LANG_HELP = ("The language to write in: en (the default), fr, de; a deck of your own holding other languages "
             "(columns such as Name@es) may be built in any of them. Without it, each deck of your own is built in its "
             "own language (`lang:` in its deck.yaml).")


@overload
def language_option(value: str, option: str) -> str: ...
@overload
def language_option(value: None, option: str) -> None: ...
def language_option(value: str | None, option: str) -> str | None:
    """A language code given on the command line (`fr`, `de`, `pt-BR`), normalised; a malformed one is refused."""
    if value is None:
        return None
    from generator.i18n import normalise_code

    code = normalise_code(value)
    if code is None:
        from generator.errors import UsageError

        raise UsageError(option, f"{value!r} is not a language code; give one such as en, fr or de")
    return code


#: The help of `--lang` of the commands whose words are all donjon's own (`score`, `history`).
OWN_WORDS_LANG_HELP = "The language to write in: en (the default), fr or de."


def interface_language(value: str | None, option: str = "--lang") -> Language | None:
    """The language of a command whose words are all donjon's own (`score`, `history`: no deck of one's own holds
    others), or None when none is given. A code that is not one, or a language donjon has no words in, is refused
    (exit 2): it would be English without a word."""
    code = language_option(value, option)
    if code is None:
        return None
    from generator.i18n import INTERFACE, language

    if code.split("-")[0] not in INTERFACE:
        from generator.errors import UsageError

        raise UsageError(f"{option} {value}", f"donjon speaks {', '.join(INTERFACE)}; {code!r} is none of them")
    spoken = language(code)
    _SPOKEN.set(spoken)
    return spoken


def warn_of_a_language_nobody_holds(lang: str, decks: Sequence[Deck] = (), own: Sequence[UserDeck] = (),
                                    option: str = "--lang") -> None:
    """`--lang es` (or the typo `--lang sp`) when neither donjon's catalogs nor any deck of the command (`decks`,
    of which `own` are a designer's) hold it: it cannot be refused (a deck of one's own may hold `Name@es`), but
    writing everything in English without a word hides the mistake. Every command taking `--lang` says it, and
    `--also` (`option`) the same: its second names would be the fallback's, or none."""
    from generator.i18n import INTERFACE

    built = {d.game for d in decks}
    held = {*INTERFACE, *(code for deck in own if deck.id in built for code in deck.languages)}
    if lang.split("-")[0] in {code.split("-")[0] for code in held}:
        return
    from generator.i18n import phrase

    if option == "--lang":
        what = (phrase("written in English, each deck of your own in its own language") if own
                else phrase("written in English"))
    else:
        what = (phrase("each card's second name falls back to English, each deck of your own in its own language")
                if own else phrase("each card's second name falls back to English"))
    typer.echo(warning_line(phrase("{option} {lang}: donjon has no words in {quoted} (it has {held}) and no deck of "
                                   "this build holds it: {what}", option=option, lang=lang, quoted=repr(lang),
                                   held=", ".join(INTERFACE), what=what)), err=True)


def warn_of_sheets_not_in(lang: str, games: Sequence[GameCatalog]) -> None:
    """`--lang de` for a sheet of one's own written in English and given in French only (`lang:`, `languages:` of
    its sheet.yaml): it is drawn, its own words as written and donjon's (`_('Player')`) in German, a sheet in two
    languages; say so, naming the sheet.yaml, rather than print it without a word. The build goes on."""
    from generator.games.sheet_game import SheetCatalog
    from generator.i18n import messages_language, phrase
    from generator.wording import listing

    base = lang.split("-")[0]
    for game in games:
        if not isinstance(game, SheetCatalog):
            continue
        sheet = game.sheet
        given = tuple(dict.fromkeys((sheet.lang, *sheet.languages)))
        if base in {code.split("-")[0] for code in given}:
            continue
        spoken = messages_language()
        codes = spoken.listing(list(given[1:])) if spoken is not None else listing(list(given[1:]))
        others = phrase(" and given in {codes} (languages:)", codes=codes) if given[1:] else ""
        typer.echo(warning_line(phrase("{origin}: --lang {lang}: the sheet is written in {written}{others}, not in "
                                       "{lang}: its own words are drawn as written, among donjon's in {lang}; give "
                                       "them under `languages: {base}:`", origin=sheet.origin, lang=lang,
                                       written=sheet.lang, others=others, base=base)), err=True)


#: The help of `--also`.
ALSO_HELP = ("Also print each card's name in this language, small under its title (bilingual cards: --lang fr "
             "--also en, for a table that reads the rules in English).")


def settle() -> None:
    """After a command has loaded its modules, catalogs and fonts: move them out of the garbage collector's sight,
    so that the collections drawing triggers only look at new objects (a tenth of a small build otherwise)."""
    import gc

    gc.freeze()


def is_terminal() -> bool:
    """Progress bars only when a person is watching (stderr is a terminal)."""
    return sys.stderr.isatty()
