"""A catalog in another language: every entry's texts replaced by its translation, where it has one.

Catalog entries carry their texts in other languages under `translations` (generator.catalog.common), each
saying where it comes from. :func:`localise` walks a loaded catalog (frozen dataclasses and tuples of them) and
returns the same catalog with each translated text in place and each entry's provenance knowing its language,
so that the decks, the references and the rules see one language, and a reference can mark every text that is
donjon's own translation. A text a language does not give keeps the catalog's own words (English): a
translation falls back field by field, never fails.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from generator.catalog.common import Provenance, Translation

T = TypeVar("T")


def localise(catalog: T, lang: str) -> T:
    """`catalog` in language `lang` (a language code); in English, the catalogs' own language, its words as they are."""
    found: Any = catalog if lang.split("-")[0] == "en" else _walk(catalog, lang)
    info = getattr(found, "info", None)
    # a game's catalog: its GameInfo says the language (a sheet of one's own written in French, built in English,
    # says English too)
    if dataclasses.is_dataclass(info) and not isinstance(info, type) and getattr(info, "lang", lang) != lang:
        found = dataclasses.replace(found, info=dataclasses.replace(info, lang=lang))
    return found  # type: ignore[no-any-return]


def _walk(value: Any, lang: str) -> Any:
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_walk(v, lang) for v in value)
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return value
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(value):
        old = getattr(value, field.name)
        new = _walk(old, lang)
        if new is not old:
            changes[field.name] = new
    provenance = getattr(value, "provenance", None)
    translations = getattr(value, "translations", None)
    if isinstance(provenance, Provenance):
        found = _pick(provenance.translations, lang)
        if found is not None:
            changes.update(_texts(value, found))
        changes["provenance"] = provenance._replace(lang=_code(provenance.translations, lang))
    elif isinstance(translations, dict):
        found = _pick(translations, lang)
        if found is not None:
            changes.update(_texts(value, found))
    return dataclasses.replace(value, **changes) if changes else value


def _pick(translations: Any, lang: str) -> Translation | None:
    found: Translation | None = translations.get(_code(translations, lang))
    return found


def _code(translations: Any, lang: str) -> str:
    """The language of `translations` that serves `lang`: itself or its base (`fr` for `fr-CA`); `lang` when none
    does (the record then keeps its own words)."""
    for code in (lang, lang.split("-")[0]):
        if code in translations:
            return code
    return lang


def _texts(record: Any, found: Translation) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, given in found.values.items():
        own = getattr(record, name)
        if isinstance(given, str):
            out[name] = given
        elif isinstance(own, tuple) and own and dataclasses.is_dataclass(own[0]):
            out[name] = tuple(dataclasses.replace(item, **{k: v for k, v in (texts or {}).items() if v})
                              for item, texts in zip(own, given))
        else:
            out[name] = tuple(given)
    return out


__all__ = ["localise"]
