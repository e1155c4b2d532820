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

Only text and numbers print: a template printing a list, a mapping or a method (`{{ card.fields.items }}`,
whose text would hold a memory address) is an error, so that the same input always gives the same bytes.

Templates run on a budget, so that no layout can hang or exhaust a build: each rendering may take at most
:data:`MAX_STEPS` steps (a loop's turn, a macro call, a call of a function or filter), make no text or list
longer than :data:`MAX_SIZE`, pass no number larger than :data:`MAX_SIZE` to a function or filter, and print at
most :data:`MAX_OUTPUT` characters. A layout going over any of them is refused by `donjon content check` and
`donjon build` alike, with its file, box and card. jinja2's `lipsum` and `random` are not offered: they are
random, and two builds of one deck must give the same bytes.
"""

import functools
import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from generator.render.colour import ink_on
from generator.render.text import escape_markup

#: An icon's name (built-in or a deck's own); whether the deck has it is checked when the text is drawn. This
#: pattern and the two below are text, compiled by `re` when first used: a plain deck's templates never use them.
_ICON_NAME = r"[a-z][a-z0-9-]*"
#: Names jinja2 provides to every template, and the translators every drawing has: reading them says nothing
#: about the card.
JINJA_GLOBALS = frozenset({"_", "ngettext", "range", "dict", "lipsum", "cycler", "joiner", "namespace", "loop",
                           "true", "false", "none", "True", "False", "None"})


def icon_row(count: Any, name: str) -> str:
    """`{{ n | icons('rope') }}`: the icon token `{rope}` n times (0 gives nothing)."""
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 50:
        raise ValueError(f"icons: expected a count from 0 to 50, got {count!r}")
    if not isinstance(name, str) or not re.fullmatch(_ICON_NAME, name):
        raise ValueError(f"icons: {name!r} is not an icon name")
    return ("{" + name + "}") * count


def icon_token(name: Any) -> str:
    """`{{ colour.symbol | icon }}`: the icon token `{triangle}` for an icon named by a value."""
    if not isinstance(name, str) or not re.fullmatch(_ICON_NAME, name):
        raise ValueError(f"icon: {name!r} is not an icon name")
    return "{" + name + "}"


def palette_name(value: Any) -> str:
    """`{{ Faction | palette }}`: a value as the name of a colour of the layout's palette (`Deep Sea` is `deep-sea`,
    accents dropped), for a colour key, which then looks it up (a name the palette lacks is an error naming the
    palette's colours)."""
    import unicodedata

    text = unicodedata.normalize("NFKD", str(value)).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def either(values: Any, word: str = "or") -> str:
    """`{{ [2, 3, 5] | either(words.or) }}`: "2, 3 or 5", the joining word given by the layout (a translation
    gives its own)."""
    if not isinstance(values, (list, tuple)) or not values:
        raise ValueError(f"either: expected a list of values, got {values!r}")
    shown = [str(v) for v in values]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} {word} {shown[-1]}"


#: The steps one rendering of a template may take: a card's templates take a few dozen.
MAX_STEPS = 100_000
#: The longest text or list a template may make, and the largest number it may pass to a function or filter
#: (a width, a count): card texts are at most a few thousand characters.
MAX_SIZE = 10_000
#: The most characters one rendering may print.
MAX_OUTPUT = 20_000


class TemplateBudget(ValueError):
    """A template that goes over its budget (steps, sizes, depth, memory)."""


class _Budget:
    """The steps taken by the rendering under way (one count for both environments: a card renders one
    template at a time)."""

    steps = 0


def _printable(value: Any) -> str | int | float | None:
    """The value, if a template may print it: text or a number (or nothing); anything else is an error."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    if type(value).__name__.endswith("Undefined"):  # jinja2's StrictUndefined: printing it raises its own error
        return str(value)
    kind = ("a method or function (call it, with brackets?)" if callable(value) else
            "a mapping" if isinstance(value, Mapping) else
            "a list" if isinstance(value, (list, tuple, set, frozenset)) else f"a {type(value).__name__}")
    raise TemplateBudget(f"prints {kind}; only text and numbers can be printed")


def printed(value: Any) -> str:
    """What a template prints from a value: text or a number, its markup escaped (a layout's own words, translated,
    keep their markup: they are the layout's text, not the card's)."""
    if isinstance(value, Translated):
        return value
    return escape_markup(_printable(value))


class Translated(str):
    """A layout's own words in the language of the build (`{{ _('Floor tile') }}`): printed with their markup."""

    __slots__ = ()


#: `{name}` in a translated message: the value passed as `name=` (other braces, such as icons, stay).
_PLACEHOLDER = r"\{([a-z_][a-z0-9_]*)\}"


def _filled(message: str, values: Mapping[str, Any]) -> Translated:
    """`message` with each `{name}` given in `values` replaced by that value, printed as card data is (escaped);
    no attribute or index is ever looked up, so a message cannot reach into what it formats."""
    if not values:
        return Translated(message)
    return Translated(re.sub(_PLACEHOLDER, lambda m: printed(values[m.group(1)]) if m.group(1) in values else m.group(),
                              message))


