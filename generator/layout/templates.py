"""Layout templates: the text fields of a layout are jinja2 templates, compiled once per layout.

Templates run in a sandboxed jinja2 environment with `StrictUndefined`, so a layout naming a field a card does
not have is an error, never an empty string. What a template prints from the card is data: it is never
evaluated again as a template, and the markup characters in it are escaped (:func:`escape_markup`), so a card
whose text holds `{{ x }}`, `**` or `</svg>` prints exactly that. (XML escaping is the SVG backend's job, done
on the laid-out runs, so text is escaped exactly once.) Templates made only of text and `{{ a.b }}` fields skip
jinja2 entirely (and its import).

A box with `markup: true` opts in to markup from the data: its template is compiled with `markup=True`, and what
it prints from the card is not escaped, so a cell's `**bold**`, `[colour=red]...[/colour]` or `{mana}` takes
effect. The sandbox is the same; the value is still never run as a template.

Each compiled template knows the names it reads (:attr:`Template.names`): a deck's back that reads nothing but
`deck` is drawn once, a back that reads a card's values is drawn for each card.
"""

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, NamedTuple

from generator.render.colour import ink_on
from generator.render.text import escape_markup

#: An icon's name (built-in or a deck's own); whether the deck has it is checked when the text is drawn.
_ICON_NAME = re.compile(r"[a-z][a-z0-9-]*")
#: Names jinja2 provides to every template: reading them says nothing about the card.
JINJA_GLOBALS = frozenset({"range", "dict", "lipsum", "cycler", "joiner", "namespace", "loop", "true", "false",
                           "none", "True", "False", "None"})


def icon_row(count: Any, name: str) -> str:
    """`{{ n | icons('rope') }}`: the icon token `{rope}` n times (0 gives nothing)."""
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 50:
        raise ValueError(f"icons: expected a count from 0 to 50, got {count!r}")
    if not isinstance(name, str) or not _ICON_NAME.fullmatch(name):
        raise ValueError(f"icons: {name!r} is not an icon name")
    return ("{" + name + "}") * count


def icon_token(name: Any) -> str:
    """`{{ colour.symbol | icon }}`: the icon token `{triangle}` for an icon named by a value."""
    if not isinstance(name, str) or not _ICON_NAME.fullmatch(name):
        raise ValueError(f"icon: {name!r} is not an icon name")
    return "{" + name + "}"


def _as_is(value: Any) -> str:
    """What a markup box prints from the card: the value's text, its markup left to take effect."""
    return "" if value is None else value if isinstance(value, str) else str(value)


@cache
def environment(markup: bool = False) -> Any:
    """The jinja2 environment of layouts: sandboxed, strict about undefined names, markup-escaping output (or, for
    boxes with `markup: true`, printing values as they are)."""
    from jinja2 import StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    env = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False,
                               finalize=_as_is if markup else escape_markup,
                               trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False)
    env.filters["icons"] = icon_row
    env.filters["icon"] = icon_token
    env.filters["ink"] = ink_on
    return env


class Undefined(LookupError):
    """A template reads a value the card does not have (jinja2's StrictUndefined, or the fast path's)."""


class TemplateFailure(Exception):
    """A template or expression that cannot be compiled or evaluated; `line` is within the template."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def _jinja_call(call: Callable[[], Any]) -> Any:
    """Run a jinja2 template or expression, turning jinja2's errors into ours (so callers need not import it)."""
    from jinja2 import TemplateError, UndefinedError

    try:
        return call()
    except UndefinedError as err:
        raise Undefined(str(err)) from None
    except TemplateError as err:
        raise TemplateFailure(str(err)) from None


#: `{{ name }}` or `{{ name.attr.attr }}`: the templates most layouts hold, rendered without jinja2 at all.
_SIMPLE = re.compile(r"\{\{\s*([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*)\s*\}\}")


def lookup(context: Mapping[str, Any], path: str) -> Any:
    """`a.b.c` the way jinja2 reads it (attribute, else item), strict about anything missing."""
    head, *rest = path.split(".")
    if head not in context:
        raise Undefined(f"'{head}' is undefined")
    value = context[head]
    for name in rest:
        try:
            value = getattr(value, name)
        except AttributeError:
            try:
                value = value[name]
            except (TypeError, LookupError):
                raise Undefined(f"'{type(value).__name__}' value has no attribute '{name}' "
                                f"(in {{{{ {path} }}}})") from None
    return value


class Template(NamedTuple):
    """A compiled template: plain text, a simple one (text and `{{ a.b }}` fields), or a jinja2 template.

    Simple templates skip jinja2 (and its import) and behave as jinja2 would with this environment: the same
    attribute-then-item lookup, the same error for a missing value, the same markup escaping of values."""

    source: str
    compiled: Any = None
    #: literal text and value paths, alternating (literal first)
    simple: tuple[str, ...] = ()
    #: the names the template reads (`card`, `deck`, a column...)
    names: frozenset[str] = frozenset()
    #: print the values it reads as they are (a box with `markup: true`), not escaped
    markup: bool = False

    @property
    def fixed(self) -> bool:
        """Plain text, reading nothing."""
        return not self.simple and self.compiled is None

    def render(self, context: Mapping[str, Any]) -> str:
        if self.simple:
            parts = self.simple
            out = [parts[0]]
            show = _as_is if self.markup else escape_markup
            for i in range(1, len(parts), 2):
                out.append(show(lookup(context, parts[i])))
                out.append(parts[i + 1])
            return "".join(out)
        if self.compiled is None:
            return self.source
        compiled = self.compiled
        return str(_jinja_call(lambda: compiled.render(context)))


def compile_template(source: str, markup: bool = False) -> Template:
    """Compile once; a syntax error raises TemplateFailure with its line in the template."""
    if "{{" not in source and "{%" not in source and "{#" not in source:
        return Template(source, markup=markup)
    if "{%" not in source and "{#" not in source:
        parts = _SIMPLE.split(source)
        if not any("{{" in literal for literal in parts[0::2]):
            names = frozenset(path.split(".")[0] for path in parts[1::2])
            return Template(source, simple=tuple(parts), names=names, markup=markup)
    env = environment(markup)
    compiled = _compile(lambda: env.from_string(source))
    return Template(source, compiled, names=_read_names(env, source), markup=markup)


def _read_names(env: Any, source: str) -> frozenset[str]:
    """The names a jinja2 template reads from its context (jinja2's own analysis)."""
    from jinja2 import meta

    return frozenset(meta.find_undeclared_variables(env.parse(source))) - JINJA_GLOBALS


def _compile(make: Callable[[], Any]) -> Any:
    from jinja2 import TemplateSyntaxError

    try:
        return make()
    except TemplateSyntaxError as err:
        raise TemplateFailure(err.message or str(err), err.lineno) from None


def compile_expression(source: str) -> Callable[..., Any]:
    """A `when`/`items` expression: called with the context mapping, it gives the value."""
    path = source.strip()
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*", path) and path not in (
            "true", "false", "none", "True", "False", "None"):
        return lambda context: lookup(context, path)
    compiled = _compile(lambda: environment().compile_expression(source, undefined_to_none=False))
    return lambda context: _jinja_call(lambda: compiled(context))


def expression_names(source: str) -> frozenset[str]:
    """The names a `when`/`items` expression reads."""
    path = source.strip()
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*", path):
        return frozenset({path.split(".")[0]}) - JINJA_GLOBALS
    names: frozenset[str] = _compile(lambda: _read_names(environment(), "{{ (" + source + ") }}"))
    return names