def translators(lang: Any) -> dict[str, Callable[..., Translated]]:
    """The `_` and `ngettext` a layout's templates call, in `lang` (a :class:`generator.i18n.Language`):
    `_('Floor {n}', n=tile.floor)`, `ngettext('{n} rope', '{n} ropes', tile.ropes)` (`n` is the count)."""

    def gettext(message: str, **values: Any) -> Translated:
        return _filled(lang._(str(message)), values)

    def ngettext(singular: str, plural: str, count: int, **values: Any) -> Translated:
        return _filled(lang.ngettext(str(singular), str(plural), count), {"n": count, **values})

    return {"_": gettext, "ngettext": ngettext}


def _as_is(value: Any) -> str:
    """What a markup box prints from the card: the value's text, its markup left to take effect."""
    shown = _printable(value)
    return "" if shown is None else shown if isinstance(shown, str) else str(shown)


def _check_length(kind: str, length: int) -> None:
    """Refuse, before it is made, a text or list longer than MAX_SIZE."""
    if length > MAX_SIZE:
        raise TemplateBudget(f"makes a {kind} of {length:,} items, more than the {MAX_SIZE:,} a template may")


def _sized(value: Any) -> Any:
    if isinstance(value, (str, bytes, list, tuple, dict, set)):
        _check_length(type(value).__name__, len(value))
    return value


#: A width or precision of 5 digits or more in a format string (`%099999d`, `{:>99999}`): text a card cannot hold.
_WIDE = r"\d{5,}"


def _check_format(text: Any) -> None:
    if not isinstance(text, str) or ("%" not in text and "{" not in text):
        return
    wide = re.search(_WIDE, text)
    if wide:
        raise TemplateBudget(f"formats with a width of {wide.group()} characters "
                             f"(in {text[:40]!r}); a template may make at most {MAX_SIZE:,}")


def _check_numbers(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SIZE:
            raise TemplateBudget(f"passes the number {value:,} to a function or filter; a template may pass at "
                                 f"most {MAX_SIZE:,}")


@cache
def environment(markup: bool = False) -> Any:
    """The jinja2 environment of layouts: sandboxed, strict about undefined names, markup-escaping output (or, for
    boxes with `markup: true`, printing values as they are), on a budget (see the module's notes)."""
    from jinja2 import StrictUndefined
    from jinja2.compiler import CodeGenerator
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class Counting(CodeGenerator):
        """Every block the template runs (a loop's turn, a macro's body, a branch) counts a step."""

        def blockvisit(self, nodes: Any, frame: Any) -> None:
            self.writeline("environment.tick()")
            super().blockvisit(nodes, frame)

        def visit_Concat(self, node: Any, frame: Any) -> None:  # noqa: N802 - jinja2's visitor name
            # `a ~ b` has no sandbox hook: its result is checked like any other (so `s ~ s` cannot double for ever)
            self.write("environment.joined(")
            super().visit_Concat(node, frame)
            self.write(")")

    class Budgeted(ImmutableSandboxedEnvironment):
        """Lists, mappings and sets are read only (no `append` or `extend` to grow them step by step)."""

        code_generator_class = Counting
        intercepted_binops = frozenset(["*", "**", "+", "%"])

        def joined(self, text: Any) -> Any:
            return _sized(text)

        def tick(self) -> None:
            _Budget.steps += 1
            if _Budget.steps > MAX_STEPS:
                raise TemplateBudget(f"takes more than {MAX_STEPS:,} steps (loops, macro calls); a card's template "
                                     "takes a few dozen")

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            self.tick()
            if operator == "**" and isinstance(left, (int, float)) and isinstance(right, (int, float)) and (
                    abs(right) > 64 and abs(left) > 1):
                raise TemplateBudget(f"raises a number to the power {right:,}; a template may use at most 64")
            if operator == "*":
                for count, other in ((left, right), (right, left)):
                    if isinstance(count, int) and isinstance(other, (str, list, tuple)):
                        _check_length(type(other).__name__, max(0, count) * len(other))
            if operator == "%":
                _check_format(left)
            if operator == "+" and isinstance(left, (str, list, tuple)) and isinstance(right, type(left)):
                _check_length(type(left).__name__, len(left) + len(right))
            return _sized(super().call_binop(context, operator, left, right))

        def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
            __self.tick()
            _check_numbers(args, kwargs)
            if getattr(__obj, "__name__", "") in ("format", "format_map"):
                _check_format(getattr(getattr(__obj, "__wrapped__", __obj), "__self__", None))
            return _sized(super().call(__context, __obj, *args, **kwargs))

    env = Budgeted(undefined=StrictUndefined, autoescape=False, finalize=_as_is if markup else printed,
                   trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False)
    env.filters["icons"] = icon_row
    env.filters["icon"] = icon_token
    env.filters["ink"] = ink_on
    env.filters["palette"] = palette_name
    env.filters["either"] = either

    def budgeted(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)  # keeps jinja2's pass_context / pass_environment marks
        def run(value: Any, *args: Any, **kwargs: Any) -> Any:
            env.tick()
            _check_numbers(args, kwargs)
            _check_format(value)
            try:
                return _sized(function(value, *args, **kwargs))
            except AssertionError as err:  # jinja2 checks some arguments so (`truncate(-1)`)
                raise ValueError(f"the filter {name!r} refuses its arguments ({err})") from None
        return run

    # `random` picks anew on every build: two builds of one deck would differ (as `lipsum` would)
    env.filters = {name: budgeted(name, f) for name, f in env.filters.items() if name != "random"}

    class Steps:
        """`range()` whose every item counts a step (so `range(n)|list` or a loop over it keeps the budget)."""

        def __init__(self, *args: int) -> None:
            _check_numbers(args, {})
            self.items = range(*args)

        def __iter__(self) -> Any:
            for item in self.items:
                env.tick()
                yield item

        def __len__(self) -> int:
            return len(self.items)

    env.globals["range"] = Steps
    env.globals.pop("lipsum", None)
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


#: `{{ name }}` or `{{ name.attr.attr }}`, and `{{ _('words') }}`: the templates most layouts hold, rendered without
#: jinja2 at all.
_SIMPLE = re.compile(r"\{\{\s*([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*|_\('[^'\\{}]*'\)|"
                     r'_\("[^"\\{}]*"\))\s*\}\}')


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


class Template:
    """A compiled template: plain text, a simple one (text and `{{ a.b }}` fields), or a jinja2 template.

    Simple templates skip jinja2 (and its import) and behave as jinja2 would with this environment: the same
    attribute-then-item lookup, the same error for a missing value, the same markup escaping of values."""

    __slots__ = ("source", "compiled", "simple", "names", "markup")

    source: str
    compiled: Any
    #: literal text and value paths, alternating (literal first)
    simple: tuple[str, ...]
    #: the names the template reads (`card`, `deck`, a column...)
    names: frozenset[str]
    #: print the values it reads as they are (a box with `markup: true`), not escaped
    markup: bool

    def __init__(self, source: str, compiled: Any = None, simple: tuple[str, ...] = (),
                 names: frozenset[str] = frozenset(), markup: bool = False) -> None:
        self.source = source
        self.compiled = compiled
        self.simple = simple
        self.names = names
        self.markup = markup

    @property
    def fixed(self) -> bool:
        """Plain text, reading nothing."""
        return not self.simple and self.compiled is None

    def render(self, context: Mapping[str, Any]) -> str:
        if self.simple:
            parts = self.simple
            out = [parts[0]]
            show = _as_is if self.markup else printed
            for i in range(1, len(parts), 2):
                path = parts[i]
                if path.startswith("_("):
                    translate = context.get("_")
                    out.append(translate(path[3:-2]) if translate is not None else Translated(path[3:-2]))
                else:
                    out.append(show(lookup(context, path)))
                out.append(parts[i + 1])
            return "".join(out)
        if self.compiled is None:
            return self.source
        compiled = self.compiled
        text = str(_budgeted(lambda: compiled.render(context)))
        if len(text) > MAX_OUTPUT:
            raise TemplateBudget(f"prints {len(text):,} characters, more than the {MAX_OUTPUT:,} a template may")
        return text


def compile_template(source: str, markup: bool = False) -> Template:
    """Compile once; a syntax error raises TemplateFailure with its line in the template."""
    if "{{" not in source and "{%" not in source and "{#" not in source:
        return Template(source, markup=markup)
    if "{%" not in source and "{#" not in source:
        parts = _SIMPLE.split(source)
        if not any("{{" in literal for literal in parts[0::2]):
            names = frozenset(path.split(".")[0] for path in parts[1::2] if not path.startswith("_("))
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
    except (SyntaxError, RecursionError, MemoryError):
        # Python's compiler refuses code nested some 200 deep: a product of 300 factors, 300 brackets
        raise TemplateFailure("nests its expressions too deeply to be compiled (hundreds of operators or brackets in "
                              "one expression); split it with {% set %}") from None


def compile_expression(source: str) -> Callable[..., Any]:
    """A `when`/`items` expression: called with the context mapping, it gives the value."""
    path = source.strip()
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*", path) and path not in (
            "true", "false", "none", "True", "False", "None"):
        return lambda context: lookup(context, path)
    compiled = _compile(lambda: environment().compile_expression(source, undefined_to_none=False))
    return lambda context: _budgeted(lambda: compiled(context))


def _budgeted(call: Callable[[], Any]) -> Any:
    """Run a template or expression on a fresh budget; running too deep or out of memory is over budget too."""
    _Budget.steps = 0
    try:
        return _jinja_call(call)
    except RecursionError:
        raise TemplateBudget("calls itself too deeply (a macro that never stops calling itself?)") from None
    except MemoryError:
        raise TemplateBudget("needs more memory than there is") from None


def expression_names(source: str) -> frozenset[str]:
    """The names a `when`/`items` expression reads."""
    path = source.strip()
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*", path):
        return frozenset({path.split(".")[0]}) - JINJA_GLOBALS
    names: frozenset[str] = _compile(lambda: _read_names(environment(), "{{ (" + source + ") }}"))
    return names


